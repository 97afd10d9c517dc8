import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BINS, countImage, type ImageCounts } from './image-counts.js';

/**
 * The official steps written out literally (intersectionAndUnion.m, pixelAccuracy.m): mask, `hist` with
 * centres 0:150 (bin = min(v, 150)), union = pred + lab - inter, bin 0 dropped. A reference to fuzz against.
 */
function officialSteps(l: number[], p: number[]): { inter: number[]; union: number[]; correct: number; labeled: number } {
  const hist = (x: number[]) => {
    const h = new Array<number>(151).fill(0);
    for (const v of x) h[Math.min(v, 150)]++;
    return h;
  };
  const masked = p.map((v, i) => (l[i] > 0 ? v : 0));
  const inter = masked.map((v, i) => (v === l[i] ? v : 0));
  const ai = hist(inter);
  const ap = hist(masked);
  const al = hist(l);
  const union = ap.map((v, k) => v + al[k] - ai[k]);
  return {
    inter: ai.slice(1),
    union: union.slice(1),
    correct: p.filter((v, i) => v === l[i] && l[i] > 0).length,
    labeled: l.filter((v) => v > 0).length,
  };
}

function dense(c: ImageCounts): { inter: number[]; union: number[] } {
  const inter = new Array<number>(150).fill(0);
  const union = new Array<number>(150).fill(0);
  c.classes.forEach((cls, k) => {
    inter[cls - 1] = c.intersection[k];
    union[cls - 1] = c.union[k];
  });
  return { inter, union };
}

describe('countImage', () => {
  it('counts a hand-made image (0 = unlabeled, masked; values above 150 are class 150)', () => {
    // gt:   0  1  1  2  150 150 151
    // pred: 5  1  0  1  150 200 151
    const c = countImage([0, 1, 1, 2, 150, 150, 151], [5, 1, 0, 1, 150, 200, 151]);
    expect(c.pixelLabeled).toBe(6);
    expect(c.pixelCorrect).toBe(3); // 1, 150, 151
    expect(c.classes).toEqual([1, 2, 150]);
    expect(c.intersection).toEqual([1, 0, 2]);
    // class 1: pred {1, 1} + lab {1, 1} - inter 1 = 3; class 2: 0 + 1 = 1; class 150: pred 3 + lab 3 - 2 = 4
    expect(c.union).toEqual([3, 1, 4]);
    // the predicted 5 at an unlabeled pixel is masked: class 5 has no union
    expect(c.cells.reduce((s, k, i) => s + (k === 0 ? c.cellCounts[i] : 0), 0)).toBe(1);
  });

  it('scores a missing prediction as all 0: wrong, in each ground-truth class union only', () => {
    const c = countImage([0, 3, 3, 7], null);
    expect(c).toMatchObject({ pixelCorrect: 0, pixelLabeled: 3, classes: [3, 7], intersection: [0, 0], union: [2, 1] });
  });

  it('equals the official steps on random images (values 0..400, 16-bit)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60 }).chain((n) =>
          fc.tuple(fc.array(fc.oneof(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 145, max: 400 })), { minLength: n, maxLength: n }), fc.array(fc.oneof(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 145, max: 400 })), { minLength: n, maxLength: n })),
        ),
        ([l, p]) => {
          const got = countImage(Uint16Array.from(l), Uint16Array.from(p));
          const want = officialSteps(l, p);
          expect(dense(got)).toEqual({ inter: want.inter, union: want.union });
          expect(got.pixelCorrect).toBe(want.correct);
          expect(got.pixelLabeled).toBe(want.labeled);
          // the confusion matrix holds every pixel, rows = ground-truth bins
          const total = got.cellCounts.reduce((s, v) => s + v, 0);
          expect(total).toBe(l.length);
          expect(got.cells.every((k) => k >= 0 && k < BINS * BINS)).toBe(true);
        },
      ),
      { numRuns: 100 },
    );
  });
});
