/** Outputs the user names (`--out-dir`, `--dir`, written results): fs errors become problems (exit 2), never internal errors. */
import { writeFile } from 'node:fs/promises';
import { makeDirs, makeDirsSync } from './make-dirs.js';
import { fsWriteError } from './fs-problem.js';

/** Creates a folder (and its parents); `<file>/sub` or a read-only place is a DevkitError naming it. */
export async function ensureOutputDir(dir: string, what = 'output files'): Promise<void> {
  try {
    await makeDirs(dir);
  } catch (e) {
    throw fsWriteError(e, dir, what);
  }
}

/** Synchronous `ensureOutputDir`. */
export function ensureOutputDirSync(dir: string, what = 'output files'): void {
  try {
    makeDirsSync(dir);
  } catch (e) {
    throw fsWriteError(e, dir, what);
  }
}

/** Writes a whole file; a failure (missing folder, full disk, permissions) is a DevkitError naming it. */
export async function writeOutputFile(file: string, data: string | Uint8Array, what = 'an output file'): Promise<void> {
  try {
    await writeFile(file, data);
  } catch (e) {
    throw fsWriteError(e, file, what);
  }
}
