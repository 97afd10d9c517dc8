/**
 * Charts are drawn without V8's optimising compiler (TurboFan). A page's charts run most of Vega's code
 * only a few times, so the optimised code that TurboFan compiles in the background mostly comes too late
 * to be used, while its compile jobs take the CPU: on 2 cores they competed with the two threads that draw.
 * Measured in one thread, all charts of a report from a fresh process, Vega loaded first (medians of 5–6):
 *
 * | report | with TurboFan | without |
 * |---|---|---|
 * | VOC det `large` (3 charts) | 520 ms, 835 ms CPU | 420 ms, 490 ms CPU |
 * | ADE20K `medium` (3 charts) | 392 ms, 680 ms CPU | 316 ms, 370 ms CPU |
 * | ILSVRC DET real demo (200 classes, 4 charts) | 691 ms, 1156 ms CPU | 748 ms, 852 ms CPU |
 *
 * (On the largest page one thread alone is a little slower without it — TurboFan's jobs ran on the idle
 * second core — but a page is drawn by two threads, and there they take the other thread's core.)
 *
 * V8's flags belong to the process: the switch covers the chart worker too, and only the main thread
 * turns it. It is turned off once every thread that draws has loaded Vega — V8 rejects a code cache made
 * under other flags (code-cache.ts), so the bundles are always loaded, and their cache written, with the
 * compiler on — and back on when the last drawing ends. Code optimised before (the evaluation's kernels)
 * stays optimised, and the thinning of the curves runs before, optimised (without TurboFan it took 4–6×
 * as long). A process started with the optimising compiler off is left as it is.
 */
// (node:v8 and node:worker_threads are taken when needed, not imported: worker_threads alone is ~25 more of Node's
// internal modules on every start, and a command's run needs neither unless it draws)

let drawing = 0;
/** The run is on V8's baseline compilers (`optimiseTheRun(false)`): nothing here turns the optimising compiler on. */
let baselineRun = false;
/** Started with the optimising compiler off (on the command line or in NODE_OPTIONS): the CLI never turns it on. */
const startedWithout = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].some((a) => a === '--no-turbofan' || a === '--no-opt' || a === '--jitless');

/**
 * Set on `process` by the bin (bundle-bin.cts) when it turned the optimising compiler off for start-up; the bin runs
 * on the main thread, and a worker thread has a `process` of its own, without it.
 */
const OFF_FOR_START = Symbol.for('cvdevkit.optimiserOffForStart');

function setFlag(flag: string): void {
  try {
    process.getBuiltinModule('node:v8').setFlagsFromString(flag);
  } catch {
    // a runtime that refuses flags after start-up: only the speed-up is lost
  }
}

/** A drawing's hold on the switch (see `holdCompilerOff`). */
export interface CompilerHold {
  /** Turns the optimising compiler off, if this hold has not yet (the first hold of concurrent drawings does); nothing once released. */
  off(): void;
  /** Ends this hold for good: the last one to end turns the compiler back on. */
  release(): void;
}

/** Whether a drawing holds the optimising compiler off now (this module's view of the flag). */
export function optimisingCompilerHeldOff(): boolean {
  return drawing > 0;
}

/** A hold for one drawing; on any thread but the main one, or in a process started without TurboFan, it does nothing. */
export function holdCompilerOff(): CompilerHold {
  let held = false;
  let released = false;
  return {
    off() {
      if (held || released || startedWithout || baselineRun || !process.getBuiltinModule('node:worker_threads').isMainThread) return;
      held = true;
      if (drawing++ === 0) setFlag('--no-turbofan');
    },
    release() {
      released = true;
      if (!held) return;
      held = false;
      if (--drawing === 0) setFlag('--turbofan');
    },
  };
}

/**
 * Turns the optimising compiler on for a command's run, if the bin turned it off; with `wanted` false (the task's
 * `optimisingCompiler: false`: its hot loops are WebAssembly kernels), leaves it off and WebAssembly on Liftoff, V8's
 * baseline WebAssembly compiler (`--liftoff-only`), for the whole run, charts included. The bin (bundle-bin.cts) starts
 * every command but `--version` with it off: during start-up (the bundled CLI, discovery, the plugin's modules, the program) a few
 * functions get just hot enough for TurboFan (path.normalize's normalizeString and fileURLToPath's
 * getPathFromURLPosix, called by the ES module loader for every module) and their compile jobs cost 20–65 ms of CPU,
 * and the compiler's own code and memory ~4.5 MiB of peak RSS, for code that start-up runs only a few hundred times
 * (measured: `cvdevkit info voc2010/cls` 52.1 -> 47.5 MiB, CPU 230 -> 220 ms). The run itself (the evaluation's
 * kernels, the output) has it on, as without the switch. Nothing where the bin did not turn it off (a worker thread,
 * a process started without it, the CLI's `run` called as a library), or while a drawing holds it off.
 */
export function optimiseTheRun(wanted = true): void {
  const marks = process as unknown as Record<symbol, unknown>;
  // (a process started without the compiler has no mark: the bin sets it only where it turned the compiler off)
  if (marks[OFF_FOR_START] !== true || drawing > 0) return;
  // set to false, not deleted: a property deleted from `process` would turn it into a dictionary, and the run's code
  // reads `process` (hrtime, cpuUsage) often
  marks[OFF_FOR_START] = false;
  if (wanted) {
    setFlag('--turbofan');
  } else {
    // without this, a kernel's hot functions would still be recompiled by the optimising compiler (tier-up)
    baselineRun = true;
    setFlag('--liftoff-only');
  }
}
