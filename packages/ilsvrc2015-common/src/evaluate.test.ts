import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { evaluateDetections } from './evaluate.js';
import { smallObjectThreshold, type GroundTruth } from './ground-truth.js';
import type { Blacklist, Predictions } from './inputs.js';

/** A direct transcription of the official loops (cells indexed by image id), as a reference. */
function reference(gt: GroundTruth, p: Predictions, bl: Blacklist | undefined, order: 'index' | 'line') {
  const nE = gt.imageIds.length;
  const ids = Array.from(gt.imageIds);
  // cells keyed by the matched entry: last line with that id
  const entryOf = new Map<number, number>();
  ids.forEach((id, i) => entryOf.set(id, i));
  const cellDets = new Map<number, number[]>();
  for (let d = 0; d < p.count; d++) {
    const e = entryOf.get(p.imageIds[d]);
    if (e === undefined) continue;
    if (!cellDets.has(e)) cellDets.set(e, []);
    cellDets.get(e)!.push(d);
  }
  const sortDesc = (arr: number[], key: (x: number) => number) =>
    arr
      .map((x, i) => ({ x, i }))
      .sort((u, v) => {
        const a = key(u.x);
        const b = key(v.x);
        const an = Number.isNaN(a);
        const bn = Number.isNaN(b);
        if (an !== bn) return an ? -1 : 1;
        if (!an && a !== b) return a > b ? -1 : 1;
        return u.i - v.i;
      })
      .map((o) => o.x);
  const numPos = Array.from(gt.numPos);
  const tp = new Map<number, number>();
  const fp = new Map<number, number>();
  for (let i = 0; i < nE; i++) {
    const id = ids[i];
    const blk = bl ? Array.from(bl.labels).filter((_, k) => bl.imageIds[k] === id) : [];
    if (entryOf.get(id) === i) {
      const dets = sortDesc(cellDets.get(i) ?? [], (d) => p.confidences[d]);
      const detected = new Array<boolean>(gt.objStart[i + 1] - gt.objStart[i]).fill(false);
      for (const d of dets) {
        if (blk.includes(p.labels[d])) {
          tp.set(d, 0);
          fp.set(d, 0);
          continue;
        }
        let ovmax = -Infinity;
        let kmax = -1;
        for (let k = gt.objStart[i]; k < gt.objStart[i + 1]; k++) {
          if (p.labels[d] !== gt.labels[k] || detected[k - gt.objStart[i]]) continue;
          const bb = p.boxes.subarray(4 * d, 4 * d + 4);
          const g = gt.boxes.subarray(4 * k, 4 * k + 4);
          const iw = Math.min(bb[2], g[2]) - Math.max(bb[0], g[0]) + 1;
          const ih = Math.min(bb[3], g[3]) - Math.max(bb[1], g[1]) + 1;
          if (iw > 0 && ih > 0) {
            const ua = (bb[2] - bb[0] + 1) * (bb[3] - bb[1] + 1) + (g[2] - g[0] + 1) * (g[3] - g[1] + 1) - iw * ih;
            const ov = (iw * ih) / ua;
            if (ov >= gt.thr[k] && ov > ovmax) {
              ovmax = ov;
              kmax = k;
            }
          }
        }
        tp.set(d, kmax >= 0 ? 1 : 0);
        fp.set(d, kmax >= 0 ? 0 : 1);
        if (kmax >= 0) detected[kmax - gt.objStart[i]] = true;
      }
    }
    for (let k = gt.objStart[i]; k < gt.objStart[i + 1]; k++) if (blk.includes(gt.labels[k])) numPos[gt.labels[k] - 1]--;
  }
  const entries = [...new Set(entryOf.values())];
  if (order === 'index') entries.sort((a, b) => ids[a] - ids[b]);
  else entries.sort((a, b) => a - b);
  const concat = entries.flatMap((e) => sortDesc(cellDets.get(e) ?? [], (d) => p.confidences[d]));
  const ranked = sortDesc(concat, (d) => p.confidences[d]);
  return numPos.map((np, c) => {
    let ctp = 0;
    let cfp = 0;
    const rec: number[] = [];
    const prec: number[] = [];
    for (const d of ranked) {
      if (p.labels[d] !== c + 1) continue;
      ctp += tp.get(d)!;
      cfp += fp.get(d)!;
      rec.push(ctp / np);
      prec.push(ctp / (cfp + ctp));
    }
    return { rec, prec };
  });
}

