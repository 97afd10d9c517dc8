import { availableParallelism, loadavg } from 'node:os';

/** What `chooseWorkerCount` decides from: the work left, what it costs, and what a worker costs. */
export interface WorkerCountInput {
  /** The most threads the run may use (`RunContext.workers`). */
  cap: number;
  /** Units of work left. */
  units: number;
  /** CPU milliseconds per unit (measured on the first units, or estimated). */
  unitCpuMs: number;
  /** CPU milliseconds one worker costs beyond its units: thread start-up, module loading, data each worker reads again. */
  workerCpuMs: number;
  /** Cores of the machine (default `os.availableParallelism()`). */
  cores?: number;
  /** Runnable threads of other processes (default the 1-minute load average, `os.loadavg()[0]`). */
  load?: number;
  /** The most extra CPU the workers may cost, as a fraction of the work (default 0.1). */
  maxOverhead?: number;
}

/**
 * How many worker threads to use for the work left (1 = none: run it in the calling thread). Never more than
 * the cores other processes leave idle (a core busy with another program gives no speed-up, only a share of
 * it), the units left, or `cap`; and only as many as keep the workers' own cost (`workers × workerCpuMs`)
 * within `maxOverhead` of the work, so that a run spends little more CPU than in one thread and a short run
 * does not pay for threads it cannot use. On a quiet machine with many cores and a long run it is `cap`.
 */
export function chooseWorkerCount(input: WorkerCountInput): number {
  const { cap, units, unitCpuMs, workerCpuMs } = input;
  const cores = input.cores ?? availableParallelism();
  const load = input.load ?? loadavg()[0];
  const maxOverhead = input.maxOverhead ?? 0.1;
  const idle = Math.max(1, Math.floor(cores - load + 0.5));
  const work = Math.max(0, units * unitCpuMs);
  const byCost = workerCpuMs > 0 ? Math.floor((maxOverhead * work) / workerCpuMs) : Infinity;
  const n = Math.min(Math.floor(cap), units, idle, byCost);
  return n >= 2 ? n : 1;
}
