/**
 * Reading values out of the `MatValue`s that `readMat` returns: strings, numbers, scalars, elements, sparse
 * nonzeros, each checking the shape and naming the variable in its error.
 */
import { DevkitError, type ErrorCode } from '@cvdevkit/core';
import type { MatLogical, MatNumeric, MatSparse, MatValue } from './types.js';

/** Where a value came from, for error messages: top-level variables are registered by readMat. */
const ORIGINS = new WeakMap<object, { file?: string; field: string }>();

/** @internal Records that `v` is variable `field` of `file` (used in the error messages of this module). */
export function setOrigin(v: MatValue, file: string | undefined, field: string): void {
  ORIGINS.set(v, { file, field });
}

function describe(v: MatValue): string {
  const dims = v.dims.join('x');
  switch (v.kind) {
    case 'numeric':
      return `${dims} ${v.class}${v.imag ? ' (complex)' : ''}`;
    case 'sparse':
      return `${dims} sparse ${v.logical ? 'logical' : 'double'}`;
    default:
      return `${dims} ${v.kind}`;
  }
}

function shapeError(v: MatValue, where: string | undefined, expected: string, code: ErrorCode = 'input/mat-shape'): DevkitError {
  const origin = ORIGINS.get(v);
  return new DevkitError({
    kind: 'input',
    code,
    file: origin?.file,
    field: where ?? origin?.field,
    expected,
    found: describe(v),
  });
}

function codesToString(codes: Uint16Array, start: number, end: number, step = 1): string {
  if (step === 1) {
    let s = '';
    for (let i = start; i < end; i += 8192) s += String.fromCharCode(...codes.subarray(i, Math.min(end, i + 8192)));
    return s;
  }
  let s = '';
  for (let i = start; i < end; i += step) s += String.fromCharCode(codes[i]);
  return s;
}

/** A char row vector (or '' for an empty char array) as a JS string. */
export function matString(v: MatValue, where?: string): string {
  if (v.kind === 'char') {
    const n = v.codes.length;
    if (n === 0) return '';
    if (v.dims.length === 2 && v.dims[0] === 1) return codesToString(v.codes, 0, n);
  }
  throw shapeError(v, where, 'a char row vector (string)');
}

/**
 * A list of strings: the rows of a char matrix (trailing blanks removed, like MATLAB's `cellstr`),
 * or the strings of a cell array of char row vectors (in column-major cell order; an empty `[]` cell
 * gives ''). A single char row vector gives one string.
 */
export function matStrings(v: MatValue, where?: string): string[] {
  if (v.kind === 'char') {
    if (v.codes.length === 0) {
      const rows = v.dims.length === 2 ? v.dims[0] : 0;
      if (rows > 1 << 24) throw shapeError(v, where, `a char array with at most ${1 << 24} rows`, 'input/mat-too-large');
      return new Array<string>(rows).fill('');
    }
    if (v.dims.length !== 2) throw shapeError(v, where, 'a 2-D char array or a cell array of strings');
    const [rows, cols] = v.dims;
    const out = new Array<string>(rows);
    for (let r = 0; r < rows; r++) out[r] = codesToString(v.codes, r, r + rows * cols, rows).replace(/[ \0]+$/, '');
    return out;
  }
  if (v.kind === 'cell') {
    const out = new Array<string>(v.cells.length);
    for (let i = 0; i < v.cells.length; i++) {
      const c = v.cells[i];
      if (c.kind === 'numeric' && c.data.length === 0) out[i] = '';
      else out[i] = matString(c, `${where ?? ORIGINS.get(v)?.field ?? ''}{${i + 1}}`);
    }
    return out;
  }
  throw shapeError(v, where, 'a char array or a cell array of strings');
}

/** The real values of a numeric or logical array as doubles, column-major (int64 values are rounded to doubles). */
export function matNumbers(v: MatValue, where?: string): Float64Array {
  if (v.kind === 'numeric') {
    const d = v.data;
    if (d instanceof Float64Array) return d;
    if (d instanceof BigInt64Array || d instanceof BigUint64Array) {
      const out = new Float64Array(d.length);
      for (let i = 0; i < d.length; i++) out[i] = Number(d[i]);
      return out;
    }
    return Float64Array.from(d);
  }
  if (v.kind === 'logical') return Float64Array.from(v.data);
  throw shapeError(v, where, 'a numeric or logical array');
}

/** The single value of a 1x1 numeric or logical array. */
export function matScalar(v: MatValue, where?: string): number {
  if ((v.kind === 'numeric' || v.kind === 'logical') && v.data.length === 1) {
    const x = v.data[0];
    return typeof x === 'bigint' ? Number(x) : x;
  }
  throw shapeError(v, where, 'a numeric scalar');
}

/** Element (row, col, page) of a numeric/logical array, 0-based: data[row + col*R + page*R*C]. */
export function matAt(v: MatNumeric | MatLogical, row: number, col: number, page = 0): number {
  const R = v.dims[0];
  const C = v.dims[1] ?? 1;
  const P = v.data.length / Math.max(1, R * C);
  if (!(row >= 0 && row < R && col >= 0 && col < C && page >= 0 && page < P) || !Number.isInteger(row + col + page)) {
    const origin = ORIGINS.get(v);
    throw new DevkitError({
      kind: 'input',
      code: 'input/mat-index',
      file: origin?.file,
      field: origin?.field,
      detail: 'index out of range',
      expected: `row < ${R}, col < ${C}, page < ${P} (0-based)`,
      found: `(${row}, ${col}, ${page})`,
    });
  }
  const x = v.data[row + col * R + page * R * C];
  return typeof x === 'bigint' ? Number(x) : x;
}

/** The nonzeros of a sparse matrix in column-major order (0-based rows and columns). */
export function sparseNonzeros(s: MatSparse): { rows: Int32Array; cols: Int32Array; values: Float64Array } {
  const nnz = s.nnz;
  const rows = s.ir.slice(0, nnz);
  const cols = new Int32Array(nnz);
  const ncols = s.dims[1];
  for (let c = 0; c < ncols; c++) cols.fill(c, s.jc[c], s.jc[c + 1]);
  return { rows, cols, values: s.data.slice(0, nnz) };
}

/** A sparse matrix as a dense column-major Float64Array (rows x cols); logical gives 0/1. Refuses more than `maxBytes`. */
export function sparseToDense(s: MatSparse, maxBytes = 512 * 1024 * 1024): Float64Array {
  const [rows, cols] = s.dims;
  if (rows * cols * 8 > maxBytes) throw shapeError(s, undefined, `a sparse matrix of at most ${maxBytes} bytes when dense`, 'input/mat-too-large');
  const out = new Float64Array(rows * cols);
  for (let c = 0; c < cols; c++) for (let k = s.jc[c]; k < s.jc[c + 1]; k++) out[s.ir[k] + c * rows] = s.data[k];
  return out;
}
