import { describe, expect, it } from 'vitest';
import { readMat } from './read/read-mat.js';
import { sparseToDense } from './values.js';
import type { MatCell, MatSparse, MatStruct } from './types.js';
import { sparseFromMask, writeSparseCellMat } from './write.js';

describe('sparseFromMask', () => {
  it('gives column-major compressed indices of the nonzero pixels', () => {
    // 2x3 row-major: [1 0 1; 0 1 1]
    const s = sparseFromMask([1, 0, 1, 0, 1, 1], 2, 3);
    expect(Array.from(s.jc)).toEqual([0, 1, 2, 4]);
    expect(Array.from(s.ir)).toEqual([0, 1, 0, 1]);
    expect(Array.from(s.values)).toEqual([1, 1, 1, 1]);
  });
});

describe('writeSparseCellMat', () => {
  it('writes a Level-5 header and 8-byte aligned elements', () => {
    const bytes = writeSparseCellMat([sparseFromMask([1, 0, 0, 1], 2, 2), sparseFromMask([0, 0, 0, 0], 2, 2)], { variable: 'gt', field: 'bdry' });
    const text = new TextDecoder().decode(bytes.subarray(0, 10));
    expect(text).toBe('MATLAB 5.0');
    const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    expect(v.getUint16(124, true)).toBe(0x0100);
    expect(String.fromCharCode(bytes[126], bytes[127])).toBe('IM');
    expect(v.getUint32(128, true)).toBe(14); // miMATRIX
    expect(v.getUint32(132, true)).toBe(bytes.length - 136);
    expect(bytes.length % 8).toBe(0);
  });

  it('writes what readMat reads back (struct, cell, sparse values; any field name length)', () => {
    const a = sparseFromMask([1, 0, 1, 0, 1, 1], 2, 3);
    const b = sparseFromMask([0, 0, 0, 0, 0, 0], 2, 3);
    const bytes = writeSparseCellMat([a, b], { variable: 'groundTruth', field: 'Boundaries_long_name', creator: 'a test' });
    const vars = readMat(bytes);
    expect(Object.keys(vars)).toEqual(['groundTruth']);
    const s = vars.groundTruth as MatStruct;
    expect(s.fieldNames).toEqual(['Boundaries_long_name']);
    const cell = s.get(0, 'Boundaries_long_name') as MatCell;
    expect(cell.dims).toEqual([2, 1]);
    const [ra, rb] = cell.cells as MatSparse[];
    expect(Array.from(sparseToDense(ra))).toEqual([1, 0, 0, 1, 1, 1]); // column-major of [1 0 1; 0 1 1]
    expect(rb.nnz).toBe(0);
    expect(new TextDecoder().decode(bytes.subarray(0, 116)).trimEnd()).toBe('MATLAB 5.0 MAT-file, Platform: cvdevkit, Created by: a test');
  });
});
