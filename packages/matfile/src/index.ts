/**
 * @cvdevkit/matfile: a MATLAB MAT-file Level 5 reader (-v6 and -v7) returning typed arrays, and a small writer
 * (`writeSparseCellMat`). Arrays keep MATLAB's column-major order; see README.md.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { DevkitError } from '@cvdevkit/core';
import { readMat } from './read/read-mat.js';
import type { MatVariables } from './types.js';

export type * from './types.js';
export { readMat, matHeaderText, decodeAll, DEFAULT_MAX_BYTES } from './read/read-mat.js';
export { packNumbers, type PackedNumbers } from './read/pack.js';
export { matString, matStrings, matNumbers, matScalar, matAt, sparseNonzeros, sparseToDense } from './values.js';
export { sparseFromMask, writeSparseCellMat, type SparseMatrix, type SparseCellMatOptions } from './write.js';

export interface ReadMatFileOptions {
  /** Only decode these variables. */
  variables?: string[];
  /** See ReadMatOptions.maxBytes. */
  maxBytes?: number;
  /** See ReadMatOptions.eager. */
  eager?: boolean;
}

function readFailed(path: string, e: unknown): DevkitError {
  const code = (e as { code?: string }).code;
  return new DevkitError({
    kind: 'input',
    code: code === 'ENOENT' ? 'input/missing-file' : 'input/read',
    file: path,
    detail: code === 'ENOENT' ? 'MAT-file not found' : `cannot read MAT-file: ${(e as Error).message ?? String(e)}`,
    cause: e,
  });
}

/** Reads and decodes a MAT-file. */
export async function readMatFile(path: string, options: ReadMatFileOptions = {}): Promise<MatVariables> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (e) {
    throw readFailed(path, e);
  }
  return readMat(bytes, { ...options, file: path });
}

/** Synchronous readMatFile. */
export function readMatFileSync(path: string, options: ReadMatFileOptions = {}): MatVariables {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    throw readFailed(path, e);
  }
  return readMat(bytes, { ...options, file: path });
}