const box = fc.tuple(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 40 }), fc.integer({ min: -2, max: 30 }), fc.integer({ min: -2, max: 30 })).map(([x, y, w, h]) => [x, y, x + w, y + h]);

const caseArb = fc
  .record({
    ids: fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 8 }),
    objects: fc.array(fc.tuple(fc.nat(7), fc.integer({ min: 1, max: 3 }), box), { maxLength: 20 }),
    dets: fc.array(fc.tuple(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 0, max: 4 }), fc.oneof(fc.constantFrom(0.5, 0.25, NaN, 1), fc.double({ min: 0, max: 1, noNaN: true })), box), { minLength: 1, maxLength: 40 }),
    bl: fc.array(fc.tuple(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 3 })), { maxLength: 3 }),
    order: fc.constantFrom('index' as const, 'line' as const),
  })
  .map(({ ids, objects, dets, bl, order }) => {
    const n = ids.length;
    const per: { label: number; b: number[] }[][] = Array.from({ length: n }, () => []);
    for (const [e, label, b] of objects) per[e % n].push({ label, b });
    const objStart = new Int32Array(n + 1);
    per.forEach((o, i) => (objStart[i + 1] = objStart[i] + o.length));
    const all = per.flat();
    const maxLabel = all.reduce((m, o) => Math.max(m, o.label), 0);
    const numPos = new Float64Array(maxLabel);
    for (const o of all) numPos[o.label - 1]++;
    const gt: GroundTruth = {
      imageIds: Float64Array.from(ids),
      objStart,
      labels: Int32Array.from(all.map((o) => o.label)),
      boxes: Float64Array.from(all.flatMap((o) => o.b)),
      thr: Float64Array.from(all.map((o) => smallObjectThreshold(o.b[0], o.b[1], o.b[2], o.b[3]))),
      generated: new Uint8Array(all.length),
      numPos,
      source: 'xml',
    };
    const inList = dets.filter(([id]) => ids.includes(id));
    const preds: Predictions = {
      file: 'pred.txt',
      count: inList.length,
      imageIds: Float64Array.from(inList.map((d) => d[0])),
      labels: Float64Array.from(inList.map((d) => d[1])),
      confidences: Float64Array.from(inList.map((d) => d[2])),
      boxes: Float64Array.from(inList.flatMap((d) => d[3])),
      lines: Int32Array.from(inList.map((_, i) => i + 1)),
    };
    const blacklist: Blacklist = { file: 'bl.txt', imageIds: Float64Array.from(bl.map((x) => x[0])), labels: Int32Array.from(bl.map((x) => x[1])) };
    return { gt, preds, blacklist, order };
  });

describe('evaluateDetections', () => {
  it('equals a direct transcription of the official loops on random cases', () => {
    fc.assert(
      fc.property(caseArb, ({ gt, preds, blacklist, order }) => {
        if (gt.numPos.length === 0) return;
        const got = evaluateDetections(gt, preds, blacklist, { order, outside: 'error' });
        const ref = reference(gt, preds, blacklist, order);
        expect(got.classes.length).toBe(ref.length);
        got.classes.forEach((c, i) => {
          expect(Array.from(c.recall)).toEqual(ref[i].rec);
          expect(Array.from(c.precision)).toEqual(ref[i].prec);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('drops detections outside the list (VID) or reports each of them (DET)', () => {
    const gt: GroundTruth = {
      imageIds: Float64Array.of(1),
      objStart: Int32Array.of(0, 1),
      labels: Int32Array.of(1),
      boxes: Float64Array.of(1, 1, 10, 10),
      thr: Float64Array.of(0.25),
      generated: new Uint8Array(1),
      numPos: Float64Array.of(1),
      source: 'xml',
    };
    const preds: Predictions = {
      file: 'p.txt',
      count: 2,
      imageIds: Float64Array.of(1, 2),
      labels: Float64Array.of(1, 1),
      confidences: Float64Array.of(0.5, 0.9),
      boxes: Float64Array.of(1, 1, 10, 10, 1, 1, 10, 10),
      lines: Int32Array.of(1, 2),
    };
    const r = evaluateDetections(gt, preds, undefined, { order: 'line', outside: 'drop' });
    expect(r.stats.dropped).toBe(1);
    expect(r.classes[0].ap).toBe(1);
    expect(() => evaluateDetections(gt, preds, undefined, { order: 'index', outside: 'error' })).toThrow(/p\.txt:2 \[image index\]: expected an image index of the image list, found 2/);
  });
});
