import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { availableParallelism, homedir, tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError, Option } from 'commander';
import { createRunContext, isDevkitError, usageError, type Diagnostic, type Report, type RunContext } from '@cvdevkit/core';
import { loadRegistry, unknownTaskError, type PluginRegistry, type RegisteredTask } from '@cvdevkit/registry';
import { commanderOption, kebabCase, parsePositiveIntegerArg, taskOptionValues } from './options.js';
import { createProgressBar, type ProgressBar } from './progress.js';
import { alignColumns, formatDiagnostic, markdownTable, renderReports, REPORT_FORMATS, type ReportFormat } from './render.js';

/** Where the CLI reads and writes; `process` by default, replaceable in tests. */
export interface CliIo {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Install SIGINT handling (default true). */
  handleSignals?: boolean;
}

const TASK_COMMANDS = new Set(['eval', 'validate', 'info', 'demo']);
/** Common options that take a value (for finding the task id in argv before parsing). */
const VALUE_OPTIONS = new Set(['--format', '--out', '--metric', '--workers', '--plugin', '--cache-dir', '--dir']);

export const EXIT = { ok: 0, usage: 1, input: 2, internal: 3, interrupted: 130 } as const;

function cliVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: string };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

/** `--plugin` values, `--debug`, `--quiet`, the command and its task argument, read before commander runs. */
export function prescan(argv: string[], knownTasks: (id: string) => boolean = () => false) {
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
    else if (VALUE_OPTIONS.has(a)) i++;
    else if (!a.startsWith('-')) positionals.push(a);
  }
  const command = positionals[0];
  const rest = positionals.slice(1);
  const task = TASK_COMMANDS.has(command ?? '') ? (rest.find((p) => knownTasks(p)) ?? rest[0]) : undefined;
  return { plugins, debug, quiet, command, task };
}

function writeAtomic(file: string, text: string): void {
  const tmp = join(dirname(file), `.${basename(file)}.${process.pid}.${Date.now().toString(36)}.tmp`);
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, file);
  } catch (e) {
    try {
      unlinkSync(tmp);
    } catch {
      // nothing was written
    }
    const err = e as NodeJS.ErrnoException;
    const reason = err.code === 'ENOENT' ? `directory ${dirname(file)} does not exist` : err.code === 'EACCES' ? 'permission denied' : err.message.split('\n')[0];
    throw usageError(`cannot write --out ${file}: ${reason}`, 'usage/out');
  }
}

interface CommonOptions {
  format: ReportFormat;
  out?: string;
  metric?: string;
  workers: number;
  quiet?: boolean;
  debug?: boolean;
  cacheDir?: string;
  cache?: boolean;
  dir?: string;
}

function addCommonOptions(cmd: Command, which: { report?: boolean; run?: boolean; formats?: readonly string[] }): Command {
  const formats = which.formats ?? REPORT_FORMATS;
  cmd.addOption(new Option('--format <format>', 'output format').choices(formats).default('table'));
  if (which.report) {
    cmd.option('--out <file>', 'also write the report to this file (atomically)');
    cmd.option('--metric <name>', "metric to compute (one of the task's accepted metrics; default: the official one)");
  }
  if (which.run) {
    cmd.addOption(new Option('--workers <n>', 'worker threads').argParser(parsePositiveIntegerArg).default(availableParallelism(), 'number of cores'));
    cmd.option('--cache-dir <dir>', 'cache directory for parsed ground truth (default: $CVDEVKIT_CACHE_DIR or ~/.cache/cvdevkit)');
    cmd.option('--no-cache', 'do not read or write the cache');
  }
  cmd.option('-q, --quiet', 'no progress bar, no warnings');
  cmd.option('--debug', 'print stack traces of internal errors');
  cmd.addOption(new Option('--plugin <specifier>', 'load a plugin (package name or file path); repeatable').argParser((v: string, prev: string[] = []) => [...prev, v]));
  return cmd;
}

const COMMON_ATTRIBUTES = new Set(['format', 'out', 'metric', 'workers', 'cacheDir', 'cache', 'quiet', 'debug', 'plugin', 'dir', 'help', 'version']);

