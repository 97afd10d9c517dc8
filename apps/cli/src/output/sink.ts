/**
 * Where printed output goes: stdout (written synchronously through its file descriptor, so a full disk
 * or a closed pipe is an error with a message and exit 2, not a lost report with exit 0) and the
 * `--out` file (a temporary file renamed into place once complete: all or nothing).
 */
import { closeSync, existsSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { DevkitError } from '@cvdevkit/core';
import { describeFsError, errnoCode } from '@cvdevkit/formats/fs';
import { OutputClosed } from '../failures.js';

export interface OutputSink {
  write(chunk: string): void;
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** Writes all of `chunk` to `fd`, waiting out EAGAIN (a non-blocking pipe that is full). */
export function writeAllSync(fd: number, chunk: string): void {
  let buf = Buffer.from(chunk, 'utf8');
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

/** Why `--out` cannot be written, in words (a missing folder, a folder where files cannot be made, …). */
function outReason(e: unknown, file: string): string {
  const code = errnoCode(e);
  if (code === 'ENOENT') return existsSync(dirname(file)) ? `files cannot be created in ${dirname(file)}` : `directory ${dirname(file)} does not exist`;
  return describeFsError(e);
}

/** An `--out` file written through a temporary file in the same folder; `commit` renames it into place, `abort` removes it. */
export class AtomicFileSink implements OutputSink {
  private readonly tmp: string;
  private fd: number | undefined;

  constructor(readonly file: string) {
    this.tmp = join(dirname(file), `.${basename(file)}.${process.pid}.${Date.now().toString(36)}.tmp`);
    try {
      this.fd = openSync(this.tmp, 'wx');
    } catch (e) {
      throw this.failure(e);
    }
  }

  private failure(e: unknown): DevkitError {
    return new DevkitError({ kind: 'usage', code: 'usage/out', detail: `cannot write --out ${this.file}: ${outReason(e, this.file)}`, cause: e });
  }

  write(chunk: string): void {
    try {
      writeAllSync(this.fd!, chunk);
    } catch (e) {
      this.abort();
      throw this.failure(e);
    }
  }

  commit(): void {
    try {
      closeSync(this.fd!);
      this.fd = undefined;
      renameSync(this.tmp, this.file);
    } catch (e) {
      this.abort();
      throw this.failure(e);
    }
  }

  abort(): void {
    if (this.fd !== undefined) {
      try {
        closeSync(this.fd);
      } catch {
        // already closed
      }
      this.fd = undefined;
    }
    try {
      unlinkSync(this.tmp);
    } catch {
      // nothing was written
    }
  }
}
