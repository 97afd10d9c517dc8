import { FP, IGNORED, TP, type CategoryRecords } from './records.js';
import { compareScoreDesc } from './score-order.js';

const SPACING_1 = 2 ** -52;

/**
 * `eval['precision']` (T×R×K×A×M), `eval['recall']` (T×K×A×M), `eval['scores']` (T×R×K×A×M), C order.
 *
 * The precision (and scores) cells may be limited to some (area range, maxDet) pairs, those a report reads
 * (`--arrays` takes them all): their last axis then holds S slots, `slot[a * M + m]` (-1 for a pair not
 * computed). With every pair, S = A·M and slot[a * M + m] = a * M + m: pycocotools' layout.
 */
export interface Accumulated {
  T: number;
  R: number;
  K: number;
  A: number;
  M: number;
  /** T×R×K×S */
  precision: Float64Array;
  recall: Float64Array;
  /** T×R×K×S, or null when not asked for (only `--arrays` shows them) */
  scores: Float64Array | null;
  S: number;
  slot: Int32Array;
}

/**
 * The arrays before accumulate, every cell -1. `cells[a * M + m]` says which (area, maxDet) pairs get
 * precision cells (all when undefined); `withScores` false leaves out the scores array.
 */
export function emptyAccumulated(T: number, R: number, K: number, A: number, M: number, cells?: readonly boolean[], withScores = true): Accumulated {
  const slot = new Int32Array(A * M).fill(-1);
  let S = 0;
  for (let i = 0; i < A * M; i++) if (cells === undefined || cells[i]) slot[i] = S++;
  return {
    T, R, K, A, M, S, slot,
    precision: new Float64Array(T * R * K * S).fill(-1),
    recall: new Float64Array(T * K * A * M).fill(-1),
    scores: withScores ? new Float64Array(T * R * K * S).fill(-1) : null,
  };
}

/** precision[t, r, k, a, m] (pycocotools' index); an error for a pair that was not accumulated. */
export function precisionIndex(acc: Accumulated, t: number, r: number, k: number, a: number, m: number): number {
  const s = acc.slot[a * acc.M + m];
  if (s < 0) throw new Error(`coco accumulate: precision of area range ${a}, maxDets index ${m} was not computed`);
  return ((t * acc.R + r) * acc.K + k) * acc.S + s;
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
  live: Int32Array;
  sel: Int32Array;
  rows: Int32Array;
  need: Int32Array;
  tpPos: Int32Array;
  candPos: Int32Array;
  candMax: Float64Array;
  /** per threshold: true positives (the recall-only pairs) */
  tpCount: Int32Array;
}

let scratch: AccumulateScratch | undefined;

/** The scratch arrays, grown to hold n detections at T thresholds and R recall thresholds (contents undefined). */
function scratchFor(n: number, T: number, R: number): AccumulateScratch {
  const s = scratch;
  if (s && s.order.length >= n && s.need.length >= R && s.tpPos.length >= T * n && s.candMax.length >= T * (n + 1) && s.tpCount.length >= T) return s;
  const cap = Math.max(n, s ? s.order.length : 0);
  const t = Math.max(T, s ? Math.floor(s.candMax.length / (s.order.length + 1)) : 0);
  const r = Math.max(R, s ? s.need.length : 0);
  scratch = {
    order: new Int32Array(cap),
    live: new Int32Array(cap),
    sel: new Int32Array(cap),
    rows: new Int32Array(cap),
    need: new Int32Array(r),
    tpPos: new Int32Array(t * cap),
    candPos: new Int32Array(t * (cap + 1)),
    candMax: new Float64Array(t * (cap + 1)),
    tpCount: new Int32Array(t),
  };
  return scratch;
}

/** Sizes the work arrays once for categories of up to n detections (growing them category by category allocates each time). */
export function reserveAccumulate(n: number, T: number, R: number): void {
  scratchFor(n, T, R);
}

