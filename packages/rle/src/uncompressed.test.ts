import { describe, expect, it } from 'vitest';
import { fromUncompressed } from './uncompressed.js';

describe('fromUncompressed', () => {
  it('keeps the counts (zero runs included) and checks them', () => {
    expect(Array.from(fromUncompressed([0, 3, 0, 1, 2], 2, 3).counts)).toEqual([0, 3, 0, 1, 2]);
    expect(() => fromUncompressed([1, 2], 2, 3)).toThrow(expect.objectContaining({ reason: 'counts-sum' }));
    expect(() => fromUncompressed([1, -1, 6], 2, 3)).toThrow(expect.objectContaining({ reason: 'counts-value', position: 1, found: '-1' }));
    expect(() => fromUncompressed([1.5, 4.5], 2, 3)).toThrow(expect.objectContaining({ reason: 'counts-value', position: 0 }));
    expect(() => fromUncompressed([2 ** 32], 2 ** 16, 2 ** 16)).toThrow(expect.objectContaining({ reason: 'size' }));
  });
});
