/**
 * The one table of common options. Commander's options, the pre-scan's set of value-taking flags and
 * the set of attribute names a task option may not take are all derived from it, so they cannot drift.
 */
import { Option, type Command } from 'commander';
import { parsePositiveIntegerArg } from './options.js';

/** Which commands get an option: every command, those that print a report, those that run a task. */
export type CommonScope = 'all' | 'report' | 'run';

export interface CommonOptionSpec {
  /** The flag as written, with its value placeholder: `--format <format>`, `-q, --quiet`. */
  flags: string;
  description: string;
  scope: CommonScope;
  /** Commander's attribute name (`cacheDir` for `--cache-dir`); derived from the flag when left out. */
  attribute?: string;
  make?: (option: Option) => Option;
}

const specs: CommonOptionSpec[] = [
  { flags: '--format <format>', description: 'output format', scope: 'all' },
  { flags: '--out <file>', description: 'also write the report to this file (atomically; the format follows its extension unless --format is given)', scope: 'report' },
  { flags: '--metric <name>', description: "metric to compute (one of the task's accepted metrics; default: the official one)", scope: 'report' },
  {
    flags: '--workers <n>',
    // no commander default: an absent --workers lets the task choose the count from the work (RunContext.workersAuto)
    description: 'worker threads (default: chosen from the work, at most the number of cores)',
    scope: 'run',
    make: (o) => o.argParser(parsePositiveIntegerArg),
  },
  { flags: '--cache-dir <dir>', description: 'cache directory for parsed ground truth and compiled chart code (default: $CVDEVKIT_CACHE_DIR or ~/.cache/cvdevkit)', scope: 'run' },
  { flags: '--no-cache', description: 'do not read or write the cache', scope: 'run', attribute: 'cache' },
  {
    flags: '--input-limit <kind=size>',
    description: 'raise a size cap on inputs, e.g. text=2G or png-pixels=400M (kinds: text, xml, png, png-pixels, mat, counts, counts-unzipped); repeatable',
    scope: 'run',
    make: (o) => o.argParser((v: string, prev: string[] = []) => [...prev, v]),
  },
  { flags: '-q, --quiet', description: 'no progress bar, no warnings', scope: 'all' },
  { flags: '--debug', description: 'print stack traces of internal errors', scope: 'all' },
  {
    flags: '--plugin <specifier>',
    description: 'load a plugin (package name or file path); repeatable',
    scope: 'all',
    make: (o) => o.argParser((v: string, prev: string[] = []) => [...prev, v]),
  },
];

/** Adds a common option (side outputs declare theirs through this). */
export function defineCommonOption(spec: CommonOptionSpec): void {
  specs.push(spec);
}

/** Options some commands add for themselves (`demo --dir`, `eval --per-image`, `analyze --only …`), reserved like the common ones. */
const COMMAND_OPTION_FLAGS = ['--dir <dir>', '--per-image', '--only <sections>', '--tide-mode <mode>', '--top <n>', '--conf <score>', '--images <dir>'];
const RESERVED_ATTRIBUTES = ['help', 'version'];

/** The long names of the command-specific options (not added by `addCommonOptions`). */
export function commandOptionLongs(): Set<string> {
  return new Set(COMMAND_OPTION_FLAGS.map((f) => new Option(f).long as string));
}

function attributeOf(spec: CommonOptionSpec): string {
  return spec.attribute ?? new Option(spec.flags).attributeName();
}

/** Every common option (and command-specific option) taking a value, as written in argv: `--format`, `--out`, … */
export function valueFlags(): Set<string> {
  const out = new Set<string>();
  for (const flags of [...specs.map((s) => s.flags), ...COMMAND_OPTION_FLAGS]) {
    const o = new Option(flags);
    if (o.required || o.optional) out.add(o.long as string);
  }
  return out;
}

/** The attribute names a task option may not use (they belong to common options). */
export function reservedAttributes(): Set<string> {
  return new Set([...specs.map(attributeOf), ...COMMAND_OPTION_FLAGS.map((f) => new Option(f).attributeName()), ...RESERVED_ATTRIBUTES]);
}

/** Adds the common options of the given scopes to `cmd`; `formats` are the choices of `--format`. */
export function addCommonOptions(cmd: Command, scopes: { report?: boolean; run?: boolean }, formats: readonly string[]): Command {
  for (const spec of specs) {
    if ((spec.scope === 'report' && !scopes.report) || (spec.scope === 'run' && !scopes.run)) continue;
    let option = new Option(spec.flags, spec.description);
    if (spec.flags.startsWith('--format ')) option = option.choices(formats).default('table');
    cmd.addOption(spec.make ? spec.make(option) : option);
  }
  return cmd;
}
