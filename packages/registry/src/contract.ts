import { CHART_KINDS, DevkitError, describeValue, type DatasetPlugin } from '@cvdevkit/core';

const OPTION_TYPES = new Set(['string', 'path', 'number', 'integer', 'boolean']);

/**
 * Option names a task may not declare: the CLI's common options (`--format`, `--out`, `--metric`,
 * `--workers`, `--cache-dir`, `--no-cache`, `--quiet`, `--debug`, `--plugin`), command options (`demo --dir`),
 * commander's own (`help`, `version`) and the side outputs' (`--plots`, `--plot-format`). A task option of
 * the same name could never be set from the command line, so the contract rejects it. The CLI adds the
 * names of its options table at discovery (`DiscoverOptions.reservedOptions`).
 */
export const RESERVED_OPTION_NAMES: readonly string[] = ['format', 'out', 'metric', 'workers', 'cacheDir', 'cache', 'quiet', 'debug', 'plugin', 'dir', 'help', 'version', 'plots', 'plotFormat'];

/** A `found` text used as is (not described as a value). */
export class Shown {
  constructor(readonly text: string) {}
}

/** The error for a plugin that breaks the contract: kind `internal` (exit code 3), code `plugin/contract`. */
export function contractError(label: string, field: string, expected: string, found: unknown, hint?: string): DevkitError {
  const foundText = found instanceof Shown ? found.text : describeValue(found);
  return new DevkitError({
    kind: 'internal',
    code: 'plugin/contract',
    field,
    expected,
    found: foundText,
    hint,
    message: `plugin ${label}: ${field}: expected ${expected}, found ${foundText}` + (hint ? ` (${hint})` : ''),
  });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isNonEmptyString(v: unknown): v is string {
  return typeof v === 'string' && v.length > 0;
}

/**
 * Checks that `value` (a module's default export) is a DatasetPlugin. Throws a one-line
 * `plugin/contract` DevkitError naming the plugin (`label`, for example `"my-plugin" (./my-plugin.js)`)
 * and the first missing or wrong field.
 */
export function assertPluginContract(value: unknown, label: string, reserved: Iterable<string> = RESERVED_OPTION_NAMES): asserts value is DatasetPlugin {
  const reservedNames = new Set([...RESERVED_OPTION_NAMES, ...reserved]);
  if (!isObject(value)) throw contractError(label, 'default export', 'a plugin object { meta, tasks }', value);
  const meta = value.meta;
  if (!isObject(meta)) throw contractError(label, 'meta', 'an object { name, version, title }', meta);
  for (const key of ['name', 'version', 'title'] as const) {
    if (!isNonEmptyString(meta[key])) throw contractError(label, `meta.${key}`, 'a non-empty string', meta[key]);
  }
  const tasks = value.tasks;
  if (!isObject(tasks)) throw contractError(label, 'tasks', 'an object mapping task ids to task definitions', tasks);
  const ids = Object.keys(tasks);
  if (ids.length === 0) throw contractError(label, 'tasks', 'at least one task', new Shown('an empty object'));
  for (const id of ids) {
    const t = tasks[id];
    const at = `tasks[${JSON.stringify(id)}]`;
    if (!isObject(t)) throw contractError(label, at, 'a task definition object', t);
    if (typeof t.id !== 'string') throw contractError(label, `${at}.id`, 'a string', t.id);
    if (t.id !== id) throw contractError(label, `${at}.id`, `${JSON.stringify(id)} (the key it is registered under)`, t.id);
    if (!isNonEmptyString(t.title)) throw contractError(label, `${at}.title`, 'a non-empty string', t.title);
    if (!Array.isArray(t.options)) throw contractError(label, `${at}.options`, 'an array of option specs', t.options);
    const seen = new Set<string>();
    t.options.forEach((o: unknown, i: number) => {
      const oat = `${at}.options[${i}]`;
      if (!isObject(o)) throw contractError(label, oat, 'an object { name, type, description }', o);
      if (!isNonEmptyString(o.name) || !/^[A-Za-z][A-Za-z0-9]*$/.test(o.name))
        throw contractError(label, `${oat}.name`, 'a camelCase identifier', o.name);
      if (seen.has(o.name)) throw contractError(label, `${oat}.name`, 'a unique option name', o.name);
      if (reservedNames.has(o.name))
        throw contractError(
          label,
          `${oat}.name`,
          'a name no common option uses',
          o.name,
          `"${o.name}" is reserved (${[...reservedNames].join(', ')}); rename the task option`,
        );
      seen.add(o.name);
      if (typeof o.type !== 'string' || !OPTION_TYPES.has(o.type))
        throw contractError(label, `${oat}.type`, 'one of string, path, number, integer, boolean', o.type);
      if (typeof o.description !== 'string') throw contractError(label, `${oat}.description`, 'a string', o.description);
      if (o.required !== undefined && typeof o.required !== 'boolean')
        throw contractError(label, `${oat}.required`, 'a boolean or undefined', o.required);
      if (o.choices !== undefined && (!Array.isArray(o.choices) || !o.choices.every((c) => typeof c === 'string')))
        throw contractError(label, `${oat}.choices`, 'an array of strings or undefined', o.choices);
      if (o.default !== undefined) {
        const want = o.type === 'boolean' ? 'boolean' : o.type === 'number' || o.type === 'integer' ? 'number' : 'string';
        if (typeof o.default !== want) throw contractError(label, `${oat}.default`, `a ${want} (the option's type is ${o.type})`, o.default);
      }
    });
    if (!isNonEmptyString(t.metric)) throw contractError(label, `${at}.metric`, 'a non-empty string', t.metric);
    const isMetric = (m: unknown) =>
      typeof m === 'string' || (isObject(m) && typeof m.name === 'string' && typeof m.description === 'string' && typeof m.compute === 'function');
    if (!Array.isArray(t.metrics) || !t.metrics.every(isMetric))
      throw contractError(label, `${at}.metrics`, 'an array of metric objects ({ name, description, compute }) or metric names', t.metrics);
    const names = t.metrics.map((m: unknown) => (typeof m === 'string' ? m : (m as { name: string }).name));
    if (!names.includes(t.metric))
      throw contractError(label, `${at}.metrics`, `an array containing the official metric ${JSON.stringify(t.metric)}`, new Shown(`[${names.join(', ')}]`));
    if (typeof t.evaluate !== 'function') throw contractError(label, `${at}.evaluate`, 'a function', t.evaluate);
    if (t.charts !== undefined) {
      if (!Array.isArray(t.charts)) throw contractError(label, `${at}.charts`, 'an array of chart requests or undefined', t.charts);
      t.charts.forEach((c: unknown, i: number) => {
        const kind = typeof c === 'object' && c !== null ? (c as { kind?: unknown }).kind : undefined;
        if (!(CHART_KINDS as readonly unknown[]).includes(kind)) throw contractError(label, `${at}.charts[${i}].kind`, `one of ${CHART_KINDS.join(', ')}`, kind);
      });
    }
    if (t.optimisingCompiler !== undefined && typeof t.optimisingCompiler !== 'boolean')
      throw contractError(label, `${at}.optimisingCompiler`, 'true, false or undefined', t.optimisingCompiler);
    for (const key of ['validate', 'sample', 'merge', 'analyze', 'replicate'] as const) {
      if (t[key] !== undefined && typeof t[key] !== 'function') throw contractError(label, `${at}.${key}`, 'a function or undefined', t[key]);
    }
  }
  if (value.metrics !== undefined && !Array.isArray(value.metrics)) throw contractError(label, 'metrics', 'an array or undefined', value.metrics);
  if (value.codes !== undefined) {
    if (typeof value.codes !== 'object' || value.codes === null || Array.isArray(value.codes)) throw contractError(label, 'codes', 'an object (code → meaning) or undefined', value.codes);
    for (const [code, meaning] of Object.entries(value.codes as Record<string, unknown>)) {
      if (!/^[a-z0-9]+\/[a-z0-9]+(-[a-z0-9]+)*$/.test(code)) throw contractError(label, `codes[${JSON.stringify(code)}]`, 'a code "<area>/<kebab-name>"', new Shown(JSON.stringify(code)));
      if (typeof meaning !== 'string' || meaning === '') throw contractError(label, `codes[${JSON.stringify(code)}]`, 'a one-line meaning (a non-empty string)', meaning);
    }
  }
}
