import { FP, TP, type CategoryRecords } from './records.js';
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
 * The smallest TP count c in 0..npig with `c / npig >= thr` (the division numpy does for `rc`), npig + 1
 * when none: `searchsorted(rc, thr, 'left')` is then the position of the c-th true positive.
 */
function tpNeeded(thr: number, npig: number): number {
  let lo = 0;
  let hi = npig + 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (mid / npig >= thr) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Work arrays of accumulateCategory, kept between categories (fresh arrays for each cost page faults and zeroing). */
interface AccumulateScratch {
  order: Int32Array;
  sel: Int32Array;
  need: Int32Array;
  tp: Int32Array;
  fp: Int32Array;
  nc: Int32Array;
  tpPos: Int32Array;
  candPos: Int32Array;
  candMax: Float64Array;
}

let scratch: AccumulateScratch | undefined;

/** The scratch arrays, grown to hold n detections at T thresholds and R recall thresholds (contents undefined). */
function scratchFor(n: number, T: number, R: number): AccumulateScratch {
  const s = scratch;
  if (s && s.order.length >= n && s.tp.length >= T && s.need.length >= R && s.candMax.length >= T * (n + 1)) return s;
  const cap = Math.max(n, s ? s.order.length : 0);
  const t = Math.max(T, s ? s.tp.length : 0);
  const r = Math.max(R, s ? s.need.length : 0);
  scratch = {
    order: new Int32Array(cap),
    sel: new Int32Array(cap),
    need: new Int32Array(r),
    tp: new Int32Array(t),
    fp: new Int32Array(t),
    nc: new Int32Array(t),
    tpPos: new Int32Array(t * cap),
    candPos: new Int32Array(t * (cap + 1)),
    candMax: new Float64Array(t * (cap + 1)),
  };
  return scratch;
}

/**
 * `accumulate()` (E:315-420) for one category k, every area range and maxDet: the images' first maxDet
 * detections, concatenated in image order and stably sorted by score; precision `tp / (fp + tp + 2^-52)`
 * made monotone right to left and sampled at the recall thresholds with `searchsorted(side='left')`.
 *
 * The same numbers, computed with fewer divisions: a threshold's `searchsorted` position is where the
 * TP count first reaches `tpNeeded`, and the right-to-left maximum of the precision from a position on is
 * the maximum over the positions followed by a false positive (or last): precision only rises on a TP,
 * stays on an ignored detection and falls on a FP. Every precision used is computed by pycocotools'
 * expression at the same position, so the cells are the same doubles. One pass over the detections
 * serves every IoU threshold (a detection's T outcomes are contiguous).
 */
export function accumulateCategory(out: Accumulated, k: number, rec: CategoryRecords, recThrs: Float64Array, maxDets: number[]): void {
  const { T, R, K, A, M } = out;
  if (rec.imagesWithRecord === 0) return;
  const n = rec.count;
  const scores = rec.scores.data;
  const ranks = rec.ranks.data;
  const s = scratchFor(n, T, R);
  const order = s.order.subarray(0, n);
  for (let i = 0; i < n; i++) order[i] = i;
  scoreOrder(scores, order);
  let maxRank = -1;
  for (let i = 0; i < n; i++) if (ranks[i] > maxRank) maxRank = ranks[i];
  const { need, sel, tp, fp, nc, tpPos, candPos, candMax } = s;
  for (let a = 0; a < A; a++) {
    const npig = rec.npig[a];
    if (npig === 0) continue;
    for (let r = 0; r < R; r++) need[r] = tpNeeded(recThrs[r], npig);
    const outcomes = rec.outcomes[a].data;
    for (let m = 0; m < M; m++) {
      const maxDet = maxDets[m];
      let nd: number;
      let sortedAt: Int32Array;
      if (maxRank < maxDet) {
        nd = n;
        sortedAt = order;
      } else {
        nd = 0;
        for (let i = 0; i < n; i++) if (ranks[order[i]] < maxDet) sel[nd++] = order[i];
        sortedAt = sel;
      }
      tp.fill(0, 0, T);
      fp.fill(0, 0, T);
      nc.fill(0, 0, T);
      const cs = nd + 1;
      for (let j = 0; j < nd; j++) {
        const row = sortedAt[j] * T;
        const next = j + 1 < nd ? sortedAt[j + 1] * T : -1;
        for (let t = 0; t < T; t++) {
          const o = outcomes[row + t];
          if (o === TP) tpPos[t * nd + tp[t]++] = j;
          else if (o === FP) {
            fp[t]++;
            continue;
          }
          // a TP or an ignored detection: a candidate maximum when the next one is a FP or it is the last
          if (next < 0 || outcomes[next + t] === FP) {
            const c = t * cs + nc[t]++;
            candPos[c] = j;
            candMax[c] = tp[t] / (fp[t] + tp[t] + SPACING_1);
          }
        }
      }
      for (let t = 0; t < T; t++) {
        const c0 = t * cs;
        let ncT = nc[t];
        const tpT = tp[t];
        if (nd > 0 && (ncT === 0 || candPos[c0 + ncT - 1] !== nd - 1)) {
          // the last detection is a FP: it is a candidate too (the envelope's right end)
          candPos[c0 + ncT] = nd - 1;
          candMax[c0 + ncT] = tpT / (fp[t] + tpT + SPACING_1);
          ncT++;
        }
        for (let c = c0 + ncT - 2; c >= c0; c--) if (candMax[c + 1] > candMax[c]) candMax[c] = candMax[c + 1];
        out.recall[((t * K + k) * A + a) * M + m] = nd > 0 ? tpT / npig : 0;
        let stopped = false;
        for (let r = 0; r < R; r++) {
          const at = (((t * R + r) * K + k) * A + a) * M + m;
          const need_r = need[r];
          if (stopped || nd === 0 || need_r > tpT) {
            stopped = true;
            out.precision[at] = 0;
            out.scores[at] = 0;
            continue;
          }
          const pi = need_r === 0 ? 0 : tpPos[t * nd + need_r - 1];
          // first candidate at or after pi
          let lo = c0;
          let hi = c0 + ncT - 1;
          while (lo < hi) {
            const mid = (lo + hi) >>> 1;
            if (candPos[mid] < pi) lo = mid + 1;
            else hi = mid;
          }
          out.precision[at] = candMax[lo];
          out.scores[at] = scores[sortedAt[pi]];
        }
      }
    }
  }
}

export function accumulateAll(records: CategoryRecords[], K: number, A: number, T: number, recThrs: Float64Array, maxDets: number[]): Accumulated {
  const out = emptyAccumulated(T, recThrs.length, K, A, maxDets.length);
  for (let k = 0; k < K; k++) accumulateCategory(out, k, records[k], recThrs, maxDets);
  return out;
}
