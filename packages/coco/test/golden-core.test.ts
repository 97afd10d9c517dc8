/**
 * Golden tests of the evaluation core against pycocotools 2.0.11 (fixtures/coco): the stats and every
 * cell of precision, recall and scores, |Δ| ≤ 1e-12, and how many are bit-identical.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { accumulateAll } from '../src/accumulate.js';
import { evaluateCoco, type IouComputer } from '../src/evaluate.js';
import { bboxIouComputer } from '../src/iou-bbox.js';
import { keypointsIouComputer } from '../src/iou-keypoints.js';
import { groundTruthFromJson, resultsFromJson } from '../src/load.js';
import { summarize } from '../src/summarize.js';
import { CASES, FIXTURES, flatten, loadCase, paramsOf } from './fixture-cases.js';

const TOL = 1e-12;

function compare(name: string, got: ArrayLike<number>, want: number[]): { n: number; identical: number } {
  expect(got.length, `${name}: length`).toBe(want.length);
  let identical = 0;
  for (let i = 0; i < want.length; i++) {
    if (Object.is(got[i], want[i]) || got[i] === want[i]) identical++;
    else if (!(Math.abs(got[i] - want[i]) <= TOL)) expect.fail(`${name}[${i}]: got ${got[i]}, pycocotools ${want[i]}`);
  }
  return { n: want.length, identical };
}

const totals = { n: 0, identical: 0 };

for (const c of CASES) {
  const fixture = loadCase(c);
  describe(`coco core golden: ${c}`, () => {
    for (const e of fixture.evaluations) {
      if (e.error || e.iouType === 'segm' || e.name === 'bbox_on_segm_results') continue;
      it(e.name, () => {
        const dir = join(FIXTURES, c);
        const gt = groundTruthFromJson(JSON.parse(readFileSync(join(dir, e.gt), 'utf8')), e.gt);
        const dt = resultsFromJson(JSON.parse(readFileSync(join(dir, e.results), 'utf8')), e.results, gt);
        const params = paramsOf(e);
        const iou: IouComputer = e.iouType === 'keypoints' ? keypointsIouComputer(gt, dt, params.kptSigmas) : bboxIouComputer(gt, dt);
        const out = evaluateCoco(gt, dt, params, {}, iou);
        expect(out.setup.kCatIds).toEqual(e.K_catIds);
        const acc = accumulateAll(out.records, out.setup.K, params.areaRanges.length, params.iouThrs.length, params.recThrs, params.maxDets);
        expect([acc.T, acc.R, acc.K, acc.A, acc.M]).toEqual(e.counts);
        const stats = summarize(acc, params);
        for (const [label, got, want] of [
          ['stats', stats, e.stats],
          ['precision', acc.precision, e.precision === undefined ? undefined : flatten(e.precision)],
          ['recall', acc.recall, e.recall === undefined ? undefined : flatten(e.recall)],
          ['scores', acc.scores, e.scores === undefined ? undefined : flatten(e.scores)],
        ] as const) {
          if (want === undefined) continue;
          const r = compare(`${c}/${e.name}/${label}`, got, want as number[]);
          totals.n += r.n;
          totals.identical += r.identical;
          expect(r.identical, `${c}/${e.name}/${label}: bit-identical`).toBe(r.n);
        }
      });
    }
  });
}

describe('coco core golden: parity count', () => {
  it('every compared number is bit-identical to pycocotools', () => {
    console.log(`coco core golden: ${totals.identical} of ${totals.n} numbers bit-identical to pycocotools 2.0.11`);
    expect(totals.n).toBeGreaterThan(0);
    expect(totals.identical).toBe(totals.n);
  });
});
