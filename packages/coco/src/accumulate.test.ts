import fc from 'fast-check';
import { describe, it } from 'vitest';
import { accumulateCategory, emptyAccumulated, runMergeOrder } from './accumulate.js';
import { linspace } from './params.js';
import { CategoryRecords, FP, IGNORED, TP } from './records.js';
import { compareScoreDesc, scoreOrder } from './score-order.js';

/** pycocotools' accumulate for one (category, area, maxDet), written as E:362-410 reads (the reference). */
function literal(scores: number[], ranks: number[], outcomes: number[][], npig: number, T: number, recThrs: Float64Array, maxDet: number) {
  const keep = scores.map((_, i) => i).filter((i) => ranks[i] < maxDet);
  const inds = keep.slice().sort((a, b) => compareScoreDesc(scores[a], scores[b]) || a - b);
  const precision: number[][] = [];
  const recall: number[] = [];
  const sc: number[][] = [];
  for (let t = 0; t < T; t++) {
    const nd = inds.length;
    let tp = 0;
    let fp = 0;
    const rc: number[] = [];
    const pr: number[] = [];
    for (const i of inds) {
      const o = outcomes[i][t];
      if (o === TP) tp++;
      else if (o === FP) fp++;
      rc.push(tp / npig);
      pr.push(tp / (fp + tp + 2 ** -52));
    }
    recall.push(nd ? rc[nd - 1] : 0);
    for (let i = nd - 1; i > 0; i--) if (pr[i] > pr[i - 1]) pr[i - 1] = pr[i];
    const q = new Array<number>(recThrs.length).fill(0);
    const ss = new Array<number>(recThrs.length).fill(0);
    for (let r = 0; r < recThrs.length; r++) {
      let pi = 0;
      while (pi < nd && rc[pi] < recThrs[r]) pi++;
      if (pi >= nd) break;
      q[r] = pr[pi];
      ss[r] = scores[inds[pi]];
    }
    precision.push(q);
    sc.push(ss);
  }
  return { precision, recall, scores: sc };
}

describe('accumulateCategory', () => {
  // 3 thresholds, and more than 32
  for (const T of [3, 35]) {
    const anyOutcomes: fc.Arbitrary<number[]> = fc.array(fc.constantFrom<number>(FP, FP, TP, IGNORED), { minLength: T, maxLength: T });
    const allIgnored = fc.constant<number[]>(new Array<number>(T).fill(IGNORED));
    it(`equals the literal pycocotools accumulate, cell for cell (T = ${T})`, () => equalsLiteral(T, anyOutcomes));
    it(`equals it where many detections are ignored at every threshold (area ranges, T = ${T})`, () => equalsLiteral(T, fc.oneof(anyOutcomes, allIgnored, allIgnored)));
  }

  function equalsLiteral(T: number, outcomes: fc.Arbitrary<number[]>): void {
    const recThrs = linspace(0, 1, 101);
    const maxDets = [1, 3, 100];
    const M = maxDets.length;
    const det = fc.record({ image: fc.integer({ min: 0, max: 5 }), score: fc.constantFrom(0.1, 0.5, 0.5, 0.9, 1, NaN, 0, -0), o: outcomes });
    fc.assert(
      fc.property(fc.array(det, { maxLength: 40 }), fc.integer({ min: 1, max: 12 }), (dets, npig) => {
        // images in ascending order, each image's detections in score order with their ranks
        const byImage = [...new Set(dets.map((d) => d.image))].sort((a, b) => a - b);
        const rec = new CategoryRecords(T, 1);
        const scores: number[] = [];
        const ranks: number[] = [];
        const outcomes: number[][] = [];
        for (const im of byImage) {
          const mine = dets.filter((d) => d.image === im);
          const idx = scoreOrder(mine.map((d) => d.score), Int32Array.from(mine.keys()));
          rec.imagesWithRecord++;
          idx.forEach((i, rank) => {
            rec.scores.push(mine[i].score);
            rec.ranks.push(rank);
            rec.images.push(im);
            const at = rec.outcomes[0].reserve(T);
            mine[i].o.forEach((o, t) => (rec.outcomes[0].data[at + t] = o));
            scores.push(mine[i].score);
            ranks.push(rank);
            outcomes.push(mine[i].o);
          });
        }
        rec.imagesWithRecord++; // one more image with ground truth only
        rec.npig[0] = npig;
        const out = emptyAccumulated(T, recThrs.length, 1, 1, M);
        accumulateCategory(out, 0, rec, recThrs, maxDets);
        // the precision of the last maxDet only, no scores (a report without --arrays): the same cells and recall
        const lean = emptyAccumulated(T, recThrs.length, 1, 1, M, [false, false, true], false);
        accumulateCategory(lean, 0, rec, recThrs, maxDets);
        let same = true;
        maxDets.forEach((md, m) => {
          const want = literal(scores, ranks, outcomes, npig, T, recThrs, md);
          for (let t = 0; t < T; t++) {
            same &&= Object.is(out.recall[t * M + m], want.recall[t]) && Object.is(lean.recall[t * M + m], want.recall[t]);
            for (let r = 0; r < recThrs.length; r++) {
              const at = (t * recThrs.length + r) * M + m;
              same &&= Object.is(out.precision[at], want.precision[t][r]) && Object.is(out.scores![at], want.scores[t][r]);
              if (m === M - 1) same &&= Object.is(lean.precision[t * recThrs.length + r], want.precision[t][r]);
            }
          }
        });
        return same && lean.scores === null;
      }),
      { numRuns: T > 3 ? 60 : 150 },
    );
  }
});

describe('runMergeOrder', () => {
  it('is the stable descending order, NaN last, -0 = +0 (runs of any length)', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(0.3, 0.7, 0.7, 1, NaN, 0, -0, Infinity, -Infinity), { maxLength: 300 }), (s) => {
        const got = Array.from(runMergeOrder(s, s.length, new Int32Array(s.length), new Int32Array(s.length)));
        const want = Array.from(s.keys()).sort((a, b) => compareScoreDesc(s[a], s[b]) || a - b);
        return got.join() === want.join();
      }),
      { numRuns: 300 },
    );
  });
});

describe('scoreOrder', () => {
  it('is the stable descending order, NaN last, -0 = +0, short and long lists', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(0.3, 0.7, 0.7, 1, NaN, 0, -0, Infinity, -Infinity), { maxLength: 200 }), (s) => {
        const got = Array.from(scoreOrder(s, Int32Array.from(s.keys())));
        const want = Array.from(s.keys()).sort((a, b) => compareScoreDesc(s[a], s[b]) || a - b);
        return got.join() === want.join();
      }),
      { numRuns: 200 },
    );
  });
});
