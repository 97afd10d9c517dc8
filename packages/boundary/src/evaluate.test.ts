import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { correspondPixels } from './correspond/index.js';
import { evaluateBoundary, isAllZero } from './evaluate.js';
import { thin } from './thin.js';
import { boundaryThresholds, thresholdCutoffs } from './thresholds.js';

describe('isAllZero', () => {
  it('is true exactly when every byte is 0, at any offset and length in the buffer', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 5000 }), fc.option(fc.nat()), (offset, length, hot) => {
        const buf = new Uint8Array(offset + length + 7);
        buf.fill(1, 0, offset); // bytes before the view are not part of it
        buf.fill(1, offset + length);
        const a = buf.subarray(offset, offset + length);
        if (hot !== null && length > 0) a[hot % length] = 1 + (hot % 255);
        expect(isAllZero(a)).toBe(a.every((v) => v === 0));
      }),
      { numRuns: 300 },
    );
  });
});

describe('evaluateBoundary (the per-threshold loop, against evaluate_bdry.m step by step)', () => {
  /** evaluate_bdry.m written out: crop, threshold, thin and a cold correspondPixels call at every threshold. */
  function reference(pred: Uint8Array, gt: Uint8Array | null, h: number, w: number, nthresh: number): number[][] {
    const m = 3;
    const H = h - 2 * m;
    const W = w - 2 * m;
    const crop = (a: Uint8Array): Uint8Array => {
      const out = new Uint8Array(H * W);
      for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) out[y * W + x] = a[(y + m) * w + x + m];
      return out;
    };
    const p = crop(pred);
    const g = gt === null ? null : crop(gt).map((v) => (v !== 0 ? 1 : 0));
    const sumR = g === null ? 0 : g.reduce((s, v) => s + v, 0);
    const cut = thresholdCutoffs(boundaryThresholds(nthresh));
    const rows: number[][] = [];
    for (let t = 0; t < nthresh; t++) {
      const thinned = thin(p.map((v) => (v >= cut[t] ? 1 : 0)), H, W);
      const sumP = thinned.reduce((s, v) => s + v, 0);
      if (g === null || sumR === 0) {
        rows.push([0, sumR, 0, sumP]);
        continue;
      }
      const { match1, match2 } = correspondPixels(thinned, g, H, W);
      rows.push([match2.filter((v) => v > 0).length, sumR, match1.filter((v) => v > 0).length, sumP]);
    }
    return rows;
  }

  it('gives the counts of a cold correspondPixels call on every thinned map (random soft maps, 12 thresholds)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 8, max: 24 }), fc.integer({ min: 8, max: 24 }), fc.integer(), fc.boolean(), (h, w, seed, withGt) => {
        let s = seed >>> 0;
        const rand = (): number => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
        // a soft blob around a random line plus noise, and a GT line near it
        const pred = new Uint8Array(h * w);
        const gt = new Uint8Array(h * w);
        const a = rand() * Math.PI;
        const cx = w * rand();
        const cy = h * rand();
        for (let y = 0; y < h; y++) {
          for (let x = 0; x < w; x++) {
            const d = Math.abs((x - cx) * Math.sin(a) - (y - cy) * Math.cos(a));
            pred[y * w + x] = Math.max(0, Math.min(255, Math.round(255 * Math.exp(-d / 2) + 60 * (rand() - 0.5))));
            if (Math.abs(d - 1) < 0.5) gt[y * w + x] = 1;
          }
        }
        const nthresh = 12;
        const counts = evaluateBoundary(pred, withGt ? gt : null, h, w, { nthresh });
        const want = reference(pred, withGt ? gt : null, h, w, nthresh);
        for (let t = 0; t < nthresh; t++) {
          expect([counts.cntR[t], counts.sumR[t], counts.cntP[t], counts.sumP[t]]).toEqual(want[t]);
        }
      }),
      { numRuns: 40 },
    );
  });
});
