import { availableParallelism } from 'node:os';
import type { MetricPlugin } from './plugin.js';

/** Where a task reports progress. The CLI draws a bar from it when stderr is a terminal. */
export interface ProgressSink {
  /** A new phase with `total` units of work (0 = unknown). */
  begin(label: string, total: number): void;
  /** `n` more units done (default 1). */
  advance(n?: number): void;
  /** The phase is finished. */
  end(): void;
}

export const silentProgress: ProgressSink = { begin() {}, advance() {}, end() {} };

export interface RunContext {
  progress: ProgressSink;
  signal: AbortSignal;
  /** Worker threads a task may use (>= 1). */
  workers: number;
  /**
   * True when `workers` is the default (all cores), not the user's `--workers`: a task may then use fewer threads
   * when more would not pay for themselves (`chooseWorkerCount`). False or absent: use `workers` as given.
   */
  workersAuto?: boolean;
  /** Directory for caches (parsed ground truth); undefined = no cache. */
  cacheDir?: string;
  /** The metric the user asked for (the task's official metric when not given). */
  metric?: string;
  /** The metric object of `metric`, when the task lists it as an object (the registry resolves it). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  metricPlugin?: MetricPlugin<any, any>;
  /** Collected warnings a task wants in the report. */
  log?: (message: string) => void;
  /**
   * Store per-image sufficient statistics in `report.extra.perImage` (schema `cvdevkit.per-image/1`, for
   * `cvdevkit compare --bootstrap`). Off by default: the report is then unchanged.
   */
  perImage?: boolean;
}

/** A RunContext with defaults for library users: no progress, never aborted, up to all cores (`workersAuto`), no cache. */
export function createRunContext(partial: Partial<RunContext> = {}): RunContext {
  return {
    progress: partial.progress ?? silentProgress,
    signal: partial.signal ?? new AbortController().signal,
    workers: Math.max(1, partial.workers ?? availableParallelism()),
    workersAuto: partial.workersAuto ?? partial.workers === undefined,
    cacheDir: partial.cacheDir,
    metric: partial.metric,
    metricPlugin: partial.metricPlugin,
    log: partial.log,
    ...(partial.perImage ? { perImage: true } : {}),
  };
}

let lastTurn = 0;

/**
 * A chunk boundary of a long synchronous phase: at most every `everyMs` (default 100 ms) it gives the
 * event loop one turn, so that a Ctrl-C (a signal handler) can run, then throws the signal's reason
 * when the run was aborted. Costs nothing between turns.
 */
export async function checkpoint(signal: AbortSignal | undefined, everyMs = 100): Promise<void> {
  const now = performance.now();
  if (now - lastTurn >= everyMs) {
    lastTurn = now;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  if (signal?.aborted) throw signal.reason ?? new Error('aborted');
}
