import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ImageCounts } from './image-counts.js';
import { computeTotals } from './totals.js';

const EPS = 2 ** -52;

function image(pairs: [cls: number, inter: number, union: number][], correct = 0, labeled = 0): ImageCounts {
  return { pixelCorrect: correct, pixelLabeled: labeled, classes: pairs.map((p) => p[0]), intersection: pairs.map((p) => p[1]), union: pairs.map((p) => p[2]), cells: [], cellCounts: [] };
}

/** Random images: a few classes each, small unions (where eps matters) and large ones. */
const images = fc.array(
  fc
    .uniqueArray(fc.integer({ min: 1, max: 150 }), { maxLength: 6 })
    .chain((classes) =>
      fc.tuple(
        fc.constant(classes.sort((a, b) => a - b)),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.oneof(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 100000 }))), { minLength: classes.length, maxLength: classes.length }),
        fc.integer({ min: 0, max: 1000 }),
        fc.integer({ min: 0, max: 1000 }),
      ),
    )
    .map(([classes, iu, a, b]) => image(classes.map((c, k) => [c, Math.min(iu[k][0], iu[k][1]), iu[k][1]]), Math.min(a, b), Math.max(a, b))),
  { minLength: 1, maxLength: 12 },
);

describe('computeTotals', () => {
  it('adds eps to every image union before the sum over images (fixture edge: class 9 = 1 / (1 + 8 eps))', () => {
    const list = [image([]), image([]), image([]), image([[9, 1, 1]], 1, 1), image([]), image([]), image([]), image([])];
    const t = computeTotals(list);
    expect(t.unionEpsSum[8]).toBe(1 + 8 * EPS);
    expect(t.iou[8]).toBe(0.9999999999999982);
    // a class absent everywhere: 0 / (n eps) = 0, and it is averaged
    expect(t.iou[0]).toBe(0);
    expect(t.mIoU).toBe(t.iou[8] / 150);
  });

  it('sums the denominator in file order: (2 + eps) + eps is not (eps + eps) + 2', () => {
    const a = computeTotals([image([[1, 2, 2]]), image([]), image([])]);
    const b = computeTotals([image([]), image([]), image([[1, 2, 2]])]);
    expect(a.unionEpsSum[0]).toBe(2); // 2 + eps rounds to 2 (ties to even), twice
    expect(b.unionEpsSum[0]).toBe(2 + 2 ** -51);
    expect(a.iou[0]).not.toBe(b.iou[0]);
  });

  it('pixel accuracy is NaN without a labeled pixel (0/0), and so is the score', () => {
    const t = computeTotals([image([], 0, 0)]);
    expect(t.pixelAccuracy).toBeNaN();
    expect(t.mIoU).toBe(0);
    expect(t.score).toBeNaN();
  });

  it('image order changes nothing but the last bits of the eps sum (counts, accuracy exact; IoU within n·eps relative)', () => {
    fc.assert(
      fc.property(images, fc.integer(), (list, seed) => {
        const shuffled = [...list];
        let s = seed >>> 0;
        for (let i = shuffled.length - 1; i > 0; i--) {
          s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
          const j = s % (i + 1);
          [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
        }
        const a = computeTotals(list);
        const b = computeTotals(shuffled);
        expect(b.intersection).toEqual(a.intersection);
        expect(b.union).toEqual(a.union);
        expect(b.pixelCorrect).toBe(a.pixelCorrect);
        expect(b.pixelLabeled).toBe(a.pixelLabeled);
        expect(Object.is(b.pixelAccuracy, a.pixelAccuracy)).toBe(true);
        const off: number[] = [];
        for (let c = 0; c < 150; c++) {
          if (!(Math.abs(b.iou[c] - a.iou[c]) <= list.length * 4 * EPS * a.iou[c])) off.push(c + 1);
          // and IoU is exactly ΣI over the ordered denominator
          if (!Object.is(a.iou[c], a.intersection[c] / a.unionEpsSum[c])) off.push(-(c + 1));
        }
        expect(off).toEqual([]);
      }),
      { numRuns: 50 },
    );
  });

  it('two images whose unions are ≥ 2: eps is lost at every step, so their order does not matter', () => {
    // a single image: nothing to reorder; two images with unions ≥ 2 in both: eps is lost at every step
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 1e6 }), fc.integer({ min: 2, max: 1e6 }), (u, v) => {
        const x = computeTotals([image([[1, 1, u]]), image([[1, 1, v]])]);
        const y = computeTotals([image([[1, 1, v]]), image([[1, 1, u]])]);
        expect(Object.is(x.iou[0], y.iou[0])).toBe(true);
      }),
      { numRuns: 30 },
    );
  });
});
