/** Where the CLI reads and writes (the `--out` file is written by `output/sink.ts`; side-output files by `writeAtomic`). */
import { renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { usageError } from '@cvdevkit/core';
import { describeFsError, errnoCode } from '@cvdevkit/formats/fs';

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
    const reason = errnoCode(e) === 'ENOENT' ? `directory ${dirname(file)} does not exist` : describeFsError(e);
    throw usageError(`cannot write ${option} ${file}: ${reason}`, 'usage/out');
  }
}
