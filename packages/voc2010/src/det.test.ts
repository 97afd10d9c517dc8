import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { averagePrecisionArea } from '@cvdevkit/metrics';
import type { VocRecord } from './annotations.js';
import { classGroundTruth, evaluateDetClass } from './det.js';

/** VOCevaldet.m lines 48-112 written out literally: the reference for the property test. */
function reference(
  dets: { img: number; conf: number; bb: number[] }[],
  gt: { bb: number[]; diff: boolean }[][],
): { rec: number[]; prec: number[] } {
  const si = dets.map((_, i) => i).sort((a, b) => {
    const x = -dets[a].conf;
    const y = -dets[b].conf;
    const xn = Number.isNaN(x);
    const yn = Number.isNaN(y);
    if (xn || yn) return xn === yn ? a - b : xn ? 1 : -1;
    return x < y ? -1 : x > y ? 1 : a - b;
  });
  const det = gt.map((g) => g.map(() => false));
  const tp: number[] = [];
  const fp: number[] = [];
  for (const d of si) {
    const { img, bb } = dets[d];
    let ovmax = -Infinity;
    let jmax = -1;
    gt[img].forEach((g, j) => {
      const bbgt = g.bb;
      const bi = [Math.max(bb[0], bbgt[0]), Math.max(bb[1], bbgt[1]), Math.min(bb[2], bbgt[2]), Math.min(bb[3], bbgt[3])];
      const iw = bi[2] - bi[0] + 1;
      const ih = bi[3] - bi[1] + 1;
      if (iw > 0 && ih > 0) {
        const ua = (bb[2] - bb[0] + 1) * (bb[3] - bb[1] + 1) + (bbgt[2] - bbgt[0] + 1) * (bbgt[3] - bbgt[1] + 1) - iw * ih;
        const ov = (iw * ih) / ua;
        if (ov > ovmax) {
          ovmax = ov;
          jmax = j;
        }
      }
    });
    let t = 0;
    let f = 0;
    if (ovmax >= 0.5) {
      if (!gt[img][jmax].diff) {
        if (!det[img][jmax]) {
          t = 1;
          det[img][jmax] = true;
        } else f = 1;
      }
    } else f = 1;
    tp.push(t);
    fp.push(f);
  }
  const npos = gt.flat().filter((g) => !g.diff).length;
  let ct = 0;
  let cf = 0;
  const rec: number[] = [];
  const prec: number[] = [];
  tp.forEach((t, i) => {
    ct += t;
    cf += fp[i];
    rec.push(ct / npos);
    prec.push(ct / (cf + ct));
  });
  return { rec, prec };
}

const coord = fc.integer({ min: 0, max: 40 });
const box = fc.tuple(coord, coord, fc.integer({ min: -2, max: 25 }), fc.integer({ min: -2, max: 25 })).map(([x, y, w, h]) => [x, y, x + w, y + h]);

describe('evaluateDetClass', () => {
  it('equals a literal transliteration of VOCevaldet (ties, difficult, duplicates, NaN/Inf scores)', () => {
    const conf = fc.oneof(fc.constantFrom(0.5, 0.7, 0.9, NaN, Infinity, -Infinity, 0, -0), fc.double({ min: -1, max: 1, noNaN: true }));
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.tuple(box, fc.boolean()), { maxLength: 4 }), { minLength: 1, maxLength: 5 }),
        fc.array(fc.tuple(fc.nat(), conf, box), { maxLength: 30 }),
        (gtImgs, rawDets) => {
          const gt = gtImgs.map((objs) => objs.map(([bb, diff]) => ({ bb, diff })));
          const dets = rawDets.map(([i, c, bb]) => ({ img: i % gt.length, conf: c, bb }));
          const records: VocRecord[] = gt.map((objs) => ({
            objects: [
              ...objs.map((o) => ({ name: 'car', pose: '', truncated: false, occluded: false, difficult: o.diff, bbox: o.bb as [number, number, number, number], parts: [] })),
              { name: 'dog', pose: '', truncated: false, occluded: false, difficult: false, bbox: [0, 0, 40, 40] as [number, number, number, number], parts: [] },
            ],
          }));
          const g = classGroundTruth(records, ['car'])!.get('car')!;
          const got = evaluateDetClass(
            { count: dets.length, confidence: Float64Array.from(dets, (d) => d.conf), boxes: Float64Array.from(dets.flatMap((d) => d.bb)) },
            Int32Array.from(dets, (d) => d.img),
            g,
            averagePrecisionArea,
            'car',
          );
          const want = reference(dets, gt);
          expect(Array.from(got.recall)).toEqual(want.rec);
          expect(Array.from(got.precision)).toEqual(want.prec);
          expect(Object.is(got.ap, averagePrecisionArea(want.rec, want.prec))).toBe(true);
          expect(got.npos).toBe(gt.flat().filter((o) => !o.diff).length);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('gives AP 0 with no detections and NaN with no positives', () => {
    const g = classGroundTruth([{ objects: [] }], ['car']).get('car')!;
    const none = evaluateDetClass({ count: 0, confidence: new Float64Array(), boxes: new Float64Array() }, new Int32Array(), g, averagePrecisionArea, 'car');
    expect(none.ap).toBe(0);
    const one = evaluateDetClass({ count: 1, confidence: Float64Array.of(1), boxes: Float64Array.of(1, 1, 5, 5) }, Int32Array.of(0), g, averagePrecisionArea, 'car');
    expect(one.ap).toBeNaN();
  });
});
