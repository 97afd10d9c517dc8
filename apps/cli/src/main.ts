/** The CLI's entry: pre-scan argv, load the registry, build the program, run it, map errors to exit codes. */
import { CommanderError } from 'commander';
import { unknownTaskError, type PluginRegistry } from '@cvdevkit/registry';
import { checkArgv } from './argv-check.js';
import { loadCliRegistry } from './cli-registry.js';
import { installInterruptHandler } from './interrupt.js';
import { TASK_COMMANDS } from './commands/index.js';
import { reservedAttributes, valueFlags } from './common-options.js';
import { EXIT, Interrupted, printError } from './failures.js';
import type { CliIo } from './io.js';
import { optimiseTheRun } from './optimising-compiler.js';
import { buildProgram } from './program.js';
import { CliSession } from './session.js';
import { cliVersion } from './version.js';

export { EXIT } from './failures.js';
export type { CliIo } from './io.js';

/** `--plugin` values, `--debug`, `--quiet`, the command and its task argument, read before commander runs. */
export function prescan(argv: string[], knownTasks: (id: string) => boolean = () => false) {
  const takesValue = valueFlags();
  const plugins: string[] = [];
  let debug = false;
  let quiet = false;
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (a === '--plugin' && i + 1 < argv.length) plugins.push(argv[++i]);
    else if (a.startsWith('--plugin=')) plugins.push(a.slice('--plugin='.length));
    else if (a === '--debug') debug = true;
    else if (a === '--quiet' || a === '-q') quiet = true;
    else if (takesValue.has(a)) i++;
    else if (!a.startsWith('-')) positionals.push(a);
  }
  const command = positionals[0];
  const rest = positionals.slice(1);
  const task = TASK_COMMANDS.has(command ?? '') ? (rest.find((p) => knownTasks(p)) ?? rest[0]) : undefined;
  return { plugins, debug, quiet, command, task };
}

/** Commands that, without a task id the pre-scan knows, import every plugin (`demo` runs every sample; `merge` names its task after the command). */
const LOADS_EVERY_PLUGIN = new Set(['demo', 'merge']);

const HANDLED_BY_COMMANDER = new Set(['commander.helpDisplayed', 'commander.version', 'commander.help']);

/**
 * Runs the CLI on `argv` (without `node` and the script) and returns the exit code:
 * 0 success, 1 usage error, 2 invalid input data, 3 internal error, 130 interrupted.
 */
export async function run(argv: string[], io: CliIo = { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd(), env: process.env }): Promise<number> {
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    io.stdout.write(cliVersion() + '\n');
    return EXIT.ok;
  }
  if (io.handleSignals !== false) installInterruptHandler(io.stderr);
  const pre = prescan(argv);
  let session: CliSession | undefined;
  try {
    const registry: PluginRegistry = await loadCliRegistry(io, pre.plugins, reservedAttributes());
    session = new CliSession(io, registry);
    session.debug = pre.debug;
    session.quiet = pre.quiet;
    for (const w of registry.warnings) session.warn(w);
    const { command, task } = prescan(argv, (id) => registry.hasTask(id));
    if (command !== undefined && TASK_COMMANDS.has(command) && task !== undefined && !registry.hasTask(task))
      throw unknownTaskError(task, registry.tasks().map((t) => t.id));
    // Only the plugin a command runs is imported: `list` and help read the manifests.
    if (task !== undefined && registry.hasTask(task)) await registry.loadTask(task);
    else if (command !== undefined && LOADS_EVERY_PLUGIN.has(command)) await registry.loadAll();
    const result = { code: EXIT.ok as number };
    const program = buildProgram(session, io, task, result, command);
    if (argv.length === 0) {
      program.outputHelp();
      return EXIT.usage;
    }
    checkArgv(program, argv);
    // start-up is done: the command's run gets V8's optimising compiler (the bin starts without it), unless its task
    // says it needs none (`optimisingCompiler: false`)
    optimiseTheRun(task === undefined || registry.findTask(task)?.task.optimisingCompiler !== false);
    await program.parseAsync(argv, { from: 'user' });
    // A Ctrl-C during the run (even one seen only after it ended) means exit 130, whatever the run returned.
    if (session.interrupted) return session.reportError(new Interrupted());
    return result.code;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (HANDLED_BY_COMMANDER.has(e.code)) return EXIT.ok;
      // printed here, not by printError (failures.ts stays free of commander for list-fast.ts); no progress bar to
      // stop first: the bar lives only inside a command's run (CliSession.withContext)
      io.stderr.write(e.message.replace(/\s*\n\s*/g, ' ').trim() + '\n');
      return EXIT.usage;
    }
    if (session) return session.reportError(e);
    return printError(e, io.stderr, pre.debug);
  }
}