/** Adds a task's declared options to a command; returns option name → commander attribute. */
function addTaskOptions(cmd: Command, entry: RegisteredTask, warn: (m: string) => void): Map<string, string> {
  const attributeOf = new Map<string, string>();
  for (const spec of entry.task.options) {
    const options = commanderOption(spec);
    const attr = options[0].attributeName();
    if (COMMON_ATTRIBUTES.has(attr)) {
      warn(`task "${entry.id}" option "${spec.name}" clashes with the common option --${kebabCase(spec.name)}; it cannot be set from the command line`);
      continue;
    }
    for (const o of options) cmd.addOption(o);
    attributeOf.set(spec.name, attr);
  }
  return attributeOf;
}

class Cli {
  private bar: ProgressBar | undefined;
  debug = false;
  quiet = false;

  constructor(
    private readonly io: CliIo,
    private readonly registry: PluginRegistry,
  ) {}

  out(text: string): void {
    this.io.stdout.write(text);
  }

  warn(message: string): void {
    if (!this.quiet) this.io.stderr.write(`warning: ${message}\n`);
  }

  private common(opts: Record<string, unknown>): CommonOptions {
    this.quiet = opts.quiet === true;
    const cacheDir =
      opts.cache === false ? undefined : typeof opts.cacheDir === 'string' ? resolve(this.io.cwd, opts.cacheDir) : this.io.env.CVDEVKIT_CACHE_DIR || join(homedir(), '.cache', 'cvdevkit');
    return {
      format: (opts.format as ReportFormat) ?? 'table',
      out: typeof opts.out === 'string' ? resolve(this.io.cwd, opts.out) : undefined,
      metric: typeof opts.metric === 'string' ? opts.metric : undefined,
      workers: typeof opts.workers === 'number' ? opts.workers : availableParallelism(),
      quiet: this.quiet,
      cacheDir,
      dir: typeof opts.dir === 'string' ? resolve(this.io.cwd, opts.dir) : undefined,
    };
  }

  private checkMetric(entry: RegisteredTask, metric: string | undefined): void {
    if (metric !== undefined && !entry.task.metrics.includes(metric))
      throw usageError(`task "${entry.id}" does not accept --metric ${metric}; accepted: ${entry.task.metrics.join(', ')}`, 'usage/unknown-metric');
  }

  /** Runs `fn` with a RunContext: progress bar, SIGINT → abort, collected log messages. */
  private async withContext<T>(common: CommonOptions, metric: string | undefined, fn: (ctx: Partial<RunContext>, logs: string[]) => Promise<T>): Promise<T> {
    const stderr = this.io.stderr;
    this.bar = createProgressBar(stderr, stderr.isTTY === true && !common.quiet);
    const controller = new AbortController();
    const onSignal = () => {
      if (controller.signal.aborted) process.exit(EXIT.interrupted);
      this.bar?.stop();
      stderr.write('interrupted: stopping (press Ctrl-C again to quit at once)\n');
      controller.abort(new Error('interrupted'));
    };
    if (this.io.handleSignals !== false) process.on('SIGINT', onSignal);
    const logs: string[] = [];
    try {
      return await fn(
        { progress: this.bar, signal: controller.signal, workers: common.workers, cacheDir: common.cacheDir, metric, log: (m: string) => void logs.push(m) },
        logs,
      );
    } catch (e) {
      if (controller.signal.aborted) throw new Interrupted();
      throw e;
    } finally {
      this.bar.stop();
      this.bar = undefined;
      if (this.io.handleSignals !== false) process.off('SIGINT', onSignal);
    }
  }

  private finishReport(report: Report, logs: string[]): Report {
    report.diagnostics ??= [];
    for (const m of logs)
      if (!report.diagnostics.some((d) => d.message === m)) report.diagnostics.push({ severity: 'warning', code: 'task/log', message: m });
    report.versions ??= {};
    report.versions['@cvdevkit/cli'] ??= cliVersion();
    return report;
  }

  private emit(text: string, common: CommonOptions): void {
    if (common.out) writeAtomic(common.out, text);
    this.out(text);
  }

  private printDiagnostics(reports: Report[], common: CommonOptions): void {
    if (common.format === 'json' || common.quiet) return;
    for (const r of reports) for (const d of r.diagnostics) this.io.stderr.write(formatDiagnostic(d) + '\n');
  }

