/**
 * Ctrl-C for the whole process: installed as the CLI starts and kept until it exits, so that a SIGINT
 * during start-up or a long synchronous phase is never lost (it is seen at the next turn of the event
 * loop). The first one aborts the current run; a second exits at once with 130.
 */
import { EXIT } from './failures.js';

let installed = false;
let interrupted = false;
let onFirst: (() => void) | undefined;

export function installInterruptHandler(stderr: NodeJS.WritableStream): void {
  if (installed) return;
  installed = true;
  process.on('SIGINT', () => {
    if (interrupted) process.exit(EXIT.interrupted);
    interrupted = true;
    stderr.write('interrupted: stopping (press Ctrl-C again to quit at once)\n');
    onFirst?.();
  });
}

/** Whether a Ctrl-C has arrived. */
export function wasInterrupted(): boolean {
  return interrupted;
}

/** What the first Ctrl-C does besides being remembered (abort the current run, stop the bar). */
export function onInterrupt(fn: (() => void) | undefined): void {
  onFirst = fn;
}
