/** What a command module gets to register itself, and the task-option wiring eval and validate share. */
import type { Command } from 'commander';
import type { RegisteredTask } from '@cvdevkit/registry';
import { reservedAttributes } from '../common-options.js';
import { commanderOption, kebabCase } from '../options.js';
import type { CliSession } from '../session.js';

export interface CommandSetup {
  program: Command;
  session: CliSession;
  /** The task named on the command line, when the registry knows it (its options become flags). */
  entry: RegisteredTask | undefined;
  /** Task ids of every installed plugin. */
  known: string[];
  /** Records a command's exit code. */
  done(code: number | Promise<number>): Promise<void>;
}

/** A command module: `commands/<name>.ts` exports one of these. */
export type CommandModule = (setup: CommandSetup) => void;

/**
 * Adds a task's declared options to a command; returns option name → commander attribute. `optional`: no option
 * is mandatory (`merge`, whose task options only shape the merged report).
 */
export function addTaskOptions(cmd: Command, entry: RegisteredTask, warn: (m: string) => void, { optional = false } = {}): Map<string, string> {
  const reserved = reservedAttributes();
  const attributeOf = new Map<string, string>();
  for (const spec of entry.task.options) {
    const options = commanderOption(optional ? { ...spec, required: false } : spec);
    const attr = options[0].attributeName();
    if (reserved.has(attr)) {
      warn(`task "${entry.id}" option "${spec.name}" clashes with the common option --${kebabCase(spec.name)}; it cannot be set from the command line`);
      continue;
    }
    for (const o of options) cmd.addOption(o);
    attributeOf.set(spec.name, attr);
  }
  return attributeOf;
}
