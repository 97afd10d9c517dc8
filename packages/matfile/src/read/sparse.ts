/**
 * Sparse arrays: ir (row indices), jc (column starts), pr (and pi) values, checked (jc non-decreasing from 0, rows
 * in range). Also MATLAB's sparse logical layout (an miDOUBLE tag holding one byte per nonzero) and Octave's
 * (class uint8 with the logical flag and an ir/jc/pr body).
 */
import type { MatSparse } from '../types.js';
import type { ArrayHeader } from './header.js';
import { decodeValues } from './numeric.js';
import type { Reader } from './source.js';
import { DOUBLE, FLAG_LOGICAL, INT32, miINT32, miUINT8, STORAGE, typeName } from './tags.js';

/**
 * Whether a numeric-class array with header `h` is Octave's sparse logical (class uint8 + logical flag, with an
 * ir/jc/pr body), judged from the tag at h.bodyAt, which has just been read.
 */
export function isOctaveSparseLogical(r: Reader, h: ArrayHeader, count: number, end: number): boolean {
  return (h.flags & FLAG_LOGICAL) !== 0 && h.dims.length === 2 && r.tagType === miINT32 && !(r.tagBytes === count * 4 && r.tagNext >= end);
}

/** The sparse array of dims `dims` whose body starts at p. */
export function parseSparse(r: Reader, p: number, end: number, dims: number[], nzmax: number, logical: boolean, complex: boolean): MatSparse {
  const rows = dims[0];
  const cols = dims[1];
  // ir
  r.readTag(p, end);
  const irAt = p;
  const irStore = STORAGE[r.tagType];
  if (!irStore || irStore.bigint || irStore.ctor === Float64Array || irStore.ctor === Float32Array) {
    r.fail(p, 'input/mat-tag', 'bad sparse row index (ir) element', 'miINT32', typeName(r.tagType));
  }
  const irCount = r.tagBytes / irStore.size;
  if (!Number.isInteger(irCount)) r.fail(p, 'input/mat-size', 'sparse ir size is not a whole number of values', `a multiple of ${irStore.size}`, `${r.tagBytes} bytes`);
  const ir = decodeValues(r, r.tagType, r.tagData, r.tagBytes, irCount, INT32, irAt) as Int32Array;
  p = r.tagNext;
  // jc
  r.readTag(p, end);
  const jcAt = p;
  const jcStore = STORAGE[r.tagType];
  if (!jcStore || jcStore.bigint || jcStore.ctor === Float64Array || jcStore.ctor === Float32Array) {
    r.fail(p, 'input/mat-tag', 'bad sparse column start (jc) element', 'miINT32', typeName(r.tagType));
  }
  if (r.tagBytes !== (cols + 1) * jcStore.size) {
    r.fail(p, 'input/mat-size', 'sparse jc length does not match the column count', `${cols + 1} values`, `${r.tagBytes / jcStore.size}`);
  }
  const jc = decodeValues(r, r.tagType, r.tagData, r.tagBytes, cols + 1, INT32, jcAt) as Int32Array;
  p = r.tagNext;
  const nnz = jc[cols];
  if (jc[0] !== 0) r.fail(jcAt, 'input/mat-sparse', 'sparse jc must start at 0', '0', String(jc[0]));
  for (let c = 0; c < cols; c++) {
    if (jc[c + 1] < jc[c]) r.fail(jcAt, 'input/mat-sparse', `sparse jc decreases at column ${c + 1}`, 'non-decreasing column starts', `${jc[c]} then ${jc[c + 1]}`);
  }
  if (nnz > irCount) r.fail(irAt, 'input/mat-sparse', 'sparse ir shorter than the nonzero count', `at least ${nnz} row indices`, `${irCount}`);
  for (let k = 0; k < nnz; k++) {
    if (ir[k] < 0 || ir[k] >= rows) r.fail(irAt, 'input/mat-sparse', `sparse row index out of range at nonzero ${k + 1}`, `0..${rows - 1}`, String(ir[k]));
  }
  void nzmax;
  const data = readSparseValues(r, p, end, nnz, logical, 'pr');
  p = r.tagNext;
  const v: MatSparse = { kind: 'sparse', logical, dims: [rows, cols], nnz, ir, jc, data };
  if (logical) for (let k = 0; k < nnz; k++) data[k] = data[k] !== 0 ? 1 : 0;
  if (complex) {
    v.imag = readSparseValues(r, p, end, nnz, false, 'pi');
  }
  return v;
}

/** nnz values of a sparse array's pr/pi element (>= nnz stored; MATLAB's logical layout: miDOUBLE tag, nnz bytes). */
function readSparseValues(r: Reader, p: number, end: number, nnz: number, logical: boolean, what: string): Float64Array {
  if (nnz === 0 && p >= end) {
    r.tagNext = p;
    return new Float64Array(0);
  }
  r.readTag(p, end);
  const st = STORAGE[r.tagType];
  if (!st) r.fail(p, 'input/mat-tag', `bad sparse ${what} element`, 'a numeric data type', typeName(r.tagType));
  let data: Float64Array;
  if (r.tagBytes === nnz * st.size) {
    data = decodeValues(r, r.tagType, r.tagData, r.tagBytes, nnz, DOUBLE, p) as Float64Array;
  } else if (logical && r.tagBytes === nnz) {
    // MATLAB's sparse logical: tagged miDOUBLE (or another type) but holding one byte per nonzero.
    data = decodeValues(r, miUINT8, r.tagData, nnz, nnz, DOUBLE, p) as Float64Array;
  } else if (r.tagBytes > nnz * st.size && r.tagBytes % st.size === 0) {
    // nzmax values stored; only the first nnz are used.
    data = decodeValues(r, r.tagType, r.tagData, nnz * st.size, nnz, DOUBLE, p) as Float64Array;
  } else {
    r.fail(p, 'input/mat-size', `sparse ${what} size does not match the nonzero count`, `${nnz} values (${nnz * st.size} bytes)`, `${r.tagBytes} bytes (${typeName(r.tagType)})`);
  }
  return data;
}