/**
 * 0..n-1 in `argsort(-scores, kind='mergesort')` order (descending, stable, NaN last), written into `order`
 * (`tmp` is work space of the same size). The records hold each image's detections already in score
 * order, so this is a bottom-up merge of those runs (found as maximal non-increasing stretches, whatever
 * their origin): n·log2(runs) comparisons, in place of a general sort. A tie takes the left run first,
 * which keeps the stable order.
 */
export function runMergeOrder(scores: ArrayLike<number>, n: number, order: Int32Array, tmp: Int32Array): Int32Array {
  if (n < 2) {
    for (let i = 0; i < n; i++) order[i] = i;
    return order.subarray(0, n);
  }
  // run boundaries: runs[r]..runs[r+1] (a typed array reused between calls: no garbage per category)
  if (runBounds.length < n + 1) runBounds = new Int32Array(Math.max(n + 1, 2 * runBounds.length));
  const runs = runBounds;
  let nb = 0;
  runs[nb++] = 0;
  for (let i = 1; i < n; i++) if (compareScoreDesc(scores[i - 1], scores[i]) > 0) runs[nb++] = i;
  runs[nb++] = n;
  // the merge passes alternate between the two arrays: start in the one that makes the last pass end in
  // `order` (no copy back, a path the optimised code would first meet late and be thrown away for)
  let passes = 0;
  for (let r = nb - 1; r > 1; r = (r + 1) >> 1) passes++;
  let src = passes % 2 === 0 ? order : tmp;
  let dst = passes % 2 === 0 ? tmp : order;
  for (let i = 0; i < n; i++) src[i] = i;
  while (nb > 2) {
    // merge runs pairwise; the boundaries kept (every other one) are compacted in place
    let kept = 1;
    for (let r = 0; r + 1 < nb; r += 2) {
      const lo = runs[r];
      const mid = runs[r + 1];
      const hi = r + 2 < nb ? runs[r + 2] : mid;
      let i = lo;
      let j = mid;
      let o = lo;
      while (i < mid && j < hi) {
        if (compareScoreDesc(scores[src[j]], scores[src[i]]) < 0) dst[o++] = src[j++];
        else dst[o++] = src[i++];
      }
      while (i < mid) dst[o++] = src[i++];
      while (j < hi) dst[o++] = src[j++];
      runs[kept++] = hi;
    }
    nb = kept;
    const x = src;
    src = dst;
    dst = x;
  }
  return order.subarray(0, n);
}

let runBounds = new Int32Array(1024);

/**
 * `accumulate()` (E:315-420) for one category k, every area range and maxDet: the images' first maxDet
 * detections, concatenated in image order and stably sorted by score; precision `tp / (fp + tp + 2^-52)`
 * made monotone right to left and sampled at the recall thresholds with `searchsorted(side='left')`.
 *
 * The same numbers, computed with fewer divisions: a threshold's `searchsorted` position is where the
 * TP count first reaches `tpNeeded`, and the right-to-left maximum of the precision from a position on is
 * the maximum over the positions followed by a false positive (or last): precision only rises on a TP,
 * stays on an ignored detection and falls on a FP. Every precision used is computed by pycocotools'
 * expression at the same position, so the cells are the same doubles. One pass per IoU threshold over
 * the detections' rows of outcomes, its counts in local variables.
 *
 * A detection ignored at every threshold (in an area range, most are) is left out of the pass: its
 * precision is its predecessor's at every threshold, so neither a cell's position nor the envelope's
 * maximum changes without it; only the count of detections (`nd`, for the recall) and the first one's
 * score (the score at a recall threshold of 0, position 0) are taken from the whole list.
 */
