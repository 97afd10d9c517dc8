import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { averagePrecisionArea, matchDetections, precisionRecall, rankDescending, vocMatcher } from '@cvdevkit/metrics';
import type { DiagnoseInput } from './input.js';
import { overlapAnalysis } from './overlap.js';
import { prepare } from './prepare.js';

/** The official VOC evaluation of one class at threshold t, run from scratch with @cvdevkit/metrics. */
function referenceAp(input: DiagnoseInput, c: number, t: number): number {
  const det = input.detections;
  const idx: number[] = [];
  for (let d = 0; d < det.cls.length; d++) if (det.cls[d] === c) idx.push(d);
  const order = rankDescending(idx.map((d) => det.score[d]), { nan: 'last' });
  const ranked = Array.from(order, (k) => idx[k]);
  const tp = new Uint8Array(det.cls.length);
  const fp = new Uint8Array(det.cls.length);
  let npos = 0;
  for (let i = 0; i < input.images.length; i++) {
    const objs: number[] = [];
    for (let j = 0; j < input.objects.cls.length; j++) if (input.objects.image[j] === i && input.objects.cls[j] === c) objs.push(j);
    for (const j of objs) if (!input.objects.difficult[j]) npos++;
    const boxes = objs.flatMap((j) => Array.from(input.objects.boxes.subarray(4 * j, 4 * j + 4)));
    const difficult = objs.map((j) => input.objects.difficult[j]);
    matchDetections(det.boxes, ranked.filter((d) => det.image[d] === i), { boxes, difficult }, tp, fp, { rule: 'voc', minOverlap: t });
  }
  const pr = precisionRecall(ranked.map((d) => tp[d]), ranked.map((d) => fp[d]), npos);
  return averagePrecisionArea(pr.recall, pr.precision);
}

const box = fc.tuple(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 40 }), fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 30 })).map(([x, y, w, h]) => [x, y, x + w, y + h]);

const inputs = fc
  .record({
    dets: fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 1 }), fc.constantFrom(0.1, 0.5, 0.7, 0.9, NaN), box), { maxLength: 30 }),
    objs: fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 1 }), fc.boolean(), box), { maxLength: 12 }),
  })
  .map(({ dets, objs }): DiagnoseInput => ({
    classes: ['a', 'b'],
    images: ['0', '1', '2'],
    match: vocMatcher,
    detections: {
      image: Int32Array.from(dets.map((d) => d[0])),
      cls: Int32Array.from(dets.map((d) => d[1])),
      score: Float64Array.from(dets.map((d) => d[2])),
      boxes: Float64Array.from(dets.flatMap((d) => d[3])),
    },
    objects: {
      image: Int32Array.from(objs.map((o) => o[0])),
      cls: Int32Array.from(objs.map((o) => o[1])),
      difficult: Uint8Array.from(objs.map((o) => (o[2] ? 1 : 0))),
      boxes: Float64Array.from(objs.flatMap((o) => o[3])),
    },
    similarGroups: [],
    meanRule: 'numeric',
  }));

describe('overlap sweep', () => {
  it('the one-pass VOC sweep equals the official matching rerun at every threshold, bit for bit', () => {
    fc.assert(
      fc.property(inputs, (input) => {
        const r = overlapAnalysis(prepare(input));
        r.thresholds.forEach((t, k) => {
          for (let c = 0; c < 2; c++) expect(Object.is(r.perClass[c].ap[k], referenceAp(input, c, t)), `class ${c} t ${t}`).toBe(true);
        });
      }),
      { numRuns: 150 },
    );
  });

  it('thresholds are 0.05 … 0.95 with the official 0.5 exactly', () => {
    const r = overlapAnalysis(prepare(fc.sample(inputs, 1)[0]));
    expect(r.thresholds).toHaveLength(19);
    expect(r.thresholds[9]).toBe(0.5);
    expect(r.thresholds[0]).toBe(0.05);
    expect(r.thresholds[18]).toBe(0.95);
  });
});
