/**
 * What every command shares while it runs: the I/O, the registry, the common options as parsed, a run context
 * with progress and Ctrl-C handling, plugin calls that turn foreign errors into internal ones, and printing
 * (with `--out` and the side outputs).
 */
import { homedir } from 'node:os';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { readFileSync } from 'node:fs';
import { isDevkitError, metricNames, usageError, type Report, type RunContext } from '@cvdevkit/core';
import type { PluginRegistry, RegisteredTask } from '@cvdevkit/registry';
import { EXIT, Interrupted, PluginFailure, printError } from './failures.js';
import { writeAtomic, type CliIo } from './io.js';
import { formatForFile, formatReports, type FormatContext } from './output/index.js';
import { formatDiagnostic } from './output/diagnostic.js';
import { createProgressBar, type ProgressBar } from './progress.js';
import { wantedSideOutputs } from './side-outputs/index.js';

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

/** The CLI's own version (its package.json). */
export function cliVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: string };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

export class CliSession {
  private bar: ProgressBar | undefined;
  debug = false;
  quiet = false;

  constructor(
    readonly io: CliIo,
    readonly registry: PluginRegistry,
  ) {}

  out(text: string): void {
    this.io.stdout.write(text);
  }

  warn(message: string): void {
    if (!this.quiet) this.io.stderr.write(`warning: ${message}\n`);
  }

  /**
   * The common options as parsed. `formatExplicit` says whether `--format` was given; when it was not, an
   * `--out` file's extension picks the format.
   */
  common(opts: Record<string, unknown>, formatExplicit = true): CommonOptions {
    this.quiet = opts.quiet === true;
    const env = this.io.env;
    const cacheDir =
      opts.cache === false ? undefined : typeof opts.cacheDir === 'string' ? resolve(this.io.cwd, opts.cacheDir) : env.CVDEVKIT_CACHE_DIR || join(homedir(), '.cache', 'cvdevkit');
    const out = typeof opts.out === 'string' ? resolve(this.io.cwd, opts.out) : undefined;
    let format = (opts.format as string | undefined) ?? 'table';
    if (!formatExplicit && out !== undefined) format = formatForFile(out) ?? format;
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

  checkMetric(entry: RegisteredTask, metric: string | undefined): void {
    const accepted = metricNames(entry.task);
    if (metric !== undefined && !accepted.includes(metric))
      throw usageError(`task "${entry.id}" does not accept --metric ${metric}; accepted: ${accepted.join(', ')}`, 'usage/unknown-metric');
  }

  /** Runs `fn` with a RunContext: progress bar, SIGINT → abort, collected log messages. */
  async withContext<T>(common: CommonOptions, metric: string | undefined, fn: (ctx: Partial<RunContext>, logs: string[]) => Promise<T>): Promise<T> {
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

  /** Prints reports in the chosen format (and to `--out`), runs the side outputs, then lists diagnostics on stderr. */
  async printReports(reports: Report[], common: CommonOptions, context: FormatContext = {}): Promise<void> {
    const sides = wantedSideOutputs(common.raw);
    for (const s of sides) for (const r of reports) s.prepare?.(r, common.raw);
    const text = await formatReports(reports, common.format, context);
    if (common.out) writeAtomic(common.out, text);
    this.out(text);
    for (const s of sides) await s.write(reports, common.raw, { cwd: this.io.cwd, stderr: this.io.stderr, quiet: common.quiet === true });
    if (common.format === 'json' || common.quiet) return;
    for (const r of reports) for (const d of r.diagnostics) this.io.stderr.write(formatDiagnostic(d) + '\n');
  }

  /** Prints an error the way its kind asks for; returns the exit code. */
  reportError(e: unknown, prefix = ''): number {
    this.bar?.stop();
    return printError(e, this.io.stderr, this.debug, prefix);
  }
}
