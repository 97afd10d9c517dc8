import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { rankDescending } from './ranking.js';
import { packedDescending, radixDescending } from './ranking-sorts.js';

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

  it('equals the comparison sort on long lists (the radix path): ties, ±0, ±Infinity, subnormals, NaN, equal high words', () => {
    const reference = (scores: number[], nanFirst: boolean) => {
      const idx = scores.map((_, i) => i);
      const finite = idx.filter((i) => !Number.isNaN(scores[i]));
      const nans = idx.filter((i) => Number.isNaN(scores[i]));
      finite.sort((a, b) => (scores[a] > scores[b] ? -1 : scores[a] < scores[b] ? 1 : a - b));
      return nanFirst ? [...nans, ...finite] : [...finite, ...nans];
    };
    const score = fc.oneof(
      fc.double(),
      fc.constantFrom(0, -0, 1, -1, 0.5, Infinity, -Infinity, NaN, Number.MIN_VALUE, -Number.MIN_VALUE, Number.MAX_VALUE),
      fc.integer({ min: -3, max: 3 }).map((k) => k / 4),
      // the same high 32 bits, different low words (the radix sorts the high word, then such runs)
      fc.integer({ min: -6, max: 6 }).map((k) => 1 + k * 2 ** -52),
      fc.integer({ min: -6, max: 6 }).map((k) => -0.75 - k * 2 ** -53),
    );
    fc.assert(
      fc.property(fc.array(score, { minLength: 60, maxLength: 400 }), fc.boolean(), (scores, nanFirst) => {
        expect(Array.from(rankDescending(scores, { nan: nanFirst ? 'first' : 'last' }))).toEqual(reference(scores, nanFirst));
      }),
      { numRuns: 300 },
    );
    // both long-list kernels, whatever the length (rankDescending picks one by length)
    fc.assert(
      fc.property(fc.array(score.filter((x) => !Number.isNaN(x)), { minLength: 1, maxLength: 300 }), (scores) => {
        const idx = Uint32Array.from(scores, (_, i) => i);
        const want = reference(scores, false);
        expect(Array.from(packedDescending(scores, idx))).toEqual(want);
        expect(Array.from(radixDescending(scores, idx))).toEqual(want);
      }),
      { numRuns: 300 },
    );
  });
});

