import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MatchView } from '@cvdevkit/core';
import { cocoMatcher } from './analyze-matcher.js';
import { cocoMeanOfSamples, cocoPrecisionSamples } from './analyze-ap.js';
import { linspace } from './params.js';

/** One image, one detection of class 0; objects given as [class, IoU with the detection, ignored]. */
function view(objs: [number, number, number][]): MatchView {
  const n = objs.length;
  return {
    objStart: Uint32Array.of(0, n),
    objList: Uint32Array.from(objs.keys()),
    iouOff: Uint32Array.of(0, n),
    iou: Float64Array.from(objs.map((o) => o[1])),
    bestSame: Int32Array.of(-1),
    bestSameIoU: Float64Array.of(-Infinity),
    objThr: new Float64Array(n).fill(0.5),
    detClass: Int32Array.of(0),
    objClass: Int32Array.from(objs.map((o) => o[0])),
    objIgnored: Uint8Array.from(objs.map((o) => o[2])),
  };
}
const free = (n: number) => new Int32Array(n).fill(-1);

describe("cocoMatcher (pycocotools' evaluateImg matching)", () => {
  it('an IoU of exactly the threshold matches; the last of equal IoUs wins; other classes never match', () => {
    expect(cocoMatcher.match(view([[0, 0.5, 0]]), 0, 0, 0.5, free(1))).toBe(0);
    expect(cocoMatcher.match(view([[0, 0.6, 0], [1, 0.9, 0], [0, 0.6, 0]]), 0, 0, 0.5, free(3))).toBe(2);
    expect(cocoMatcher.match(view([[1, 0.9, 0]]), 0, 0, 0.5, free(1))).toBe(-1);
  });

  it('prefers a regular object to a better ignored one, and falls back to an ignored one', () => {
    expect(cocoMatcher.match(view([[0, 0.95, 1], [0, 0.55, 0]]), 0, 0, 0.5, free(2))).toBe(1);
    expect(cocoMatcher.match(view([[0, 0.95, 1], [0, 0.3, 0]]), 0, 0, 0.5, free(2))).toBe(0);
  });

  it("a NaN IoU matches (pycocotools' `<` lets it through), also after a pass that skipped the detection", () => {
    const v = view([[0, NaN, 0]]);
    expect(cocoMatcher.match(v, 0, 0, 0.5, free(1))).toBe(0);
    const low = view([[0, 0.3, 0]]);
    expect(cocoMatcher.match(low, 0, 0, 0.5, free(1))).toBe(-1);
    expect(cocoMatcher.match(low, 0, 0, 0.25, free(1))).toBe(0);
    // a threshold of 0 lets an object of IoU 0 match (left out of the overlapping objects kept for thresholds > 0)
    const none = view([[0, 0, 0], [1, 0.7, 0]]);
    expect(cocoMatcher.match(none, 0, 0, 0.5, free(2))).toBe(-1);
    expect(cocoMatcher.match(none, 0, 0, 0, free(2))).toBe(0);
  });

  it('skips taken objects; an IoU of 1 needs 1 − 1e-10 at threshold 1', () => {
    const taken = free(2);
    taken[1] = 7;
    expect(cocoMatcher.match(view([[0, 0.6, 0], [0, 0.9, 0]]), 0, 0, 0.5, taken)).toBe(0);
    expect(cocoMatcher.match(view([[0, 1, 0]]), 0, 0, 1, free(1))).toBe(0);
  });
});

describe("COCO's sampled AP", () => {
  const rec = linspace(0, 1, 101);
  it('a first true positive has precision 1 − 2^-52 (the epsilon in the denominator)', () => {
    const s = cocoPrecisionSamples([1], [0], 1, rec)!;
    expect(s[0]).toBe(1 - 2 ** -52);
    expect(s[100]).toBe(1 - 2 ** -52);
  });
  it('a category without positives is left out of the mean; no rows gives zeros', () => {
    expect(cocoPrecisionSamples([0], [1], 0, rec)).toBeUndefined();
    expect(Array.from(cocoPrecisionSamples([], [], 3, rec)!).every((v) => v === 0)).toBe(true);
    expect(cocoMeanOfSamples([[undefined]])).toBeNaN();
  });
  it('ignored rows (neither flag) change no sample: the same samples as the full-row reference (fuzzed)', () => {
    // reference: every row kept, as accumulate computes it
    const full = (tp: number[], fp: number[], npos: number): Float64Array => {
      const n = tp.length;
      const rc = new Float64Array(n);
      const pr = new Float64Array(n);
      let t = 0;
      let f = 0;
      for (let i = 0; i < n; i++) {
        t += tp[i];
        f += fp[i];
        rc[i] = t / npos;
        pr[i] = t / (f + t + 2 ** -52);
      }
      for (let i = n - 1; i > 0; i--) if (pr[i] > pr[i - 1]) pr[i - 1] = pr[i];
      const q = new Float64Array(rec.length);
      let i = 0;
      for (let r = 0; r < rec.length; r++) {
        while (i < n && rc[i] < rec[r]) i++;
        if (i >= n) break;
        q[r] = pr[i];
      }
      return q;
    };
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 2 }), { maxLength: 60 }), fc.integer({ min: 1, max: 40 }), (kinds, npos) => {
        const tp = kinds.map((k) => (k === 1 ? 1 : 0));
        const fp = kinds.map((k) => (k === 2 ? 1 : 0));
        const got = cocoPrecisionSamples(tp, fp, npos, rec)!;
        const want = full(tp, fp, npos);
        return got.every((v, r) => Object.is(v, want[r]));
      }),
      { numRuns: 300 },
    );
  });
});
