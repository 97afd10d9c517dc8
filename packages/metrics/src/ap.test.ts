import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DevkitError } from '@cvdevkit/core';
import { apVoc2007, apVoc2010, averagePrecision11, averagePrecisionArea, averagePrecisionByName } from './ap.js';
import { precisionRecall } from './curve.js';

describe('averagePrecisionArea (VOCap)', () => {
  it('computes the area under the precision envelope by hand', () => {
    // ranked: TP FP TP, npos = 2 → rec [0.5 0.5 1], prec [1 0.5 2/3]
    const { recall, precision } = precisionRecall([1, 0, 1], [0, 1, 0], 2);
    expect(Array.from(recall)).toEqual([0.5, 0.5, 1]);
    expect(averagePrecisionArea(recall, precision)).toBe(0.5 * 1 + 0.5 * (2 / 3));
  });

  it('is 0 for empty input (no detections), even with no positives', () => {
    expect(averagePrecisionArea([], [])).toBe(0);
  });

  it('is NaN when recall is NaN (predictions but no positives)', () => {
    const { recall, precision } = precisionRecall([0, 0], [1, 1], 0);
    expect(averagePrecisionArea(recall, precision)).toBeNaN();
  });

  it('ignores NaN precisions in the envelope (ignored rows first)', () => {
    // first row ignored (difficult): tp=fp=0 → prec NaN; then a TP
    const { recall, precision } = precisionRecall([0, 1], [0, 0], 1);
    expect(precision[0]).toBeNaN();
    expect(averagePrecisionArea(recall, precision)).toBe(1);
  });

  it('equals a line-by-line transcription of VOCap.m on any curve (NaN, ±Infinity, repeats; bit for bit)', () => {
    const vocap = (rec: number[], prec: number[]): number => {
      const mrec = [0, ...rec, 1];
      const mpre = [0, ...prec, 0];
      for (let i = mpre.length - 2; i >= 0; i--) {
        const a = mpre[i];
        const b = mpre[i + 1];
        mpre[i] = Number.isNaN(a) ? b : Number.isNaN(b) ? a : a > b ? a : b; // nanMax
      }
      let ap = 0;
      for (let i = 1; i < mrec.length; i++) if (mrec[i] !== mrec[i - 1]) ap += (mrec[i] - mrec[i - 1]) * mpre[i];
      return ap;
    };
    const v = fc.oneof(fc.double(), fc.constantFrom(0, -0, 0.5, 1, NaN, Infinity, -Infinity));
    fc.assert(
      fc.property(fc.array(fc.tuple(v, v), { maxLength: 30 }), (pts) => {
        const rec = pts.map((p) => p[0]);
        const prec = pts.map((p) => p[1]);
        expect(Object.is(averagePrecisionArea(rec, prec), vocap(rec, prec))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('is 1 for a perfect ranking and below 1 when recall stops short', () => {
    expect(averagePrecisionArea([0.5, 1], [1, 1])).toBe(1);
    expect(averagePrecisionArea([0.25, 0.5], [1, 1])).toBe(0.5);
  });
});

describe('averagePrecision11 (VOC2007)', () => {
  const seq = (ps: number[]) => ps.reduce((ap, p) => ap + p / 11, 0);

  it('averages the max precision at 11 recall levels', () => {
    // levels 0..0.5 see both points (max 1); 0.6..1 only the second (0.5)
    expect(averagePrecision11([0.5, 1], [1, 0.5])).toBe(seq([1, 1, 1, 1, 1, 1, 0.5, 0.5, 0.5, 0.5, 0.5]));
  });

  it('uses the colon-range value 0.30000000000000004 as a threshold (exact comparison)', () => {
    // recall 0.3 < 0.30000000000000004, so the t=0.3 level sees no point
    expect(averagePrecision11([0.3], [1])).toBe(seq([1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0]));
  });

  it('is 0 for empty input', () => {
    expect(averagePrecision11([], [])).toBe(0);
  });
});

describe('metric plugins', () => {
  it('are named and selectable', () => {
    expect(apVoc2010.compute({ recall: [1], precision: [1] })).toBe(1);
    expect(apVoc2007.name).toBe('ap-voc2007');
    expect(averagePrecisionByName('ap-voc2010')).toBe(averagePrecisionArea);
    expect(() => averagePrecisionByName('nope')).toThrow(DevkitError);
  });
});

const outcomes = fc.array(fc.constantFrom<[number, number]>([1, 0], [0, 1], [0, 0]), { minLength: 1, maxLength: 60 });

describe('AP properties', () => {
  it('lies in [0, 1] for any ranking with positives', () => {
    fc.assert(
      fc.property(outcomes, fc.nat(20), (rows, extra) => {
        const tp = rows.map((r) => r[0]);
        const fp = rows.map((r) => r[1]);
        const npos = tp.reduce((a, b) => a + b, 0) + extra;
        // an all-ignored ranking has only NaN precisions: 11-point AP is NaN then, as max([NaN]) is
        fc.pre(npos > 0 && rows.some((r) => r[0] + r[1] > 0));
        const { recall, precision } = precisionRecall(tp, fp, npos);
        for (const ap of [averagePrecisionArea(recall, precision), averagePrecision11(recall, precision)]) {
          expect(ap).toBeGreaterThanOrEqual(0);
          expect(ap).toBeLessThanOrEqual(1 + 1e-12);
        }
      }),
    );
  });

  it('never decreases when every TP is ranked first', () => {
    fc.assert(
      fc.property(outcomes, (rows) => {
        const tp = rows.map((r) => r[0]);
        const fp = rows.map((r) => r[1]);
        const npos = Math.max(1, tp.reduce((a, b) => a + b, 0));
        const a = precisionRecall(tp, fp, npos);
        const sorted = [...rows].sort((x, y) => y[0] - x[0] || x[1] - y[1]);
        const b = precisionRecall(sorted.map((r) => r[0]), sorted.map((r) => r[1]), npos);
        // putting every TP first can only raise the AP
        expect(averagePrecisionArea(b.recall, b.precision)).toBeGreaterThanOrEqual(averagePrecisionArea(a.recall, a.precision) - 1e-12);
      }),
    );
  });

  it('11-point AP and area AP differ by at most about one recall step of 0.1', () => {
    fc.assert(
      fc.property(outcomes, (rows) => {
        const tp = rows.map((r) => r[0]);
        const fp = rows.map((r) => r[1]);
        const npos = tp.reduce((a, b) => a + b, 0);
        fc.pre(npos > 0);
        const { recall, precision } = precisionRecall(tp, fp, npos);
        const area = averagePrecisionArea(recall, precision);
        const eleven = averagePrecision11(recall, precision);
        // both integrate the same non-increasing envelope; sampling at 11 points errs by < 1/11 + 0.1
        expect(Math.abs(area - eleven)).toBeLessThanOrEqual(1 / 11 + 0.1 + 1e-12);
      }),
    );
  });
});
