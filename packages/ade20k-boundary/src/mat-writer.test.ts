import { describe, expect, it } from 'vitest';
import { sparseFromMask, writeBoundaryMat } from './mat-writer.js';

describe('sparseFromMask', () => {
  it('gives column-major compressed indices of the nonzero pixels', () => {
    // 2x3 row-major: [1 0 1; 0 1 1]
    const s = sparseFromMask([1, 0, 1, 0, 1, 1], 2, 3);
    expect(Array.from(s.jc)).toEqual([0, 1, 2, 4]);
    expect(Array.from(s.ir)).toEqual([0, 1, 0, 1]);
    expect(Array.from(s.values)).toEqual([1, 1, 1, 1]);
  });
});

describe('writeBoundaryMat', () => {
  it('writes a Level-5 header and 8-byte aligned elements', () => {
    const bytes = writeBoundaryMat([sparseFromMask([1, 0, 0, 1], 2, 2), sparseFromMask([0, 0, 0, 0], 2, 2)]);
    const text = new TextDecoder().decode(bytes.subarray(0, 10));
    expect(text).toBe('MATLAB 5.0');
    const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    expect(v.getUint16(124, true)).toBe(0x0100);
    expect(String.fromCharCode(bytes[126], bytes[127])).toBe('IM');
    expect(v.getUint32(128, true)).toBe(14); // miMATRIX
    expect(v.getUint32(132, true)).toBe(bytes.length - 136);
    expect(bytes.length % 8).toBe(0);
  });
});
