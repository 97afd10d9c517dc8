import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pairwiseSum, pairwiseSumStrided } from './pairwise-sum.js';

/** The recursion written the other way round (block sizes first), as an independent statement of numpy's order. */
function reference(a: number[]): number {
  const rec = (lo: number, n: number): number => {
    if (n < 8) {
      let s = -0.0;
      for (let i = 0; i < n; i++) s += a[lo + i];
      return s;
    }
    if (n <= 128) {
      const r = a.slice(lo, lo + 8);
      let i = 8;
      for (; i + 8 <= n; i += 8) for (let j = 0; j < 8; j++) r[j] += a[lo + i + j];
      let s = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
      for (; i < n; i++) s += a[lo + i];
      return s;
    }
    const h = Math.floor(n / 2) - (Math.floor(n / 2) % 8);
    return rec(lo, h) + rec(lo + h, n - h);
  };
  return rec(0, a.length);
}

describe('pairwiseSum (numpy pairwise_sum)', () => {
  it('is exact on integers', () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: -1000, max: 1000 }), { maxLength: 600 }), (a) => pairwiseSum(a) === a.reduce((s, v) => s + v, 0)));
  });
  it('follows the block order', () => {
    fc.assert(fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 1200 }), (a) => Object.is(pairwiseSum(a), reference(a))));
  });
  it('of a strided column is the sum of the column copied out', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { maxLength: 700 }), fc.integer({ min: 1, max: 5 }), fc.nat(4), (a, stride, start) => {
        const n = Math.max(0, Math.floor((a.length - start - 1) / stride) + 1);
        const column = Array.from({ length: n }, (_, i) => a[start + i * stride]);
        return Object.is(pairwiseSumStrided(a, start, stride, n), pairwiseSum(column));
      }),
    );
  });
  it('differs from a left-to-right sum where numpy does (0.1 × 10)', () => {
    const a = new Array<number>(10).fill(0.1);
    expect(pairwiseSum(a)).toBe(0.1 + 0.1 + (0.1 + 0.1) + (0.1 + 0.1 + (0.1 + 0.1)) + 0.1 + 0.1);
  });
});
