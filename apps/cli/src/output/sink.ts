/**
 * Where printed output goes: stdout (written synchronously through its file descriptor, so a full disk
 * or a closed pipe is an error with a message and exit 2, not a lost report with exit 0). The `--out` file
 * and the other output targets are staged and committed by `targets.ts`.
 */
import { writeSync } from 'node:fs';
import { DevkitError } from '@cvdevkit/core';
import { describeFsError, errnoCode } from '@cvdevkit/formats/fs';
import { OutputClosed } from '../failures.js';

export interface OutputSink {
  write(chunk: string): void;
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** Writes all of `chunk` to `fd`, waiting out EAGAIN (a non-blocking pipe that is full). */
export function writeAllSync(fd: number, chunk: string | Uint8Array): void {
  let buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  while (buf.length > 0) {
    let n: number;
    try {
      n = writeSync(fd, buf);
    } catch (e) {
      if (errnoCode(e) !== 'EAGAIN') throw e;
      Atomics.wait(sleeper, 0, 0, 2);
      continue;
    }
    buf = buf.subarray(n);
  }
}

function outputError(e: unknown, where: string): DevkitError {
  return new DevkitError({ kind: 'input', code: 'input/write-failed', file: where, expected: 'to write the output', found: describeFsError(e), cause: e });
}

/** Standard output: the process's fd 1 when `stream` is `process.stdout`, else the stream (tests). */
export function stdoutSink(stream: NodeJS.WritableStream): OutputSink {
  if (stream !== process.stdout) return { write: (chunk) => void stream.write(chunk) };
  return {
    write(chunk) {
      try {
        writeAllSync(1, chunk);
      } catch (e) {
        if (errnoCode(e) === 'EPIPE') throw new OutputClosed();
        throw outputError(e, 'standard output');
      }
    },
  };
}
