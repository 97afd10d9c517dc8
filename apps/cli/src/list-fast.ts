/**
 * `cvdevkit list` without commander: when argv is `list` followed only by options `list` accepts (`--format
 * <table|json|csv|markdown>`, `-q`/`--quiet`, `--debug`, `--plugin <specifier>`, each as commander reads it), the
 * bin answers here, which saves loading and building commander's program (about a fifth of the command's start-up).
 * It does what main.ts's path does for `list`: the same discovery (cli-registry.ts), warnings, output (list-output.ts),
 * errors (failures.ts) and Ctrl-C handling. Any other argv (help, a typo, an unknown option or value, `--`) returns
 * undefined and goes through main.ts, whose messages for those cases are commander's.
 */
import { loadCliRegistry } from './cli-registry.js';
import { LIST_FORMATS, writeList } from './commands/list-output.js';
import { EXIT, Interrupted, printError } from './failures.js';
import { installInterruptHandler, wasInterrupted } from './interrupt.js';
import type { CliIo } from './io.js';
import { stdoutSink } from './output/sink.js';

/**
 * The option attribute names a plugin's task option may not take: common-options.ts's `reservedAttributes()`, which
 * needs commander to derive them (a test checks that the two agree).
 */
export const LIST_RESERVED_OPTIONS: readonly string[] = [
  ...['format', 'out', 'metric', 'workers', 'cacheDir', 'cache', 'inputLimit', 'quiet', 'debug', 'plugin', 'plots', 'plotFormat'],
  ...['dir', 'perImage', 'only', 'tideMode', 'top', 'conf', 'images', 'help', 'version'],
];

export interface ListArgs {
  format: string;
  quiet: boolean;
  debug: boolean;
  plugins: string[];
}

/** `list`'s options from argv, or undefined when argv is anything else than `list` with options it accepts. */
export function listArgs(argv: readonly string[]): ListArgs | undefined {
  if (argv[0] !== 'list') return undefined;
  const args: ListArgs = { format: 'table', quiet: false, debug: false, plugins: [] };
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i];
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    const flag = eq < 0 ? a : a.slice(0, eq);
    if (flag === '--format' || flag === '--plugin') {
      const value = eq < 0 ? argv[++i] : a.slice(eq + 1);
      // a missing, empty or dash-led value is left to commander's own reading and messages
      if (value === undefined || value === '' || value.startsWith('-')) return undefined;
      if (flag === '--plugin') args.plugins.push(value);
      else if ((LIST_FORMATS as readonly string[]).includes(value)) args.format = value;
      else return undefined;
    } else if (a === '-q' || a === '--quiet') args.quiet = true;
    else if (a === '--debug') args.debug = true;
    else return undefined;
  }
  return args;
}

/** Runs `cvdevkit list` when `listArgs` accepts argv and returns the exit code; undefined (nothing done) otherwise. */
export async function runList(argv: readonly string[], io: CliIo = { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd(), env: process.env }): Promise<number | undefined> {
  const args = listArgs(argv);
  if (args === undefined) return undefined;
  if (io.handleSignals !== false) installInterruptHandler(io.stderr);
  try {
    const registry = await loadCliRegistry(io, args.plugins, LIST_RESERVED_OPTIONS);
    if (!args.quiet) for (const w of registry.warnings) io.stderr.write(`warning: ${w}\n`);
    const stdout = stdoutSink(io.stdout);
    writeList(registry, args.format, (text) => stdout.write(text), io.stderr);
    // a Ctrl-C during the run (even one seen only after it ended) means exit 130
    if (io.handleSignals !== false && wasInterrupted()) return printError(new Interrupted(), io.stderr, args.debug);
    return EXIT.ok;
  } catch (e) {
    return printError(e, io.stderr, args.debug);
  }
}
