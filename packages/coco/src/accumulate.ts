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

interface Scratch {
  sel: Int32Array;
  tpPos: Int32Array;
  candPos: Int32Array;
  candMax: Float64Array;
}

function scratchFor(n: number, s?: Scratch): Scratch {
  if (s && s.sel.length >= n) return s;
  return { sel: new Int32Array(n), tpPos: new Int32Array(n + 1), candPos: new Int32Array(n + 1), candMax: new Float64Array(n + 1) };
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
 * expression at the same position, so the cells are the same doubles.
 */
export function accumulateCategory(out: Accumulated, k: number, rec: CategoryRecords, recThrs: Float64Array, maxDets: number[]): void {
  const { T, R, K, A, M } = out;
  if (rec.imagesWithRecord === 0) return;
  const n = rec.count;
  const scores = rec.scores.data;
  const ranks = rec.ranks.data;
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  scoreOrder(scores, order);
  let maxRank = -1;
  for (let i = 0; i < n; i++) if (ranks[i] > maxRank) maxRank = ranks[i];
  let s = scratchFor(n);
  const need = new Int32Array(R);
  const byT = new Uint8Array(T * n);
  const cut = new Uint8Array(T * n);
  for (let a = 0; a < A; a++) {
    const npig = rec.npig[a];
    if (npig === 0) continue;
    for (let r = 0; r < R; r++) need[r] = tpNeeded(recThrs[r], npig);
    // the outcomes in score order, threshold-major: byT[t * n + j]
    const outcomes = rec.outcomes[a].data;
    for (let j = 0; j < n; j++) {
      const from = order[j] * T;
      for (let t = 0; t < T; t++) byT[t * n + j] = outcomes[from + t];
    }
    for (let m = 0; m < M; m++) {
      const maxDet = maxDets[m];
      let nd: number;
      let src: Uint8Array;
      let sortedAt: Int32Array;
      let stride: number;
      if (maxRank < maxDet) {
        nd = n;
        src = byT;
        stride = n;
        sortedAt = order;
      } else {
        // the detections within maxDet of their image, in score order
        s = scratchFor(n, s);
        nd = 0;
        for (let i = 0; i < n; i++) if (ranks[order[i]] < maxDet) s.sel[nd++] = i;
        for (let t = 0; t < T; t++) for (let j = 0; j < nd; j++) cut[t * nd + j] = byT[t * n + s.sel[j]];
        for (let j = 0; j < nd; j++) s.sel[j] = order[s.sel[j]];
        src = cut;
        stride = nd;
        sortedAt = s.sel;
      }
      const { tpPos, candPos, candMax } = s;
      for (let t = 0; t < T; t++) {
        let tp = 0;
        let fp = 0;
        let nc = 0;
        const base = t * stride;
        for (let j = 0; j < nd; j++) {
          const o = src[base + j];
          if (o === TP) tpPos[tp++] = j;
          else if (o === FP) {
            fp++;
            continue;
          }
          // a TP or an ignored detection: a candidate maximum when the next one is a FP or it is the last
          if (j === nd - 1 || src[base + j + 1] === FP) {
            candPos[nc] = j;
            candMax[nc++] = tp / (fp + tp + SPACING_1);
          }
        }
        if (nd > 0 && (nc === 0 || candPos[nc - 1] !== nd - 1)) {
          // the last detection is a FP: it is a candidate too (the envelope's right end)
          candPos[nc] = nd - 1;
          candMax[nc++] = tp / (fp + tp + SPACING_1);
        }
        for (let c = nc - 2; c >= 0; c--) if (candMax[c + 1] > candMax[c]) candMax[c] = candMax[c + 1];
        out.recall[((t * K + k) * A + a) * M + m] = nd > 0 ? tp / npig : 0;
        let stopped = false;
        for (let r = 0; r < R; r++) {
          const at = (((t * R + r) * K + k) * A + a) * M + m;
          const c = need[r];
          if (stopped || nd === 0 || c > tp) {
            stopped = true;
            out.precision[at] = 0;
            out.scores[at] = 0;
            continue;
          }
          const pi = c === 0 ? 0 : tpPos[c - 1];
          // first candidate at or after pi
          let lo = 0;
          let hi = nc - 1;
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
