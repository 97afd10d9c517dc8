import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { pixelsInMatlabOrder, resolveCorrespondOptions } from './index.js';
import { CorrespondTarget } from './target.js';

describe('CorrespondTarget.count (relaxation + warm-started official assignment)', () => {
  /** Thresholded pixels of a soft map as `evaluateBoundary` passes them: near pixels, MATLAB order. */
  function pixelsOf(target: CorrespondTarget, map: Uint8Array, h: number, w: number): Int32Array {
    const all = pixelsInMatlabOrder(map, h, w);
    return all.filter((p) => target.near[p] === 1);
  }

  it('keys the kept outlier graphs by n2 as well as n1 (same number of pixels, other matchable GT)', () => {
    const h = 40;
    const w = 60;
    const gt = new Uint8Array(h * w);
    for (let x = 5; x < 55; x++) {
      gt[8 * w + x] = 1;
      gt[30 * w + x] = 1;
    }
    const mapOf = (pts: [number, number][]): Uint8Array => {
      const m = new Uint8Array(h * w);
      for (const [y, x] of pts) m[y * w + x] = 1;
      return m;
    };
    // both maps have 6 matchable pixels; the first is near a short piece of one line, the second near both lines
    const a = mapOf([[8, 10], [8, 11], [8, 12], [9, 13], [9, 14], [8, 15]]);
    const b = mapOf([[8, 10], [8, 30], [8, 50], [30, 10], [30, 30], [30, 50]]);
    const target = new CorrespondTarget(gt, h, w, resolveCorrespondOptions({ maxDist: 0.03 }));
    for (const map of [a, b, a, b]) {
      const px = pixelsOf(target, map, h, w);
      expect(px.length).toBe(6);
      const fresh = new CorrespondTarget(gt, h, w, resolveCorrespondOptions({ maxDist: 0.03 }));
      expect(target.count(px, px.length)).toBe(fresh.match(px, px.length).matched);
    }
  });

  it('reuses the drawn outlier graph of a repeated (n1, n2) exactly (fresh targets as the reference)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 20 * 24, maxLength: 20 * 24 }),
        fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 20 * 24, maxLength: 20 * 24 }),
        fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 4, maxLength: 30 }),
        (gtVals, predVals, cuts) => {
          const h = 20;
          const w = 24;
          const gt = Uint8Array.from(gtVals, (v) => (v < 40 ? 1 : 0));
          const target = new CorrespondTarget(gt, h, w, resolveCorrespondOptions({ maxDist: 0.08 }));
          // few distinct cut-offs in random order: the same maps (and so the same n1, n2) come back
          for (const k of cuts) {
            const map = Uint8Array.from(predVals, (v) => (v >= 25 * k ? 1 : 0));
            const px = pixelsOf(target, map, h, w);
            const fresh = new CorrespondTarget(gt, h, w, resolveCorrespondOptions({ maxDist: 0.08 }));
            expect(target.count(px, px.length)).toBe(fresh.match(px, px.length).matched);
          }
        },
      ),
      { numRuns: 100 },
    );
  });

  it('equals the full solver count on random maps and decreasing thresholds (warm starts across calls)', () => {
    let repaired = 0;
    let shortcuts = 0;
    let calls = 0;
    fc.assert(
      fc.property(
        fc.integer({ min: 6, max: 26 }),
        fc.integer({ min: 6, max: 26 }),
        fc.constantFrom(0.0075, 0.03, 0.08, 0.15),
        fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 26 * 26, maxLength: 26 * 26 }),
        fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 26 * 26, maxLength: 26 * 26 }),
        fc.integer({ min: 1, max: 60 }),
        (h, w, maxDist, gtVals, predVals, density) => {
          const gt = Uint8Array.from(gtVals.slice(0, h * w), (v) => (v < density * 2 ? 1 : 0));
          const pred = Uint8Array.from(predVals.slice(0, h * w));
          const target = new CorrespondTarget(gt, h, w, resolveCorrespondOptions({ maxDist }));
          const reference = new CorrespondTarget(gt, h, w, resolveCorrespondOptions({ maxDist }));
          for (let cut = 250; cut >= 0; cut -= 25) {
            const map = Uint8Array.from(pred, (v) => (v >= cut ? 1 : 0));
            const px = pixelsOf(target, map, h, w);
            expect(target.count(px, px.length)).toBe(reference.match(px, px.length).matched);
            calls++;
          }
          repaired += target.stats().repaired;
          shortcuts += target.stats().shortcuts;
          expect(target.stats().fallbacks).toBe(0);
        },
      ),
      { numRuns: 150 },
    );
    // the repair path (the random outlier graph lowers the relaxed count) must have been exercised
    expect(repaired).toBeGreaterThan(0);
    // and so must the shortcut (relaxed pairs completed by the outlier edges alone) and the full completion
    expect(shortcuts).toBeGreaterThan(0);
    expect(shortcuts).toBeLessThan(calls);
    expect(calls).toBeGreaterThan(1000);
  });

  it('equals the full solver count on single cold calls, with and without the outlier-only completion', () => {
    let shortcuts = 0;
    let completed = 0;
    fc.assert(
      fc.property(
        fc.integer({ min: 4, max: 20 }),
        fc.integer({ min: 4, max: 20 }),
        fc.constantFrom(0.03, 0.08, 0.15, 0.3),
        fc.array(fc.integer({ min: 0, max: 99 }), { minLength: 400, maxLength: 400 }),
        fc.array(fc.integer({ min: 0, max: 99 }), { minLength: 400, maxLength: 400 }),
        fc.integer({ min: 2, max: 60 }),
        fc.integer({ min: 2, max: 60 }),
        fc.integer({ min: 0, max: 2 ** 40 }),
        (h, w, maxDist, gtVals, predVals, gtDensity, predDensity, seed) => {
          const gt = Uint8Array.from(gtVals.slice(0, h * w), (v) => (v < gtDensity ? 1 : 0));
          const map = Uint8Array.from(predVals.slice(0, h * w), (v) => (v < predDensity ? 1 : 0));
          const target = new CorrespondTarget(gt, h, w, resolveCorrespondOptions({ maxDist, seed }));
          const reference = new CorrespondTarget(gt, h, w, resolveCorrespondOptions({ maxDist, seed }));
          const px = pixelsOf(target, map, h, w);
          expect(target.count(px, px.length)).toBe(reference.match(px, px.length).matched);
          expect(target.stats().fallbacks).toBe(0);
          shortcuts += target.stats().shortcuts;
          if (px.length > 0 && target.stats().shortcuts === 0) completed++;
        },
      ),
      { numRuns: 400 },
    );
    expect(shortcuts).toBeGreaterThan(0);
    expect(completed).toBeGreaterThan(0);
  });

  it('equals the full solver count on shifted and broken contours (long alternating paths)', () => {
    const h = 40;
    const w = 120;
    const gt = new Uint8Array(h * w);
    for (let x = 2; x < 118; x++) gt[20 * w + x] = 1;
    for (let y = 2; y < 38; y++) gt[y * w + 60] = 1;
    const target = new CorrespondTarget(gt, h, w, resolveCorrespondOptions({ maxDist: 0.02 }));
    const reference = new CorrespondTarget(gt, h, w, resolveCorrespondOptions({ maxDist: 0.02 }));
    for (let shift = 0; shift <= 3; shift++) {
      for (let gap = 0; gap < 4; gap++) {
        const map = new Uint8Array(h * w);
        for (let x = 1; x < 119; x++) if (x % 17 !== gap) map[(20 + (x % 5 === 0 ? shift : 1)) * w + x] = 1;
        for (let y = 1; y < 39; y++) map[y * w + 60 + (shift % 2)] = 1;
        const px = pixelsOf(target, map, h, w);
        expect(target.count(px, px.length)).toBe(reference.match(px, px.length).matched);
      }
    }
  });
});