export function accumulateCategory(out: Accumulated, k: number, rec: CategoryRecords, recThrs: Float64Array, maxDets: number[]): void {
  // (the loops over the detections are small functions of their own: this one only sequences them, so the
  // optimising compiler compiles it once, small, and never on stack in the middle of a large category)
  const { T, R, A, M } = out;
  if (rec.imagesWithRecord === 0) return;
  const n = rec.count;
  const scores = rec.scores.data;
  const ranks = rec.ranks.data;
  const s = scratchFor(n, T, R);
  const order = runMergeOrder(scores, n, s.order, s.sel);
  const maxRank = largest(ranks, n);
  const { need, live, sel, rows } = s;
  // per maxDet: the detections it keeps (pycocotools' nd) and the first one's score
  const ndAll = new Int32Array(M);
  const firstScore = new Float64Array(M);
  for (let m = 0; m < M; m++) {
    if (maxRank < maxDets[m]) {
      ndAll[m] = n;
      firstScore[m] = n > 0 ? scores[order[0]] : 0;
    } else keptCount(order, n, ranks, maxDets[m], scores, ndAll, firstScore, m);
  }
  for (let a = 0; a < A; a++) {
    const npig = rec.npig[a];
    if (npig === 0) continue;
    for (let r = 0; r < R; r++) need[r] = tpNeeded(recThrs[r], npig);
    const outcomes = rec.outcomes[a].data;
    // the detections not ignored at every threshold, in score order
    const nl = notIgnored(order, n, outcomes, T, live);
    for (let m = 0; m < M; m++) {
      const maxDet = maxDets[m];
      let nd: number;
      let sortedAt: Int32Array;
      if (maxRank < maxDet) {
        nd = nl;
        sortedAt = live;
      } else {
        nd = keptOf(live, nl, ranks, maxDet, sel);
        sortedAt = sel;
      }
      const ndm = ndAll[m];
      const slot = out.slot[a * M + m];
      if (slot < 0) {
        recallOnly(out, s.tpCount, outcomes, sortedAt, nd, ndm, npig, k, a, m);
        continue;
      }
      // each detection's row of outcomes
      for (let j = 0; j < nd; j++) rows[j] = sortedAt[j] * T;
      for (let t = 0; t < T; t++) thresholdPass(out, s, outcomes, sortedAt, scores, nd, ndm, firstScore[m], npig, k, a, m, slot, t);
    }
  }
}

/** The largest of a[0, n) (-1 when n is 0). */
function largest(a: Int32Array, n: number): number {
  let max = -1;
  for (let i = 0; i < n; i++) if (a[i] > max) max = a[i];
  return max;
}

/** How many of the detections in `order[0, n)` rank below maxDet in their image, and the score of the first (into ndAll[m], firstScore[m]). */
function keptCount(order: Int32Array, n: number, ranks: Int32Array, maxDet: number, scores: Float64Array, ndAll: Int32Array, firstScore: Float64Array, m: number): void {
  let first = -1;
  let c = 0;
  for (let i = 0; i < n; i++) {
    if (ranks[order[i]] < maxDet) {
      if (c === 0) first = order[i];
      c++;
    }
  }
  ndAll[m] = c;
  firstScore[m] = first >= 0 ? scores[first] : 0;
}

/** The detections of `order[0, n)` not ignored at every threshold, in order, into `live`; returns how many. */
function notIgnored(order: Int32Array, n: number, outcomes: Uint8Array, T: number, live: Int32Array): number {
  let nl = 0;
  for (let i = 0; i < n; i++) {
    const d = order[i];
    const row = d * T;
    let t = 0;
    while (t < T && outcomes[row + t] === IGNORED) t++;
    if (t < T) live[nl++] = d;
  }
  return nl;
}

/** The detections of `live[0, nl)` that rank below maxDet in their image, into `sel`; returns how many. */
function keptOf(live: Int32Array, nl: number, ranks: Int32Array, maxDet: number, sel: Int32Array): number {
  let nd = 0;
  for (let i = 0; i < nl; i++) if (ranks[live[i]] < maxDet) sel[nd++] = live[i];
  return nd;
}

/**
 * The recall of an (area range, maxDet) pair without precision cells: the true positives among the kept detections,
 * per threshold (counted row by row: each detection's T outcomes are contiguous).
 */
function recallOnly(out: Accumulated, tpCount: Int32Array, outcomes: Uint8Array, sortedAt: Int32Array, nd: number, ndm: number, npig: number, k: number, a: number, m: number): void {
  const { T, K, A, M } = out;
  for (let t = 0; t < T; t++) tpCount[t] = 0;
  for (let j = 0; j < nd; j++) {
    const row = sortedAt[j] * T;
    for (let t = 0; t < T; t++) if (outcomes[row + t] === TP) tpCount[t]++;
  }
  for (let t = 0; t < T; t++) out.recall[((t * K + k) * A + a) * M + m] = ndm > 0 ? tpCount[t] / npig : 0;
}

