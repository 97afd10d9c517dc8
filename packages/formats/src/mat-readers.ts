/**
 * `@cvdevkit/formats/mat`: MAT-file reading through the input layer (regular files, the `mat` size cap)
 * and the decoder's value helpers from `@cvdevkit/matfile`, kept out of the package's main entry so that a
 * task without MAT files does not load the decoder.
 */
export * from './mat-input.js';
export { readMat, matHeaderText, decodeAll, packNumbers, DEFAULT_MAX_BYTES, type PackedNumbers } from '@cvdevkit/matfile';
export { matString, matStrings, matNumbers, matScalar, matAt, sparseNonzeros, sparseToDense } from '@cvdevkit/matfile';
export type {
  MatValue,
  MatNumericClass,
  MatTypedArray,
  MatStorageType,
  MatNumeric,
  MatLogical,
  MatChar,
  MatCell,
  MatStruct,
  MatSparse,
  MatVariables,
  ReadMatOptions,
  ReadMatFileOptions,
} from '@cvdevkit/matfile';
