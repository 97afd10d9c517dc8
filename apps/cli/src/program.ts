/** Builds the commander program over the discovered plugins, from the command modules. */
import { Command } from 'commander';
import { COMMANDS } from './commands/index.js';
import type { CliIo } from './io.js';
import type { CliSession } from './session.js';
import { cliVersion } from './version.js';

/**
 * `command`: the command argv names (the pre-scan's first positional). When it is one of the commands, only that
 * one is registered (a command's parsing, help and errors do not depend on its siblings), which saves building
 * the others' options on every run; otherwise (none, `help`, a typo to suggest a command for) all of them are.
 */
export function buildProgram(session: CliSession, io: CliIo, taskId: string | undefined, result: { code: number }, command?: string): Command {
  const registry = session.registry;
  const program = new Command('cvdevkit');
  const known = registry.tasks().map((t) => t.id);
  const output = { writeOut: (s: string) => io.stdout.write(s), writeErr: (s: string) => io.stderr.write(s), outputError: () => {} };
  program
    .description("Evaluate computer-vision benchmark submissions with the official devkits' numbers.")
    .version(cliVersion(), '-V, --version')
    .exitOverride()
    .configureOutput(output)
    .showSuggestionAfterError(true)
    .addHelpText('after', known.length > 0 ? `\nInstalled tasks: ${known.join(', ')}` : '\nNo plugins installed: pass --plugin <path>, or install a plugin package next to the CLI (see `cvdevkit list`).');
  const entry = taskId !== undefined ? registry.findTask(taskId) : undefined;
  const done = (p: number | Promise<number>) => Promise.resolve(p).then((c) => void (result.code = c));
  const only = command !== undefined ? COMMANDS.get(command) : undefined;
  for (const register of only !== undefined ? [only] : COMMANDS.values()) register({ program, session, entry, known, done });
  for (const cmd of program.commands) cmd.exitOverride().configureOutput(output);
  return program;
}