  async eval(entry: RegisteredTask, opts: Record<string, unknown>, attributeOf: Map<string, string>): Promise<number> {
    const common = this.common(opts);
    this.checkMetric(entry, common.metric);
    const values = taskOptionValues(entry.task, opts, attributeOf, this.io.cwd);
    const report = await this.withContext(common, common.metric, async (ctx, logs) =>
      this.finishReport(await this.runTask(entry, () => this.registry.evaluateTask(entry.id, values, ctx)), logs),
    );
    this.emit(renderReports([report], common.format), common);
    this.printDiagnostics([report], common);
    return EXIT.ok;
  }

  /** Runs plugin code; a non-DevkitError becomes an internal error naming the task and plugin. */
  private async runTask<T>(entry: RegisteredTask, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      if (isDevkitError(e) || e instanceof Interrupted) throw e;
      throw new PluginFailure(entry, e);
    }
  }

  /** `cvdevkit merge <task> <files…>`: the task combines the files of sharded runs into one report. */
  async merge(entry: RegisteredTask, files: string[], opts: Record<string, unknown>): Promise<number> {
    const common = this.common(opts);
    const mergeFn = entry.task.merge;
    if (typeof mergeFn !== 'function') throw usageError(`task "${entry.id}" has no merge step (only tasks that can be sharded do)`, 'usage/no-merge');
    if (files.length === 0) throw usageError('merge: expected one or more files to merge', 'usage/missing-argument');
    const paths = files.map((f) => resolve(this.io.cwd, f));
    const report = await this.withContext(common, common.metric, async (ctx, logs) =>
      this.finishReport(await this.runTask(entry, () => mergeFn.call(entry.task, paths, createRunContext(ctx))), logs),
    );
    this.emit(renderReports([report], common.format), common);
    this.printDiagnostics([report], common);
    return EXIT.ok;
  }

  async validate(entry: RegisteredTask, opts: Record<string, unknown>, attributeOf: Map<string, string>): Promise<number> {
    const common = this.common(opts);
    const validateFn = entry.task.validate;
    if (typeof validateFn !== 'function') throw usageError(`task "${entry.id}" has no validate step (try cvdevkit eval ${entry.id})`, 'usage/no-validate');
    const values = taskOptionValues(entry.task, opts, attributeOf, this.io.cwd);
    const diagnostics = await this.withContext(common, undefined, async (ctx) => {
      const found: unknown = await this.runTask(entry, () => validateFn.call(entry.task, values, createRunContext(ctx)));
      return Array.isArray(found) ? (found as Diagnostic[]) : [];
    });
    const errors = diagnostics.filter((d) => d.severity === 'error').length;
    const warnings = diagnostics.filter((d) => d.severity === 'warning').length;
    if (common.format === 'json') {
      this.out(JSON.stringify({ schema: 'cvdevkit.validation/1', task: entry.id, valid: errors === 0, diagnostics }, null, 2) + '\n');
    } else {
      for (const d of diagnostics) this.out(formatDiagnostic(d) + '\n');
      this.out(
        diagnostics.length === 0
          ? `${entry.id}: valid, no problems found\n`
          : `${entry.id}: ${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}\n`,
      );
    }
    // Errors make the submission invalid (exit 2); warnings (input the official code accepts, such as a class
    // id no curve counts) and info entries are shown but do not fail it.
    return errors > 0 ? EXIT.input : EXIT.ok;
  }

  async demo(taskId: string | undefined, opts: Record<string, unknown>): Promise<number> {
    const common = this.common(opts);
    let entries: RegisteredTask[];
    if (taskId !== undefined) {
      const entry = this.registry.getTask(taskId);
      if (typeof entry.task.sample !== 'function') throw usageError(`task "${taskId}" has no embedded sample`, 'usage/no-sample');
      this.checkMetric(entry, common.metric);
      entries = [entry];
    } else {
      entries = this.registry.listTasks().filter((e) => typeof e.task.sample === 'function');
      if (entries.length === 0) throw usageError('no installed task has an embedded sample (see cvdevkit list)', 'usage/no-sample');
      if (common.metric !== undefined) entries = entries.filter((e) => e.task.metrics.includes(common.metric!));
    }
    const base = common.dir ?? mkdtempSync(join(tmpdir(), 'cvdevkit-demo-'));
    const reports: Report[] = [];
    let exit: number = EXIT.ok;
    try {
      for (const entry of entries) {
        const dir = entries.length === 1 && taskId !== undefined ? base : join(base, entry.id.replace(/[/\\]/g, '-'));
        mkdirSync(dir, { recursive: true });
        try {
          const report = await this.withContext(common, common.metric, async (ctx, logs) => {
            const values = await this.runTask(entry, () => entry.task.sample!(dir));
            return this.finishReport(await this.runTask(entry, () => this.registry.evaluateTask(entry.id, values as Record<string, never>, ctx)), logs);
          });
          reports.push(report);
        } catch (e) {
          if (entries.length === 1 || e instanceof Interrupted) throw e;
          exit = Math.max(exit, this.reportError(e, `demo ${entry.id}: `));
        }
      }
      if (reports.length > 0) this.emit(renderReports(reports, common.format), common);
      this.printDiagnostics(reports, common);
      if (common.dir && !common.quiet) this.io.stderr.write(`sample data written to ${common.dir}\n`);
    } finally {
      if (!common.dir) rmSync(base, { recursive: true, force: true });
    }
    return exit;
  }

  list(opts: Record<string, unknown>): number {
    const common = this.common(opts);
    const plugins = this.registry.plugins;
    if (common.format === 'json') {
      this.out(
        JSON.stringify(
          {
            schema: 'cvdevkit.list/1',
            plugins: plugins.map((p) => ({
              package: p.packageName,
              version: p.version,
              source: p.source,
              entry: p.entry,
              dataset: { name: p.plugin.meta.name, title: p.plugin.meta.title },
              tasks: Object.values(p.plugin.tasks).map((t) => ({ id: t.id, title: t.title, metric: t.metric, metrics: [...t.metrics] })),
              metrics: (p.plugin.metrics ?? []).map((m) => ({ name: m.name, description: m.description })),
            })),
            warnings: this.registry.warnings,
          },
          null,
          2,
        ) + '\n',
      );
      return EXIT.ok;
    }
    if (plugins.length === 0) {
      this.io.stderr.write('no cvdevkit plugins found: install one (for example npm i @cvdevkit/voc2010) or pass --plugin <path>\n');
      return EXIT.ok;
    }
    const tasks = this.registry.listTasks();
    const rows = tasks.map((t) => [t.id, t.task.title, t.task.metric, t.task.metrics.filter((m: string) => m !== t.task.metric).join(', ') || '-', `${t.plugin.packageName}@${t.plugin.version}`]);
    if (common.format === 'markdown') this.out(markdownTable(['task', 'title', 'metric', 'other metrics', 'package'], rows));
    else if (common.format === 'csv') this.out(['task,title,metric,metrics,package,version', ...tasks.map((t) => [t.id, t.task.title, t.task.metric, t.task.metrics.join(' '), t.plugin.packageName, t.plugin.version].map(csvCell).join(','))].join('\n') + '\n');
    else {
      this.out('Datasets\n');
      this.out(alignColumns(undefined, plugins.map((p) => [`  ${p.plugin.meta.name}`, p.plugin.meta.title, `${p.packageName}@${p.version}`, `(${p.source})`])));
      this.out('\nTasks\n');
      this.out(alignColumns(['  task', 'title', 'metric', 'other metrics', 'package'], rows.map((r) => [`  ${r[0]}`, ...r.slice(1)])));
      const metrics = plugins.flatMap((p) => (p.plugin.metrics ?? []).map((m) => [`  ${m.name}`, m.description, p.packageName]));
      if (metrics.length > 0) this.out('\nMetrics\n' + alignColumns(undefined, metrics));
    }
    return EXIT.ok;
  }

  info(entry: RegisteredTask, opts: Record<string, unknown>): number {
    const common = this.common(opts);
    const t = entry.task;
    const options = t.options.map((o) => ({ ...o, flag: `--${kebabCase(o.name)}` }));
    if (common.format === 'json') {
      this.out(
        JSON.stringify(
          {
            schema: 'cvdevkit.task/1',
            id: t.id,
            title: t.title,
            description: t.description,
            package: entry.plugin.packageName,
            version: entry.plugin.version,
            source: entry.plugin.source,
            metric: t.metric,
            metrics: [...t.metrics],
            options,
            validate: typeof t.validate === 'function',
            sample: typeof t.sample === 'function',
          },
          null,
          2,
        ) + '\n',
      );
      return EXIT.ok;
    }
    const describe = (o: (typeof options)[number]) =>
      [o.required && o.default === undefined ? 'required' : o.default !== undefined ? `default ${JSON.stringify(o.default)}` : 'optional', o.choices ? `one of ${o.choices.join('|')}` : '']
        .filter(Boolean)
        .join(', ');
    let text = `${t.id}: ${t.title}\n`;
    if (t.description) text += `${t.description}\n`;
    text += '\n';
    text += alignColumns(undefined, [
      ['plugin', `${entry.plugin.packageName}@${entry.plugin.version} (${entry.plugin.source})`],
      ['official metric', t.metric],
      ['accepted metrics', t.metrics.join(', ')],
      ['validate', typeof t.validate === 'function' ? 'yes' : 'no'],
      ['demo sample', typeof t.sample === 'function' ? 'yes' : 'no'],
    ]);
    text += '\nInputs\n';
    text +=
      options.length === 0
        ? '  (none)\n'
        : alignColumns(['  option', 'type', 'required/default', 'description'], options.map((o) => [`  ${o.flag}${o.type === 'boolean' ? '' : ` <${o.type}>`}`, o.type, describe(o), o.description]));
    if (common.format === 'markdown')
      text = markdownTable(['option', 'type', 'required/default', 'description'], options.map((o) => [o.flag, o.type, describe(o), o.description]));
    this.out(text);
    return EXIT.ok;
  }

  /** Prints an error the way its kind asks for; returns the exit code. */
  reportError(e: unknown, prefix = ''): number {
    this.bar?.stop();
    const err = this.io.stderr;
    if (e instanceof Interrupted) {
      err.write(`${prefix}interrupted\n`);
      return EXIT.interrupted;
    }
    if (e instanceof CommanderError) {
      err.write(e.message.replace(/\s*\n\s*/g, ' ').trim() + '\n');
      return EXIT.usage;
    }
    if (isDevkitError(e)) {
      const kind = (e as { kind: string }).kind;
      const code = kind === 'usage' ? EXIT.usage : kind === 'input' ? EXIT.input : EXIT.internal;
      const message = kind === 'internal' ? e.message.split('\n')[0] : e.message;
      err.write(`error: ${prefix}${message}\n`);
      if (code === EXIT.internal) this.stack(e);
      return code;
    }
    if (e instanceof PluginFailure) {
      err.write(`internal error: ${prefix}${e.message}${this.debug ? '' : ' (run with --debug for the stack trace)'}\n`);
      this.stack(e.cause);
      return EXIT.internal;
    }
    const message = e instanceof Error ? e.message : String(e);
    err.write(`internal error: ${prefix}${message.split('\n')[0]}${this.debug ? '' : ' (run with --debug for the stack trace)'}\n`);
    this.stack(e);
    return EXIT.internal;
  }

  private stack(e: unknown): void {
    if (!this.debug) return;
    let cur: unknown = e;
    for (let depth = 0; cur !== undefined && cur !== null && depth < 5; depth++) {
      if (cur instanceof Error && cur.stack) this.io.stderr.write((depth > 0 ? 'caused by: ' : '') + cur.stack + '\n');
      cur = cur instanceof Error ? cur.cause : undefined;
    }
  }
}

