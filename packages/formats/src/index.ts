export * from './input-limits.js';
export * from './fs-problem.js';
export * from './input-file.js';
export * from './text-pieces.js';
export * from './visible.js';
export * from './numbers.js';
export * from './gzip.js';
export * from './output-file.js';
export * from './json-input.js';
export * from './xml.js';
export { xmlParseProblem } from './xml-errors.js';
export * from './lines.js';
export * from './png.js';
export { readPngHeader, hasPngSignature, translatePngError, type PngHeader } from './png-header.js';
export * from './colormap.js';
export * from './mat-input.js';
// The MAT-file decoder lives in its own package (no XML/PNG dependencies); re-exported for DESIGN's import
// path. Its path readers are replaced by the input layer's (`mat-input.ts`: regular files, the `mat` cap).
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
