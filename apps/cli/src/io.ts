/** Where the CLI reads and writes, and the atomic file write behind `--out`. */
import { renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { usageError } from '@cvdevkit/core';

/** Where the CLI reads and writes; `process` by default, replaceable in tests. */
export interface CliIo {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Install SIGINT handling (default true). */
  handleSignals?: boolean;
}

/** Writes `text` to `file` through a temporary file in the same directory and a rename: all or nothing. */
export function writeAtomic(file: string, text: string | Uint8Array, option = '--out'): void {
  const tmp = join(dirname(file), `.${basename(file)}.${process.pid}.${Date.now().toString(36)}.tmp`);
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, file);
  } catch (e) {
    try {
      unlinkSync(tmp);
    } catch {
      // nothing was written
    }
    const err = e as NodeJS.ErrnoException;
    const reason = err.code === 'ENOENT' ? `directory ${dirname(file)} does not exist` : err.code === 'EACCES' ? 'permission denied' : err.message.split('\n')[0];
    throw usageError(`cannot write ${option} ${file}: ${reason}`, 'usage/out');
  }
}