function csvCell(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

class Interrupted extends Error {
  constructor() {
    super('interrupted');
  }
}

class PluginFailure extends Error {
  constructor(entry: RegisteredTask, cause: unknown) {
    const m = cause instanceof Error ? cause.message : String(cause);
    super(`task "${entry.id}" (${entry.plugin.packageName}@${entry.plugin.version}) failed: ${m.split('\n')[0]}`, { cause });
  }
}

/** Builds the commander program over the discovered plugins. */
function buildProgram(cli: Cli, registry: PluginRegistry, io: CliIo, taskId: string | undefined, result: { code: number }): Command {
  const program = new Command('cvdevkit');
  const known = registry.listTasks().map((t) => t.id);
  program
    .description('Evaluate computer-vision benchmark submissions with the official devkits\' numbers.')
    .version(cliVersion(), '-V, --version')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s), outputError: () => {} })
    .showSuggestionAfterError(true)
    .addHelpText('after', known.length > 0 ? `\nInstalled tasks: ${known.join(', ')}` : '\nNo plugins installed: pass --plugin <path> or install @cvdevkit/voc2010, …');
  const entry = taskId !== undefined ? registry.findTask(taskId) : undefined;

  const setResult = (p: number | Promise<number>) => Promise.resolve(p).then((c) => void (result.code = c));

  addCommonOptions(program.command('list').description('every installed dataset, task and metric'), {}).action((opts: Record<string, unknown>) =>
    setResult(cli.list(opts)),
  );

  addCommonOptions(program.command('info').description("a task's inputs, official metric and accepted metrics").argument('<task>', 'task id, for example voc2010/det'), {
    formats: ['table', 'json', 'markdown'],
  }).action((id: string, opts: Record<string, unknown>) => setResult(cli.info(registry.getTask(id), opts)));

  const evalCmd = program
    .command('eval')
    .description('score a submission')
    .argument('<task>', `task id (${known.join(', ') || 'none installed'})`);
  const evalAttrs = entry ? addTaskOptions(evalCmd, entry, (m) => cli.warn(m)) : new Map<string, string>();
  addCommonOptions(evalCmd, { report: true, run: true }).action((id: string, opts: Record<string, unknown>) =>
    setResult(cli.eval(registry.getTask(id), opts, evalAttrs)),
  );

  const validateCmd = program
    .command('validate')
    .description("check a submission's files without scoring")
    .argument('<task>', 'task id');
  const validateAttrs = entry ? addTaskOptions(validateCmd, entry, () => {}) : new Map<string, string>();
  addCommonOptions(validateCmd, { run: true, formats: ['table', 'json'] }).action((id: string, opts: Record<string, unknown>) =>
    setResult(cli.validate(registry.getTask(id), opts, validateAttrs)),
  );

  const mergeCmd = program
    .command('merge')
    .description('combine the files written by sharded runs of a task (e.g. --shard i/n --counts-out f) into one report')
    .argument('<task>', 'task id')
    .argument('<files...>', 'the shards\' files');
  addCommonOptions(mergeCmd, { report: true }).action((id: string, files: string[], opts: Record<string, unknown>) =>
    setResult(cli.merge(registry.getTask(id), files, opts)),
  );

  const demoCmd = program
    .command('demo')
    .description("write a task's embedded sample and evaluate it (every task with a sample when no task is given)")
    .argument('[task]', 'task id')
    .option('--dir <dir>', 'write the sample here and keep it (default: a temporary directory, removed afterwards)');
  addCommonOptions(demoCmd, { report: true, run: true }).action((id: string | undefined, opts: Record<string, unknown>) => setResult(cli.demo(id, opts)));

  for (const cmd of program.commands) cmd.exitOverride().configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s), outputError: () => {} });
  return program;
}