/**
 * accumulateCategory's pass over the kept detections (`sortedAt[0, nd)`, their rows of outcomes in `s.rows`) at
 * threshold t, for area range a and maxDet m whose precision cells are at `slot`: one pass, the counts in locals (TP
 * positions, and the candidates for the envelope's maximum: a TP or ignored detection followed by a FP, and the
 * last detection), then the recall and the precision (and score) at each recall threshold. A function of its own:
 * the optimising compiler compiles it once, small, instead of compiling accumulateCategory whole twice (on stack,
 * then again).
 */
function thresholdPass(out: Accumulated, s: AccumulateScratch, outcomes: Uint8Array, sortedAt: Int32Array, scores: Float64Array, nd: number, ndm: number, firstScore: number, npig: number, k: number, a: number, m: number, slot: number, t: number): void {
  const { R, K, A, M, S } = out;
  const precision = out.precision;
  const scoresOut = out.scores;
  const { need, rows, tpPos, candPos, candMax } = s;
  const cs = nd + 1;
  const c0 = t * cs;
  const p0 = t * nd;
  let tpT = 0;
  let fpT = 0;
  let ncT = 0;
  let prevNotFp = false;
  for (let j = 0; j < nd; j++) {
    const o = outcomes[rows[j] + t];
    if (o === FP) {
      if (prevNotFp) {
        candPos[c0 + ncT] = j - 1;
        candMax[c0 + ncT] = tpT / (fpT + tpT + SPACING_1);
        ncT++;
      }
      fpT++;
      prevNotFp = false;
    } else {
      if (o === TP) tpPos[p0 + tpT++] = j;
      prevNotFp = true;
    }
  }
  if (nd > 0) {
    candPos[c0 + ncT] = nd - 1;
    candMax[c0 + ncT] = tpT / (fpT + tpT + SPACING_1);
    ncT++;
  }
  for (let c = c0 + ncT - 2; c >= c0; c--) if (candMax[c + 1] > candMax[c]) candMax[c] = candMax[c + 1];
  out.recall[((t * K + k) * A + a) * M + m] = ndm > 0 ? tpT / npig : 0;
  let stopped = false;
  for (let r = 0; r < R; r++) {
    const at = ((t * R + r) * K + k) * S + slot;
    const need_r = need[r];
    if (stopped || ndm === 0 || need_r > tpT) {
      stopped = true;
      precision[at] = 0;
      if (scoresOut !== null) scoresOut[at] = 0;
      continue;
    }
    if (need_r === 0) {
      // position 0: the envelope's maximum over every position (0 when every detection is ignored)
      precision[at] = nd > 0 ? candMax[c0] : 0;
      if (scoresOut !== null) scoresOut[at] = firstScore;
      continue;
    }
    const pi = tpPos[p0 + need_r - 1];
    // first candidate at or after pi
    let lo = c0;
    let hi = c0 + ncT - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (candPos[mid] < pi) lo = mid + 1;
      else hi = mid;
    }
    precision[at] = candMax[lo];
    if (scoresOut !== null) scoresOut[at] = scores[sortedAt[pi]];
  }
}

/** Every category; `cells` and `withScores` as in `emptyAccumulated` (the defaults: everything, as pycocotools). */
export function accumulateAll(records: CategoryRecords[], K: number, A: number, T: number, recThrs: Float64Array, maxDets: number[], cells?: readonly boolean[], withScores = true): Accumulated {
  const out = emptyAccumulated(T, recThrs.length, K, A, maxDets.length, cells, withScores);
  let largest = 0;
  for (let k = 0; k < K; k++) largest = Math.max(largest, records[k].count);
  reserveAccumulate(largest, T, recThrs.length);
  for (let k = 0; k < K; k++) accumulateCategory(out, k, records[k], recThrs, maxDets);
  return out;
}
