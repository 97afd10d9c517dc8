import cliProgress from 'cli-progress';
import { silentProgress, type ProgressSink } from '@cvdevkit/core';

export interface ProgressBar extends ProgressSink {
  /** Removes a bar still on screen (on errors and before printing). */
  stop(): void;
}

/**
 * A ProgressSink drawing a `cli-progress` bar on `stream` (stderr): phase label, value/total and ETA.
 * When `enabled` is false (stderr is not a terminal, or `--quiet`) nothing is drawn.
 */
export function createProgressBar(stream: NodeJS.WriteStream, enabled: boolean): ProgressBar {
  if (!enabled) return { ...silentProgress, stop() {} };
  let bar: cliProgress.SingleBar | undefined;
  const stop = () => {
    bar?.stop();
    bar = undefined;
  };
  return {
    begin(label: string, total: number) {
      stop();
      const known = total > 0;
      bar = new cliProgress.SingleBar({
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
