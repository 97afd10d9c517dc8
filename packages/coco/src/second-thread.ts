import { chooseWorkerCount, resolveWorkerScript, WorkerPool, type RunContext } from '@cvdevkit/core';
import type { GroundTruth } from './dataset.js';
import { readGroundTruth } from './load.js';

/**
 * The two files of an evaluation read at the same time: a worker thread reads the ground truth while the calling
 * thread reads the results (the larger file, ~13× on the 5,000-image bbox case, so the worker's start-up and the
 * ground truth fit in its time). Nothing is computed differently: the worker runs `readGroundTruth` on the same
 * file and the columns come back as they are (structured clone of typed arrays and strings).
 */

/** A task for the worker thread (`second-thread.worker.ts`). */
export interface SecondThreadTask {
  kind: 'read-gt';
  file: string;
  segmentation: boolean;
}

/**
 * CPU milliseconds of a whole evaluation per MB of results file (bbox 5,000 images: ~1.9 s for 42 MB, start-up
 * excluded), and what the worker thread costs beyond its work (thread start and module loading: ~65 ms bare,
 * ~100 ms with the reader, measured on the 2-core machine). `chooseWorkerCount` weighs them.
 */
const CPU_MS_PER_RESULTS_MB = 40;
const WORKER_START_CPU_MS = 100;

/**
 * The threads for an evaluation whose results file has `resultsBytes` bytes: 1 or 2. `--workers` as the user
 * gave it (2 or more: two threads), else (`workersAuto`) what `chooseWorkerCount` finds worth it: two threads
 * from a results file of ~25 MB on (≥ 1 s of work, of which 10 % pays for the worker), and only when a core is idle.
 */
export function evaluationThreads(resultsBytes: number, context: Pick<RunContext, 'workers' | 'workersAuto'>, load?: number, cores?: number): number {
  const cap = Math.max(1, Math.min(Math.floor(context.workers), 2));
  if (cap <= 1 || context.workersAuto !== true) return cap;
  return chooseWorkerCount({ cap, units: resultsBytes / 1e6, unitCpuMs: CPU_MS_PER_RESULTS_MB, workerCpuMs: WORKER_START_CPU_MS, load, cores });
}

/** In the worker: the task's answer. */
export function serveSecondThreadTask(task: SecondThreadTask): GroundTruth {
  return readGroundTruth(task.file, { segmentation: task.segmentation });
}

/** The worker thread of one evaluation. `close()` it when done (also after an error). */
export class SecondThread {
  private readonly pool: WorkerPool<SecondThreadTask, GroundTruth>;
  constructor() {
    this.pool = new WorkerPool(resolveWorkerScript(import.meta.url, './second-thread.worker.js'), { workers: 1 });
  }

  /**
   * Starts `readGroundTruth(file)` in the worker. Its rejection (a DevkitError naming the file) reaches only
   * whoever awaits the promise (not an unhandled rejection when the caller fails first).
   */
  readGroundTruth(file: string, options: { segmentation: boolean }): Promise<GroundTruth> {
    const p = this.pool.run({ kind: 'read-gt', file, segmentation: options.segmentation });
    p.catch(() => {});
    return p;
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
