/**
 * What every command shares while it runs: the I/O, the registry, the common options as parsed, a run context
 * with progress and Ctrl-C handling, plugin calls that turn foreign errors into internal ones, and printing
 * (with `--out` and the side outputs).
 */
import { availableParallelism, homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { isDevkitError, usageError, type Report, type RunContext } from '@cvdevkit/core';
import { INPUT_LIMITS_ENV, parseInputLimits } from '@cvdevkit/formats/fs';
import type { PluginRegistry, RegisteredTask } from '@cvdevkit/registry';
import { Interrupted, PluginFailure, printError } from './failures.js';
import { installInterruptHandler, onInterrupt, wasInterrupted } from './interrupt.js';
import type { CliIo } from './io.js';
import { writeReports, type FormatContext } from './output/index.js';
import { formatDiagnostic } from './output/diagnostic.js';
import { outputFormat } from './output/out-format.js';
import { stdoutSink, type OutputSink } from './output/sink.js';
import { checkOutputTarget, OutputCommit } from './output/targets.js';
import { createProgress, type ProgressBar } from './progress.js';
import { cliVersion } from './version.js';
import { wantedSideOutputs } from './side-outputs/index.js';
import { loadReportHtml } from './report-html.js';

export interface CommonOptions {
  format: string;
  out?: string;
  metric?: string;
  workers: number;
  quiet?: boolean;
  cacheDir?: string;
  dir?: string;
  /** Every parsed option, for side outputs. */
  raw: Record<string, unknown>;
}

/**
 * Text written to the sinks is gathered into pieces of this size (one write call per piece). Small enough
 * that a piece stays a young, ordinary string (below the engine's large-object size) and dies young: with
 * pieces of 1 M characters, `eval voc2010/cls --format json` (5.6 MB of text) peaked 17 MiB higher and
 * took 20 % more CPU.
 */
const PIECE = 1 << 16;

export class CliSession {
  private bar: ProgressBar | undefined;
  private controller: AbortController | undefined;
  private signalsInstalled = false;
  debug = false;
  quiet = false;
  private readonly stdout: OutputSink;

  constructor(
    readonly io: CliIo,
    readonly registry: PluginRegistry,
  ) {
    this.stdout = stdoutSink(io.stdout);
    this.installSignals();
  }

  out(text: string): void {
    this.stdout.write(text);
  }

  warn(message: string): void {
    if (!this.quiet) this.io.stderr.write(`warning: ${message}\n`);
  }

  /** Ctrl-C handling (installed once for the process, see `interrupt.ts`): the first aborts the current run. */
  private installSignals(): void {
    if (this.signalsInstalled || this.io.handleSignals === false) return;
    this.signalsInstalled = true;
    installInterruptHandler(this.io.stderr);
    onInterrupt(() => {
      this.bar?.stop();
      this.controller?.abort(new Error('interrupted'));
    });
  }

  /** Set by the first Ctrl-C; from then on nothing is printed or written to `--out`, and the exit code is 130. */
  get interrupted(): boolean {
    return this.io.handleSignals !== false && wasInterrupted();
  }

  /** Lets a pending Ctrl-C be delivered (one turn of the event loop), then stops if there was one. */
  async checkInterrupted(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (this.interrupted) throw new Interrupted();
  }

  /**
   * The common options as parsed. `formatExplicit` says whether `--format` was given; when it was not, an
   * `--out` file's extension picks the format (an unknown or contradicting extension is a usage error).
   * Every output target (`--out`, the side outputs' folders) is checked here, before any work.
   */
  common(opts: Record<string, unknown>, formatExplicit = true): CommonOptions {
    this.quiet = opts.quiet === true;
    const env = this.io.env;
    if (opts.cacheDir === '') throw usageError('--cache-dir: expected a folder, found an empty value', 'usage/invalid', 'leave out --cache-dir for the default, or pass --no-cache');
    const cacheDir =
      opts.cache === false ? undefined : typeof opts.cacheDir === 'string' ? resolve(this.io.cwd, opts.cacheDir) : env.CVDEVKIT_CACHE_DIR || join(homedir(), '.cache', 'cvdevkit');
    const out = typeof opts.out === 'string' ? resolve(this.io.cwd, opts.out) : undefined;
    const format = outputFormat(out, formatExplicit ? ((opts.format as string | undefined) ?? 'table') : undefined);
    applyInputLimits(opts.inputLimit, env);
    if (out !== undefined) checkOutputTarget(out, '--out');
    for (const s of wantedSideOutputs(opts)) s.check?.(opts, this.io.cwd);
    return {
      format,
      out,
      metric: typeof opts.metric === 'string' ? opts.metric : undefined,
      workers: typeof opts.workers === 'number' ? opts.workers : availableParallelism(),
      quiet: this.quiet,
      cacheDir,
      dir: typeof opts.dir === 'string' ? resolve(this.io.cwd, opts.dir) : undefined,
      raw: opts,
    };
  }

  /**
   * Runs `fn` with the CLI's part of a RunContext: progress (bar or lines), Ctrl-C → abort, workers, cache, collected
   * log messages. The registry's hook path (`PluginRegistry.prepareHook`) adds the metric and builds the rest.
   */
  async withContext<T>(common: CommonOptions, fn: (ctx: Partial<RunContext>, logs: string[]) => Promise<T>): Promise<T> {
    this.installSignals();
    if (this.interrupted) throw new Interrupted();
    this.bar = createProgress(this.io.stderr, { quiet: common.quiet === true, env: this.io.env });
    const controller = new AbortController();
    this.controller = controller;
    const logs: string[] = [];
    try {
      const result = await fn(
        { progress: this.bar, signal: controller.signal, workers: common.workers, workersAuto: typeof common.raw.workers !== 'number', cacheDir: common.cacheDir, log: (m: string) => void logs.push(m) },
        logs,
      );
      await this.checkInterrupted();
      return result;
    } catch (e) {
      if (controller.signal.aborted || this.interrupted) throw new Interrupted();
      throw e;
    } finally {
      this.bar.stop();
      this.bar = undefined;
      this.controller = undefined;
    }
  }

  /** Runs plugin code; a non-DevkitError becomes an internal error naming the task and plugin. */
  async runTask<T>(entry: RegisteredTask, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      if (isDevkitError(e) || e instanceof Interrupted) throw e;
      throw new PluginFailure(entry, e);
    }
  }

  /** Adds the run's log lines as warnings and the CLI's version. */
  finishReport(report: Report, logs: string[]): Report {
    report.diagnostics ??= [];
    for (const m of logs)
      if (!report.diagnostics.some((d) => d.message === m)) report.diagnostics.push({ severity: 'warning', code: 'task/log', message: m });
    report.versions ??= {};
    report.versions['@cvdevkit/cli'] ??= cliVersion();
    return report;
  }

  /**
   * Prints reports in the chosen format. Without `--out` they are streamed (any size) to stdout. With it, the
   * file gets the format and stdout gets the table, whether it is a terminal or not (a job's log never fills
   * with a page or JSON), plus a "report written to" line on stderr. `--out` and the side outputs are staged
   * and committed together at the end: a failure anywhere leaves every target as it was. Then the
   * diagnostics on stderr. After a Ctrl-C nothing is printed or written.
   */
  /**
   * The charts each report's task declares (`TaskDefinition.charts`), built by report-html into the report's
   * `charts` (what the HTML page and `--plots` draw). Reports of tasks that declare none are left to report-html.
   */
  private async attachDeclaredCharts(reports: Report[], common: CommonOptions): Promise<void> {
    for (const r of reports as Array<Report & { charts?: unknown }>) {
      const requests = this.registry.findTask(r.task)?.task.charts;
      if (requests === undefined || r.charts !== undefined) continue;
      const { buildReportCharts } = await loadReportHtml(common.format === 'html' ? '--format html' : '--plots');
      r.charts = buildReportCharts(r, requests);
    }
  }

  async printReports(reports: Report[], common: CommonOptions, context: FormatContext = {}): Promise<void> {
    await this.checkInterrupted();
    const sides = wantedSideOutputs(common.raw);
    if (common.format === 'html' || sides.some((s) => s.name === 'plots')) await this.attachDeclaredCharts(reports, common);
    for (const s of sides) for (const r of reports) await s.prepare?.(r, common.raw);
    const formatContext = { ...context, cacheDir: common.cacheDir };
    if (common.out === undefined) {
      await this.streamReports(reports, common.format, [this.stdout], formatContext);
    }
    const outputs = new OutputCommit();
    const notes: string[] = [];
    try {
      if (common.out !== undefined) await this.streamReports(reports, common.format, [outputs.open(common.out, '--out')], formatContext);
      for (const s of sides) {
        const note = await s.write(reports, common.raw, { cwd: this.io.cwd, stderr: this.io.stderr, quiet: common.quiet === true, cacheDir: common.cacheDir, outputs });
        if (note) notes.push(note);
      }
      await this.checkInterrupted();
      outputs.commit();
    } catch (e) {
      outputs.abort();
      throw e;
    }
    if (common.out !== undefined) {
      await this.streamReports(reports, 'table', [this.stdout], formatContext);
      notes.unshift(`report written to ${common.out}`);
    }
    if (!common.quiet) for (const n of notes) this.io.stderr.write(`${n}\n`);
    if ((common.format === 'json' && common.out === undefined) || common.quiet) return;
    for (const r of reports) for (const d of r.diagnostics) this.io.stderr.write(formatDiagnostic(d) + '\n');
  }

  /** Writes the reports in `format` to `sinks`, gathered into pieces of `PIECE` characters. */
  private async streamReports(reports: Report[], format: string, sinks: OutputSink[], context: FormatContext): Promise<void> {
    let piece = '';
    const flush = () => {
      for (const sink of sinks) sink.write(piece);
      piece = '';
    };
    await writeReports(
      reports,
      format,
      (chunk) => {
        piece += chunk;
        if (piece.length >= PIECE) flush();
      },
      context,
    );
    if (piece.length > 0) flush();
  }

  /** Prints an error the way its kind asks for; returns the exit code. */
  reportError(e: unknown, prefix = ''): number {
    this.bar?.stop();
    return printError(e, this.io.stderr, this.debug, prefix);
  }
}

/** `--input-limit kind=size,…` → `CVDEVKIT_INPUT_LIMITS` (read by the input layer, inherited by worker threads). */
function applyInputLimits(value: unknown, env: NodeJS.ProcessEnv): void {
  const given = Array.isArray(value) ? value.join(',') : typeof value === 'string' ? value : '';
  if (given === '') return;
  parseInputLimits(given); // a bad entry is a usage error here, before anything runs
  const merged = [env[INPUT_LIMITS_ENV], given].filter((s) => s !== undefined && s !== '').join(',');
  env[INPUT_LIMITS_ENV] = merged;
  if (env !== process.env) process.env[INPUT_LIMITS_ENV] = merged;
}