/**
 * Runs the CLI on `argv` (without `node` and the script) and returns the exit code:
 * 0 success, 1 usage error, 2 invalid input data, 3 internal error, 130 interrupted.
 */
export async function run(argv: string[], io: CliIo = { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd(), env: process.env }): Promise<number> {
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    io.stdout.write(cliVersion() + '\n');
    return EXIT.ok;
  }
  const pre = prescan(argv);
  const cli0 = { debug: pre.debug };
  let cli: Cli | undefined;
  try {
    const registry = await loadRegistry({
      cwd: io.cwd,
      plugins: pre.plugins,
      installPath: fileURLToPath(import.meta.url),
      autoDiscover: io.env.CVDEVKIT_NO_AUTOLOAD !== '1',
    });
    cli = new Cli(io, registry);
    cli.debug = pre.debug;
    cli.quiet = pre.quiet;
    for (const w of registry.warnings) cli.warn(w);
    const { command, task } = prescan(argv, (id) => registry.findTask(id) !== undefined);
    if (command !== undefined && TASK_COMMANDS.has(command) && task !== undefined && registry.findTask(task) === undefined)
      throw unknownTaskError(task, registry.listTasks().map((t) => t.id));
    const result = { code: EXIT.ok as number };
    const program = buildProgram(cli, registry, io, task, result);
    if (argv.length === 0) {
      program.outputHelp();
      return EXIT.usage;
    }
    await program.parseAsync(argv, { from: 'user' });
    return result.code;
  } catch (e) {
    if (e instanceof CommanderError && (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help')) return EXIT.ok;
    if (cli) return cli.reportError(e);
    const fallback = new Cli(io, { plugins: [], warnings: [], failures: [] } as unknown as PluginRegistry);
    fallback.debug = cli0.debug;
    return fallback.reportError(e);
  }
}
