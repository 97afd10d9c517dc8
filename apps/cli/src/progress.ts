import { createRequire } from 'node:module';
import type cliProgressModule from 'cli-progress';
import { silentProgress, type ProgressSink } from '@cvdevkit/core';

/** `cli-progress` is loaded when the first bar is drawn (about 15 ms of start-up that a run without a terminal never needs). */
let cliProgress: typeof cliProgressModule | undefined;
function loadCliProgress(): typeof cliProgressModule {
  cliProgress ??= createRequire(import.meta.url)('cli-progress') as typeof cliProgressModule;
  return cliProgress;
}

export interface ProgressBar extends ProgressSink {
  /** Removes a bar still on screen (on errors and before printing). */
  stop(): void;
}

/**
 * A ProgressSink drawing a `cli-progress` bar on `stream` (stderr): phase label, value/total and ETA.
 * When `enabled` is false nothing is drawn.
 */
export function createProgressBar(stream: NodeJS.WriteStream, enabled: boolean): ProgressBar {
  if (!enabled) return { ...silentProgress, stop() {} };
  let bar: cliProgressModule.SingleBar | undefined;
  const stop = () => {
    bar?.stop();
    bar = undefined;
  };
  return {
    begin(label: string, total: number) {
      stop();
      const known = total > 0;
      bar = new (loadCliProgress().SingleBar)({
        stream,
        format: known ? '{label} [{bar}] {value}/{total} | ETA: {eta_formatted}' : '{label} {value}',
        hideCursor: true,
        clearOnComplete: true,
        barsize: 30,
        etaBuffer: 50,
        fps: 10,
      });
      bar.start(known ? total : 0, 0, { label });
    },
    advance(n = 1) {
      bar?.increment(n);
    },
    end() {
      stop();
    },
    stop,
  };
}

export interface ProgressLineOptions {
  /** Nothing is printed before the run has taken this long (short runs stay quiet); default 2 s. */
  quietMs?: number;
  /** A line at least this often while a phase runs; default 30 s. */
  everyMs?: number;
  now?: () => number;
}

/**
 * Progress for a stderr that is not a terminal (a cluster job's log, `TERM=dumb`): plain lines
 * `progress: <phase> 40% (400/1000)` at every 10 % step or every 30 s, once the run has taken 2 s.
 */
export function createProgressLines(stream: NodeJS.WritableStream, options: ProgressLineOptions = {}): ProgressBar {
  const now = options.now ?? (() => Date.now());
  const quietMs = options.quietMs ?? 2000;
  const everyMs = options.everyMs ?? 30_000;
  const started = now();
  let label = '';
  let total = 0;
  let value = 0;
  let lastStep = 0;
  let lastAt = started;
  const line = () => {
    const pct = total > 0 ? ` ${Math.floor((100 * value) / total)}%` : '';
    stream.write(`progress: ${label}${pct} (${value}${total > 0 ? `/${total}` : ''})\n`);
  };
  return {
    begin(l: string, t: number) {
      label = l;
      total = t;
      value = 0;
      lastStep = 0;
    },
    advance(n = 1) {
      value += n;
      const t = now();
      if (t - started < quietMs) return;
      const step = total > 0 ? Math.floor((10 * value) / total) : 0;
      if (step > lastStep || t - lastAt >= everyMs) {
        lastStep = step;
        lastAt = t;
        line();
      }
    },
    end() {},
    stop() {},
  };
}

/** The progress a run shows: a bar on a terminal, lines elsewhere (and on `TERM=dumb`), nothing with `--quiet`. */
export function createProgress(stream: NodeJS.WriteStream, options: { quiet: boolean; env: NodeJS.ProcessEnv }): ProgressBar {
  if (options.quiet) return { ...silentProgress, stop() {} };
  if (stream.isTTY === true && options.env.TERM !== 'dumb') return createProgressBar(stream, true);
  return createProgressLines(stream);
}
