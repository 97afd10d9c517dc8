import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { rankDescending } from './ranking.js';

describe('rankDescending', () => {
  it('sorts descending, stable on ties, NaN last by default (sort(-score))', () => {
    expect(Array.from(rankDescending([0.5, NaN, 1, 0.5, -Infinity, Infinity]))).toEqual([5, 2, 0, 3, 4, 1]);
  });

  it("puts NaN first with nan: 'first' (sort(score,'descend'))", () => {
    expect(Array.from(rankDescending([0.5, NaN, 1, NaN], { nan: 'first' }))).toEqual([1, 3, 2, 0]);
  });

  it('ties +0 and -0', () => {
    expect(Array.from(rankDescending([0, -0, 0]))).toEqual([0, 1, 2]);
  });

  it('is a stable permutation ordered by score', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.double(), fc.constantFrom(0, 1, 2))), (scores) => {
        const r = Array.from(rankDescending(scores));
        expect([...r].sort((a, b) => a - b)).toEqual(scores.map((_, i) => i));
        for (let i = 1; i < r.length; i++) {
          const a = scores[r[i - 1]];
          const b = scores[r[i]];
          if (Number.isNaN(a)) expect(Number.isNaN(b)).toBe(true);
          else if (!Number.isNaN(b)) {
            expect(a).toBeGreaterThanOrEqual(b);
            if (a === b) expect(r[i - 1]).toBeLessThan(r[i]);
          }
        }
      }),
    );
  });
});
