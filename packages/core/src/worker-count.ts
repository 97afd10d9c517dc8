import { readdirSync, readFileSync } from 'node:fs';
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
  /** Runnable threads of other processes (default `otherRunnable()`). */
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
 *
 * The policy, in short: threads only for work that is long enough (10 % of its CPU pays for all the workers'
 * start-up), and only on cores nobody else wants (`otherRunnable`: the load average or the runnable threads
 * now, whichever is larger). On the 2-core VM this keeps VOC det / seg and ADE20K `medium` on one thread (the
 * work is 0.3 - 2 s of CPU against 100 - 250 ms per worker), and on a quiet 16-core machine it gives 16 threads
 * to the 300,000 units of the ADE20K validation set.
 */
export function chooseWorkerCount(input: WorkerCountInput): number {
  const { cap, units, unitCpuMs, workerCpuMs } = input;
  const cores = input.cores ?? availableParallelism();
  const load = input.load ?? otherRunnable();
  const maxOverhead = input.maxOverhead ?? 0.1;
  const idle = Math.max(1, Math.floor(cores - load + 0.5));
  const work = Math.max(0, units * unitCpuMs);
  const byCost = workerCpuMs > 0 ? Math.floor((maxOverhead * work) / workerCpuMs) : Infinity;
  const n = Math.min(Math.floor(cap), units, idle, byCost);
  return n >= 2 ? n : 1;
}

/**
 * How many threads of other programs want a core: the larger of the 1-minute load average (`os.loadavg()[0]`)
 * and, on Linux, the threads runnable right now (`/proc/loadavg`'s fourth field, less this process's own running
 * threads: the caller, V8's compiler and GC helpers). The load
 * average lags (a program started ten seconds ago counts for about a sixth), the instant count is a snapshot; the
 * larger of the two errs towards fewer threads, which can cost speed but never makes a run slower than one thread.
 */
export function otherRunnable(): number {
  const average = loadavg()[0];
  let now = 0;
  try {
    const m = /^\S+ \S+ \S+ (\d+)\//.exec(readFileSync('/proc/loadavg', 'latin1'));
    if (m) now = Math.max(0, Number(m[1]) - ownRunning());
  } catch {
    // not Linux: the load average alone (0 on Windows)
  }
  return Math.max(average, now);
}

/** This process's threads in state R (running or runnable), at least 1: the caller. */
function ownRunning(): number {
  let n = 0;
  try {
    for (const t of readdirSync('/proc/self/task')) {
      const stat = readFileSync(`/proc/self/task/${t}/stat`, 'latin1');
      if (stat.charCodeAt(stat.lastIndexOf(')') + 2) === 82) n++; // 'R'
    }
  } catch {
    // a thread that ended while being read
  }
  return Math.max(1, n);
}
