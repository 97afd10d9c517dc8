import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { accumulateSegHistogram, checkSegPair, firstAbove, histogramToConfusion, SEG_HISTOGRAM_SIZE } from './confusion.js';

/** Literal transcription of VOCevalseg lines 55-59: sumim = 1+gt+res*21; histc(sumim(locs), 1:441). */
function officialHist(gt: number[], res: number[]): number[] {
  const hs = new Array<number>(441).fill(0);
  for (let i = 0; i < gt.length; i++) {
    if (!(gt[i] < 255)) continue;
    const sumim = 1 + gt[i] + res[i] * 21;
    if (sumim >= 1 && sumim <= 441) hs[sumim - 1]++;
  }
  return hs;
}

const label = fc.oneof(fc.integer({ min: 0, max: 20 }), fc.constant(255), fc.integer({ min: 21, max: 300 }));

describe('accumulateSegHistogram', () => {
  it('equals the official histc over 1:441, runs and aliasing (gt 21..254, >255) included', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(label, fc.integer({ min: 0, max: 20 }), fc.integer({ min: 1, max: 5 })), { maxLength: 60 }),
        (runs) => {
          const gt: number[] = [];
          const res: number[] = [];
          for (const [g, r, k] of runs) {
            for (let i = 0; i < k; i++) {
              gt.push(g);
              res.push(r);
            }
          }
          const hist = new Float64Array(SEG_HISTOGRAM_SIZE);
          const { counted, firstAbove } = accumulateSegHistogram(hist, Uint16Array.from(gt), Uint16Array.from(res), 20);
          expect(firstAbove).toBe(-1);
          const want = officialHist(gt, res);
          expect(Array.from(hist)).toEqual(want);
          expect(counted).toBe(want.reduce((a, b) => a + b, 0));
        },
      ),
      { numRuns: 300 },
    );
  });
  it('the 8-bit word-at-a-time path equals the official histc too (aligned and unaligned views)', () => {
    const label8 = fc.oneof(fc.integer({ min: 0, max: 20 }), fc.constant(255), fc.integer({ min: 21, max: 254 }));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(label8, fc.integer({ min: 0, max: 25 }), fc.integer({ min: 1, max: 13 })), { maxLength: 40 }),
        fc.constantFrom(0, 1, 4),
        (runs, offset) => {
          const gt: number[] = [];
          const res: number[] = [];
          for (const [g, r, k] of runs) {
            for (let i = 0; i < k; i++) {
              gt.push(g);
              res.push(r);
            }
          }
          const g8 = new Uint8Array(gt.length + offset).subarray(offset);
          const r8 = new Uint8Array(res.length + offset).subarray(offset);
          g8.set(gt);
          r8.set(res);
          const hist = new Float64Array(SEG_HISTOGRAM_SIZE);
          const got = accumulateSegHistogram(hist, g8, r8, 20);
          expect(Array.from(hist)).toEqual(officialHist(gt, res));
          expect(got.firstAbove).toBe(res.findIndex((v) => v > 20));
        },
      ),
      { numRuns: 400 },
    );
  });
  it('maps bins to (gt, res) in column order', () => {
    const hist = new Float64Array(SEG_HISTOGRAM_SIZE);
    accumulateSegHistogram(hist, new Uint8Array([3, 3, 0, 255, 22]), new Uint8Array([5, 5, 20, 7, 1]));
    const c = histogramToConfusion(hist);
    expect(c[3 * 21 + 5]).toBe(2);
    expect(c[0 * 21 + 20]).toBe(1);
    // gt 22, res 1: sumim-1 = 22 + 21 = 43 -> row 1, col 2 (aliased)
    expect(c[1 * 21 + 2]).toBe(1);
    expect(c.reduce((a, b) => a + b, 0)).toBe(4);
  });
  it('finds the first result value above maxLabel while counting', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 80 }), (res) => {
        const gt = new Uint8Array(res.length);
        const got = accumulateSegHistogram(new Float64Array(441), gt, Uint8Array.from(res), 20);
        expect(got.firstAbove).toBe(res.findIndex((v) => v > 20));
      }),
      { numRuns: 200 },
    );
  });
  it('rejects arrays of different length', () => {
    expect(() => accumulateSegHistogram(new Float64Array(441), [1, 2], [1])).toThrow(RangeError);
  });
});

describe('checkSegPair', () => {
  const img = (w: number, h: number, data: number[]) => ({ width: w, height: h, data: Uint8Array.from(data), kind: 'palette' as const, bitDepth: 8 });
  it('reports the first value > 20 (row-major, 1-based x,y) and the largest value', () => {
    const p = checkSegPair('a', img(3, 2, [0, 0, 0, 0, 0, 0]), img(3, 2, [0, 1, 2, 3, 255, 21]), 'r.png');
    expect(p).toHaveLength(1);
    expect(p[0]).toMatchObject({ code: 'input/label-range', pixel: '2,2', found: '255', file: 'r.png' });
    expect(p[0].detail).toContain('255');
  });
  it('reports a size mismatch as rows x columns, and both problems together', () => {
    const p = checkSegPair('a', img(3, 2, [0, 0, 0, 0, 0, 0]), img(2, 2, [0, 21, 0, 0]), 'r.png');
    expect(p.map((x) => x.code)).toEqual(['input/label-range', 'input/size-mismatch']);
    expect(p[1]).toMatchObject({ expected: '2 x 3 (rows x columns, as the ground truth)', found: '2 x 2' });
  });
  it('accepts 0..20', () => {
    expect(checkSegPair('a', img(2, 1, [0, 255]), img(2, 1, [20, 0]), 'r.png')).toEqual([]);
    expect(firstAbove([1, 2, 30, 40], 20)).toBe(2);
  });
});
