import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { boxIoU, matchDetections } from './boxes.js';

describe('boxIoU (+1 pixel convention)', () => {
  it('gives 1 for identical boxes, including a 1x1 box', () => {
    expect(boxIoU([1, 1, 10, 10], 0, [1, 1, 10, 10], 0)).toBe(1);
    expect(boxIoU([5, 5, 5, 5], 0, [5, 5, 5, 5], 0)).toBe(1);
  });

  it('counts touching boxes as overlapping (iw = 1)', () => {
    // [1..10] and [10..19]: iw = 1, ih = 10 → 10 / (100 + 100 - 10)
    expect(boxIoU([1, 1, 10, 10], 0, [10, 1, 19, 10], 0)).toBe(10 / 190);
  });

  it('is -Infinity without intersection and for inverted boxes', () => {
    expect(boxIoU([1, 1, 5, 5], 0, [7, 7, 9, 9], 0)).toBe(-Infinity);
    expect(boxIoU([10, 1, 1, 10], 0, [1, 1, 10, 10], 0)).toBe(-Infinity);
  });

  it('is symmetric and in (0, 1] for overlapping valid boxes', () => {
    const box = fc.tuple(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 50 }), fc.nat(30), fc.nat(30)).map(([x, y, w, h]) => [x, y, x + w, y + h]);
    fc.assert(
      fc.property(box, box, (a, b) => {
        const ab = boxIoU(a, 0, b, 0);
        const ba = boxIoU(b, 0, a, 0);
        if (ab === -Infinity) expect(ba).toBe(-Infinity);
        else {
          expect(ab).toBeCloseTo(ba, 14);
          expect(ab).toBeGreaterThan(0);
          expect(ab).toBeLessThanOrEqual(1);
        }
      }),
    );
  });
});

describe('matchDetections', () => {
  const gt = { boxes: [0, 0, 9, 9, 0, 0, 9, 8] }; // two heavily overlapping objects
  const dets = [0, 0, 9, 9, 0, 0, 9, 9];

  it("VOC: a second detection on a taken best object is FP (no fallback)", () => {
    const tp = new Uint8Array(2);
    const fp = new Uint8Array(2);
    matchDetections(dets, [0, 1], gt, tp, fp, { rule: 'voc' });
    expect(Array.from(tp)).toEqual([1, 0]);
    expect(Array.from(fp)).toEqual([0, 1]);
  });

  it('ILSVRC: taken objects are skipped, so the second detection matches the other object', () => {
    const tp = new Uint8Array(2);
    const fp = new Uint8Array(2);
    matchDetections(dets, [0, 1], gt, tp, fp, { rule: 'ilsvrc' });
    expect(Array.from(tp)).toEqual([1, 1]);
    expect(Array.from(fp)).toEqual([0, 0]);
  });

  it('VOC: a best match on a difficult object is ignored (neither TP nor FP)', () => {
    const tp = new Uint8Array(1);
    const fp = new Uint8Array(1);
    matchDetections([0, 0, 9, 9], [0], { boxes: [0, 0, 9, 9], difficult: [1] }, tp, fp, { rule: 'voc' });
    expect([tp[0], fp[0]]).toEqual([0, 0]);
  });

  it('IoU exactly at the threshold is a hit; per-object thresholds apply (ILSVRC)', () => {
    // 10x10 box vs 10x5 box inside it: IoU = 50/100 = 0.5
    const tp = new Uint8Array(1);
    const fp = new Uint8Array(1);
    matchDetections([0, 0, 9, 9], [0], { boxes: [0, 0, 9, 4] }, tp, fp, { rule: 'voc' });
    expect(tp[0]).toBe(1);
    matchDetections([0, 0, 9, 9], [0], { boxes: [0, 0, 9, 4], minOverlap: [0.6] }, tp, fp, { rule: 'ilsvrc' });
    expect([tp[0], fp[0]]).toEqual([0, 1]);
  });

  it('skip marks a detection as neither TP nor FP', () => {
    const tp = new Uint8Array(1);
    const fp = new Uint8Array(1);
    matchDetections([0, 0, 9, 9], [0], { boxes: [0, 0, 9, 9] }, tp, fp, { rule: 'ilsvrc', skip: [1] });
    expect([tp[0], fp[0]]).toEqual([0, 0]);
  });
});
