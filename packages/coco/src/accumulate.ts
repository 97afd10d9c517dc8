import { IGNORED, TP, type CellRecords } from './records.js';
import { scoreOrder } from './score-order.js';

const SPACING_1 = 2 ** -52;

/** `eval['precision']` (T×R×K×A×M), `eval['recall']` (T×K×A×M), `eval['scores']` (T×R×K×A×M), C order. */
export interface Accumulated {
  T: number;
  R: number;
  K: number;
  A: number;
  M: number;
  precision: Float64Array;
  recall: Float64Array;
  scores: Float64Array;
}

export function emptyAccumulated(T: number, R: number, K: number, A: number, M: number): Accumulated {
  return {
    T, R, K, A, M,
    precision: new Float64Array(T * R * K * A * M).fill(-1),
    recall: new Float64Array(T * K * A * M).fill(-1),
    scores: new Float64Array(T * R * K * A * M).fill(-1),
  };
}

/**
 * `accumulate()` (E:315-420) for one (category k, area range a): for each maxDet the images' first maxDet
 * detections, concatenated in image order and stably sorted by score; precision `tp / (fp + tp + 2^-52)`
 * made monotone right to left, sampled at the recall thresholds with `searchsorted(side='left')`.
 */
export function accumulateCell(out: Accumulated, k: number, a: number, rec: CellRecords, recThrs: Float64Array, maxDets: number[]): void {
  const { T, R, K, A, M } = out;
  if (rec.imagesWithRecord === 0 || rec.npig === 0) return;
  const n = rec.count;
  const scores = rec.scores.data;
  const ranks = rec.ranks.data;
  const outcomes = rec.outcomes.data;
  const all = new Int32Array(n);
  for (let i = 0; i < n; i++) all[i] = i;
  scoreOrder(scores, all);
  const npig = rec.npig;
  const sel = new Int32Array(n);
  const rc = new Float64Array(n);
  const pr = new Float64Array(n);
  for (let m = 0; m < M; m++) {
    const maxDet = maxDets[m];
    let nd = 0;
    for (let i = 0; i < n; i++) if (ranks[all[i]] < maxDet) sel[nd++] = all[i];
    for (let t = 0; t < T; t++) {
      let tp = 0;
      let fp = 0;
      for (let j = 0; j < nd; j++) {
        const o = outcomes[sel[j] * T + t];
        if (o === TP) tp++;
        else if (o !== IGNORED) fp++;
        rc[j] = tp / npig;
        pr[j] = tp / (fp + tp + SPACING_1);
      }
      out.recall[((t * K + k) * A + a) * M + m] = nd > 0 ? rc[nd - 1] : 0;
      for (let i = nd - 1; i > 0; i--) if (pr[i] > pr[i - 1]) pr[i - 1] = pr[i];
      // searchsorted(rc, recThrs, 'left'): rc is non-decreasing, recThrs ascending in practice; a binary
      // search per threshold keeps any recThrs order right
      let stopped = false;
      for (let r = 0; r < R; r++) {
        const at = (((t * R + r) * K + k) * A + a) * M + m;
        if (stopped) {
          out.precision[at] = 0;
          out.scores[at] = 0;
          continue;
        }
        const pi = searchLeft(rc, nd, recThrs[r]);
        if (pi >= nd) {
          stopped = true;
          out.precision[at] = 0;
          out.scores[at] = 0;
          continue;
        }
        out.precision[at] = pr[pi];
        out.scores[at] = scores[sel[pi]];
      }
    }
  }
}

/** numpy `searchsorted(a[:n], v, side='left')` on a non-decreasing array: the first i with a[i] >= v (NaN sorts last). */
function searchLeft(a: Float64Array, n: number, v: number): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    // numpy's `a[mid] < v` with NaN ordered last
    if (lessNanLast(a[mid], v)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function lessNanLast(x: number, y: number): boolean {
  return x < y || (y !== y && x === x);
}

export function accumulateAll(records: CellRecords[], K: number, A: number, T: number, recThrs: Float64Array, maxDets: number[]): Accumulated {
  const out = emptyAccumulated(T, recThrs.length, K, A, maxDets.length);
  for (let k = 0; k < K; k++) for (let a = 0; a < A; a++) accumulateCell(out, k, a, records[k * A + a], recThrs, maxDets);
  return out;
}
