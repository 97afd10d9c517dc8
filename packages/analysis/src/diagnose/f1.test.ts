import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ONE_OF_EACH, handInput } from '../../test/hand-built.js';
import { analysisReport } from './analysis-report.js';
import { diagnose } from './diagnose.js';
import { f1Analysis, f1Curve, thresholdGrid } from './f1.js';
import { prepare } from './prepare.js';

describe('F1 against the score threshold on hand-built images', () => {
  // ONE_OF_EACH under VOC's official matching at 0.5: cat 0.9 TP, cat 0.8 FP (on the dog), car 0.7 FP
  // (background), dog 0.1 TP, cat 0.6 ignored (difficult cat); positives cat 1, dog 2, car 1.
  const r = f1Analysis(prepare(ONE_OF_EACH));

  it('the best F1 per class, by hand', () => {
    const [cat, dog, car] = r.perClass;
    // cat: at 0.9 TP 1, FP 0: P 1, R 1, F1 2·1/(1+0+1) = 1; at 0.8 F1 2/3
    expect(cat).toMatchObject({ npos: 1, ndet: 2, best: { threshold: 0.9, f1: 1, precision: 1, recall: 1, tp: 1, fp: 0 } });
    // dog: at 0.1 TP 1 of 2 positives: P 1, R 0.5, F1 2/(1+0+2)
    expect(dog).toMatchObject({ npos: 2, ndet: 1, best: { threshold: 0.1, f1: 2 / 3, precision: 1, recall: 0.5, tp: 1, fp: 0 } });
    // car: no true positive at any threshold: F1 0, no threshold
    expect(car.best).toEqual({ threshold: NaN, f1: 0, precision: NaN, recall: 0, tp: 0, fp: 0 });
  });

  it('overall is micro: 0.9 TP, 0.8 FP, 0.7 FP, 0.1 TP against 4 positives', () => {
    // F1 at 0.9: 2/5; 0.8: 2/6; 0.7: 2/7; 0.1: 4/8 (best)
    expect(r.overall).toMatchObject({ npos: 4, ndet: 4, best: { threshold: 0.1, f1: 0.5, precision: 0.5, recall: 0.5, tp: 2, fp: 2 } });
  });

  it('the curves on the grid k/100 (scores in [0, 1])', () => {
    expect(r.thresholds).toHaveLength(101);
    expect(r.thresholds[50]).toBe(0.5);
    const at = (t: number) => r.thresholds.indexOf(t);
    // at 0.5: 0.9 TP, 0.8 FP, 0.7 FP
    expect([r.overall.precision[at(0.5)], r.overall.recall[at(0.5)], r.overall.f1[at(0.5)]]).toEqual([1 / 3, 1 / 4, 2 / 7]);
    expect([r.overall.precision[at(0.95)], r.overall.recall[at(0.95)], r.overall.f1[at(0.95)]]).toEqual([NaN, 0, 0]);
    expect([r.overall.f1[at(0)], r.overall.f1[at(0.1)], r.overall.f1[at(0.11)]]).toEqual([0.5, 0.5, 2 / 7]);
    expect(r.perClass[0].f1.slice(at(0.8) + 1, at(0.9) + 1).every((v) => v === 1)).toBe(true);
    expect(r.perClass[0].f1[at(0.8)]).toBe(2 / 3);
  });

  it('a class without positives has no F1 (recall undefined), but its detections count in the overall one', () => {
    const input = handInput(
      [
        [0, 0, 0.9, [1, 1, 100, 100]],
        [0, 1, 0.8, [1, 1, 100, 100]],
      ],
      [[0, 0, [1, 1, 100, 100]]],
    );
    const res = f1Analysis(prepare(input));
    expect(res.perClass[1].best).toEqual({ threshold: NaN, f1: NaN, precision: NaN, recall: NaN, tp: 0, fp: 0 });
    expect(res.perClass[1].f1.every(Number.isNaN)).toBe(true);
    expect(res.overall.best).toMatchObject({ threshold: 0.9, f1: 1 });
    expect(res.overall.f1[0]).toBe(2 / 3);
  });

  it('scores outside [0, 1]: 101 steps from the lowest to the highest score; ties are one threshold', () => {
    expect(thresholdGrid(-1, 3)).toEqual(Array.from({ length: 101 }, (_, k) => -1 + (4 * k) / 100));
    expect(thresholdGrid(2, 2)).toEqual([2]);
    expect(thresholdGrid(Infinity, -Infinity)).toEqual([]);
    // two tied detections (TP, FP) then a TP: the tie is taken whole
    const c = f1Curve('x', Float64Array.of(2, 2, 1), Uint8Array.of(1, 0, 1), 2, [1, 2]);
    expect(c.best).toEqual({ threshold: 1, f1: 0.8, precision: 2 / 3, recall: 1, tp: 2, fp: 1 });
    expect(c.f1).toEqual([0.8, 0.5]);
  });

  it('at the lowest threshold the counts are the official ones; the report has the columns and summary', () => {
    const res = diagnose(ONE_OF_EACH, { only: ['f1'] });
    res.official.perClass.forEach((o, c) => expect([res.f1!.perClass[c].ndet, res.f1!.perClass[c].npos]).toEqual([o.tp + o.fp, o.npos]));
    const report = analysisReport({ dataset: 'hand', task: 'hand/det', metric: 'ap', result: res, versions: {}, timings: {} });
    expect(report.rows[1]).toMatchObject({ key: 'dog', f1: 2 / 3, f1Threshold: 0.1, f1Precision: 1, f1Recall: 0.5 });
    expect(report.rows[2]).toMatchObject({ key: 'car', f1: 0, f1Threshold: null, f1Precision: null, f1Recall: 0 });
    expect(report.summary).toMatchObject({ 'f1.best': 0.5, 'f1.threshold': 0.1, 'f1.precision': 0.5, 'f1.recall': 0.5 });
  });
});

describe('F1 properties', () => {
  it('no grid point beats the best F1, which is the maximum over the distinct scores', () => {
    const arb = fc.array(fc.tuple(fc.integer({ min: 0, max: 8 }).map((k) => k / 8), fc.boolean()), { maxLength: 40 });
    fc.assert(
      fc.property(arb, fc.integer({ min: 0, max: 30 }), (dets, extra) => {
        dets.sort((a, b) => b[0] - a[0]);
        const tps = dets.filter((d) => d[1]).length;
        const npos = tps + extra;
        const c = f1Curve('x', Float64Array.from(dets.map((d) => d[0])), Uint8Array.from(dets.map((d) => (d[1] ? 1 : 0))), npos, thresholdGrid(0, 1));
        if (npos === 0) {
          expect(Number.isNaN(c.best.f1)).toBe(true);
          return;
        }
        expect(Math.max(...c.f1)).toBeLessThanOrEqual(c.best.f1);
        let best = 0;
        for (const t of new Set(dets.map((d) => d[0]))) {
          const kept = dets.filter((d) => d[0] >= t);
          const tp = kept.filter((d) => d[1]).length;
          best = Math.max(best, (2 * tp) / (kept.length + npos));
        }
        expect(c.best.f1).toBe(best);
      }),
      { numRuns: 300 },
    );
  });
});
