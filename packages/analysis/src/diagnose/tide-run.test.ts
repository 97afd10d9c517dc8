import { describe, expect, it } from 'vitest';
import { tideBoxIou, E_BKG, E_CLS, E_DUPE, E_LOC, E_MISS, tideRun, type TideData } from './tide-run.js';
import { fixErrors, fixPlan } from './tide-fix.js';

/** TIDE input from `[image, class, score, x, y, w, h]` detections and `[image, class, crowd, x, y, w, h]` objects. */
function data(dets: number[][], gts: number[][], maxDets = 100, imageCount = 2): TideData {
  return {
    classCount: 2,
    imageCount,
    gt: {
      image: Int32Array.from(gts.map((g) => g[0])),
      cls: Int32Array.from(gts.map((g) => g[1])),
      crowd: Uint8Array.from(gts.map((g) => g[2])),
      box: Float64Array.from(gts.flatMap((g) => g.slice(3))),
    },
    det: {
      image: Int32Array.from(dets.map((d) => d[0])),
      cls: Int32Array.from(dets.map((d) => d[1])),
      score: Float64Array.from(dets.map((d) => d[2])),
      box: Float64Array.from(dets.flatMap((d) => d.slice(3))),
    },
    maxDets,
  };
}

describe("TIDE v1.0.1's run", () => {
  it('the reference bbIou: no +1, crowd regions over the detection area', () => {
    const a = Float64Array.of(0, 0, 10, 10);
    const b = Float64Array.of(5, 0, 10, 10);
    expect(tideBoxIou(a, 0, b, 0, false)).toBe(50 / 150);
    expect(tideBoxIou(a, 0, b, 0, true)).toBe(0.5);
    expect(tideBoxIou(a, 0, Float64Array.of(10, 0, 5, 5), 0, false)).toBe(0);
  });

  it('types each error in TIDE order; a crowd-ignored detection is no AP point but still an error', () => {
    const d = data(
      [
        [0, 0, 0.9, 0, 0, 10, 10], // TP
        [0, 0, 0.8, 0, 0, 10, 10], // Dupe
        [0, 0, 0.7, 5, 0, 10, 10], // Loc: IoU 1/3 with the (used) object
        [0, 1, 0.6, 0, 0, 10, 10], // Cls (the object is used: nothing to fix)
        [0, 0, 0.5, 100, 100, 10, 10], // Bkg
        [0, 0, 0.4, 200, 200, 10, 10], // inside the crowd: ignored, typed Bkg
        [1, 0, 0.3, 0, 0, 5, 5], // image without objects: Bkg
      ],
      [
        [0, 0, 0, 0, 0, 10, 10],
        [0, 0, 1, 195, 195, 20, 20],
        [0, 1, 0, 50, 50, 10, 10], // never detected, claimed by no Cls/Loc error: Miss
      ],
    );
    const run = tideRun(d, 0.5, true);
    const e = run.errors!;
    // Per image: the detections' errors in score order, then the misses; then the next image.
    expect(Array.from(e.type)).toEqual([E_DUPE, E_LOC, E_CLS, E_BKG, E_BKG, E_MISS, E_BKG]);
    expect(Array.from(e.fixCls.subarray(1, 3))).toEqual([-1, -1]);
    expect(run.ignoredErrors).toBe(1);
    expect(run.pointDet).toHaveLength(6); // 7 detections, one ignored
  });

  it('the highest-scoring Cls/Loc error on an object wins its fix', () => {
    const d = data(
      [
        [0, 0, 0.9, 5, 0, 10, 10], // IoU 50/150 = 1/3 → Loc on object 0
        [0, 1, 0.95, 0, 0, 10, 10], // Cls on object 0 (higher score: the winner)
      ],
      [[0, 0, 0, 0, 0, 10, 10]],
      100,
      1,
    );
    const run = tideRun(d, 0.5, true);
    const e = run.errors!;
    expect(Array.from(e.type)).toEqual([E_CLS, E_LOC]);
    expect(e.fixCls[0]).toBe(0); // the Cls winner moves to class 0
    expect(e.fixCls[1]).toBe(-1); // the Loc loser is suppressed
    const plan = fixPlan(run, d.det.score);
    expect(fixErrors(run, plan, d.det.cls, { fix: (k) => e.type[k] === E_CLS }).ap).toBe(100);
    expect(fixErrors(run, plan, d.det.cls, { fix: (k) => e.type[k] === E_LOC }).ap).toBe(0);
  });

  it('keeps the 100 best detections of an image (the rest vanish)', () => {
    const dets = Array.from({ length: 120 }, (_, k) => [0, 0, 1 - k / 1000, 100 + k, 100, 5, 5]);
    dets.push([0, 0, 0.0001, 0, 0, 10, 10]); // a hit, ranked 121st: dropped
    const run = tideRun(data(dets, [[0, 0, 0, 0, 0, 10, 10]], 100, 1), 0.5, true);
    expect(run.pointDet).toHaveLength(100);
    expect(run.ap).toBe(0);
    expect(Array.from(run.errors!.type).filter((t) => t === E_MISS)).toHaveLength(1);
  });
});
