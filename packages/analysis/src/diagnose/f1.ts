import type { F1Curve, F1Result } from '@cvdevkit/core';
import { FP, TP, type Prepared } from './prepare.js';
import { scoreOrder } from './score-order.js';
export type { F1Curve, F1Result };

/** Points of the curves' threshold grid. */
const GRID_STEPS = 100;

/**
 * The threshold grid: k/100 (k = 0…100) when every score is in [0, 1] (confidences), else 101 evenly spaced
 * thresholds from the lowest to the highest score (the last one exactly the highest); empty without scores.
 */
export function thresholdGrid(lo: number, hi: number): number[] {
  if (!(lo <= hi)) return [];
  if (lo >= 0 && hi <= 1) return Array.from({ length: GRID_STEPS + 1 }, (_, k) => k / GRID_STEPS);
  if (lo === hi) return [lo];
  return Array.from({ length: GRID_STEPS + 1 }, (_, k) => (k === GRID_STEPS ? hi : lo + ((hi - lo) * k) / GRID_STEPS));
}

/**
 * One curve from detections in descending score order (`score`, `tp` 1/0 per detection): at a threshold t the
 * detections with a score ≥ t count. Precision = TP / (TP + FP) (NaN without a detection), recall = TP / npos and
 * F1 = 2·TP / (TP + FP + npos) (= 2PR / (P + R), one rounding; 0 without a true positive); recall and F1 are NaN
 * when npos = 0. The best F1 is sought over every distinct score (ties: the highest threshold).
 */
export function f1Curve(key: string, score: Float64Array, tp: Uint8Array, npos: number, grid: readonly number[]): F1Curve {
  const n = score.length;
  const precision = new Array<number>(grid.length);
  const recall = new Array<number>(grid.length);
  const f1 = new Array<number>(grid.length);
  const at = (t: number, f: number) => ({ tp: t, fp: f, precision: t + f > 0 ? t / (t + f) : NaN, recall: npos > 0 ? t / npos : NaN, f1: npos > 0 ? (2 * t) / (t + f + npos) : NaN });
  let bestF1 = npos > 0 ? 0 : NaN;
  let bestTp = 0;
  let bestFp = 0;
  let threshold = NaN;
  let ctp = 0;
  let cfp = 0;
  for (let r = 0; r < n; r++) {
    if (tp[r]) ctp++;
    else cfp++;
    if (r + 1 < n && score[r + 1] === score[r]) continue;
    const f = (2 * ctp) / (ctp + cfp + npos);
    if (ctp > 0 && f > bestF1) {
      bestF1 = f;
      bestTp = ctp;
      bestFp = cfp;
      threshold = score[r];
    }
  }
  const best = { threshold, ...at(bestTp, bestFp) };
  // the grid from the highest threshold down, the detections from the best down
  ctp = 0;
  cfp = 0;
  let r = 0;
  for (let g = grid.length - 1; g >= 0; g--) {
    while (r < n && score[r] >= grid[g]) {
      if (tp[r]) ctp++;
      else cfp++;
      r++;
    }
    const v = at(ctp, cfp);
    precision[g] = v.precision;
    recall[g] = v.recall;
    f1[g] = v.f1;
  }
  return { key, npos, ndet: n, precision, recall, f1, best };
}

/**
 * Precision, recall and F1 against the score threshold on the task's official matching at IoU 0.5, per class and
 * overall (micro: every detection and positive counted once). A detection's outcome is the official one, which
 * is what the matching of the detections above the threshold alone gives when the ranking is by descending score
 * (a detection's outcome depends on the higher-ranked detections only). Ignored and skipped detections (a
 * difficult or crowd object, a blacklisted pair) are left out, as the official curve does; NaN scores too.
 */
export function f1Analysis(p: Prepared): F1Result {
  const det = p.input.detections;
  const order = scoreOrder(p);
  const scored: number[] = [];
  let unscored = 0;
  for (let r = 0; r < p.nDet; r++) {
    const d = order[r];
    const o = p.outcome[d];
    if (Number.isNaN(det.score[d])) unscored++;
    else if (o === TP || o === FP) scored.push(d);
  }
  const n = scored.length;
  const grid = n > 0 ? thresholdGrid(det.score[scored[n - 1]], det.score[scored[0]]) : [];
  const all = { score: new Float64Array(n), tp: new Uint8Array(n) };
  // per class: counting sort of the scored detections by class, keeping the score order
  const start = new Uint32Array(p.nCls + 1);
  for (const d of scored) start[det.cls[d] + 1]++;
  for (let c = 0; c < p.nCls; c++) start[c + 1] += start[c];
  const fill = start.slice(0, p.nCls);
  const byClass = { score: new Float64Array(n), tp: new Uint8Array(n) };
  scored.forEach((d, r) => {
    const t = p.outcome[d] === TP ? 1 : 0;
    all.score[r] = det.score[d];
    all.tp[r] = t;
    const k = fill[det.cls[d]]++;
    byClass.score[k] = det.score[d];
    byClass.tp[k] = t;
  });
  let npos = 0;
  for (let c = 0; c < p.nCls; c++) npos += p.npos[c];
  const perClass = p.input.classes.map((key, c) => f1Curve(key, byClass.score.subarray(start[c], start[c + 1]), byClass.tp.subarray(start[c], start[c + 1]), p.npos[c], grid));
  return { iouThreshold: 0.5, thresholds: grid, overall: f1Curve('overall', all.score, all.tp, npos, grid), perClass, unscoredDetections: unscored };
}
