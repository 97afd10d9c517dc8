/** MAT-files through the input layer: a regular file only, at most the `mat` cap, then `@cvdevkit/matfile`'s decoder. */
import { readMat, type MatVariables, type ReadMatFileOptions } from '@cvdevkit/matfile';
import { readInputBytes, readInputBytesSync } from './input-file.js';

const EXPECTED = 'a MAT-file';

/** Reads and decodes a MAT-file (see `@cvdevkit/matfile`'s `readMat` for the options). */
export async function readMatFile(path: string, options: ReadMatFileOptions = {}): Promise<MatVariables> {
  return readMat(await readInputBytes(path, { kind: 'mat', expected: EXPECTED }), { ...options, file: path });
}

/** Synchronous `readMatFile`. */
export function readMatFileSync(path: string, options: ReadMatFileOptions = {}): MatVariables {
  return readMat(readInputBytesSync(path, { kind: 'mat', expected: EXPECTED }), { ...options, file: path });
}
