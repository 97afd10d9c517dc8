import { resolve } from 'node:path';
import { InvalidArgumentError, Option } from 'commander';
import type { OptionSpec, TaskDefinition, TaskOptionValues } from '@cvdevkit/core';

/** `excludeGenerated` → `exclude-generated` (`useVOC07` → `use-voc07`). */
export function kebabCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1-$2')
    .toLowerCase();
}

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const INTEGER = /^[+-]?\d+$/;

/** Strict number parsing: a whole decimal literal (no trailing text, no hex, no empty string). */
export function parseNumberArg(value: string): number {
  const t = value.trim();
  if (!DECIMAL.test(t)) throw new InvalidArgumentError(`expected a number, found "${value}"`);
  const n = Number(t);
  if (!Number.isFinite(n)) throw new InvalidArgumentError(`expected a finite number, found "${value}"`);
  return n;
}

/** Strict integer parsing: digits with an optional sign, within the safe integer range. */
export function parseIntegerArg(value: string): number {
  const t = value.trim();
  if (!INTEGER.test(t)) throw new InvalidArgumentError(`expected an integer, found "${value}"`);
  const n = Number(t);
  if (!Number.isSafeInteger(n)) throw new InvalidArgumentError(`expected an integer of at most 15 digits, found "${value}"`);
  return n;
}

export function parsePositiveIntegerArg(value: string): number {
  const n = parseIntegerArg(value);
  if (n < 1) throw new InvalidArgumentError(`expected an integer >= 1, found "${value}"`);
  return n;
}

/** The commander option for a task option spec (`--root <path>`, `--seed <integer>`, `--verbose`). */
export function commanderOption(spec: OptionSpec): Option[] {
  const flag = `--${kebabCase(spec.name)}`;
  if (spec.type === 'boolean') {
    const on = new Option(flag, spec.description);
    if (spec.default === true) {
      on.default(true);
      return [on, new Option(`--no-${kebabCase(spec.name)}`, `turn off ${flag}`)];
    }
    return [on];
  }
  const mandatory = spec.required === true && spec.default === undefined;
  const option = new Option(`${flag} <${spec.type}>`, mandatory ? `${spec.description} (required)` : spec.description);
  if (spec.type === 'number') option.argParser(parseNumberArg);
  if (spec.type === 'integer') option.argParser(parseIntegerArg);
  if (spec.choices && spec.choices.length > 0) option.choices(spec.choices);
  if (spec.default !== undefined) option.default(spec.default);
  if (mandatory) option.makeOptionMandatory(true);
  return [option];
}

/**
 * The task's options object from commander's parsed values: paths resolved against `cwd`,
 * absent optional options left out.
 */
export function taskOptionValues(
  task: TaskDefinition<object>,
  parsed: Record<string, unknown>,
  attributeOf: Map<string, string>,
  cwd: string,
): TaskOptionValues {
  const values: TaskOptionValues = {};
  for (const spec of task.options) {
    const attr = attributeOf.get(spec.name);
    if (attr === undefined) continue;
    const v = parsed[attr];
    if (v === undefined) continue;
    values[spec.name] = spec.type === 'path' && typeof v === 'string' ? resolve(cwd, v) : (v as string | number | boolean);
  }
  return values;
}
