/**
 * Charts are drawn without V8's optimising compiler (TurboFan). A page's charts run most of Vega's code
 * only a few times, so the optimised code that TurboFan compiles in the background mostly comes too late
 * to be used, while its compile jobs take the CPU: on 2 cores they competed with the two threads that draw.
 * Measured in one thread, all charts of a report from a fresh process (median of 8):
 *
 * | report | with TurboFan | without |
 * |---|---|---|
 * | VOC det `large` (3 charts) | 480 ms, 786 ms CPU | 281 ms, 341 ms CPU |
 * | ADE20K `medium` (3 charts) | 565 ms, 846 ms CPU | 526 ms, 581 ms CPU |
 * | ILSVRC DET real demo (200 classes, 4 charts) | 1041 ms, 1605 ms CPU | 898 ms, 1027 ms CPU |
 *
 * V8's flags belong to the process, so the switch covers the chart worker too; it is turned off when the
 * first drawing starts and back on when the last one ends (code optimised before, e.g. the evaluation's
 * kernels, stays optimised). A process started with the optimising compiler off is left as it is.
 */
import { setFlagsFromString } from 'node:v8';

let drawing = 0;
const startedWithout = process.execArgv.some((a) => a === '--no-turbofan' || a === '--no-opt' || a === '--jitless');

function setFlag(flag: string): void {
  try {
    setFlagsFromString(flag);
  } catch {
    // a runtime that refuses flags after start-up: only the speed-up is lost
  }
}

/** Runs `draw` with V8's optimising compiler off (see above); nested and concurrent calls share the switch. */
export async function withoutOptimisingCompiler<T>(draw: () => Promise<T>): Promise<T> {
  if (startedWithout) return draw();
  if (drawing++ === 0) setFlag('--no-turbofan');
  try {
    return await draw();
  } finally {
    if (--drawing === 0) setFlag('--turbofan');
  }
}
