/**
 * evaluate_bdry.m for one (image, class): crop the margin, threshold the soft prediction at every
 * threshold (`>=`), thin, and count matches against the ground truth with correspondPixels.
 */
import { inputError } from '@cvdevkit/core';
import { resolveCorrespondOptions } from './correspond/index.js';
import { CorrespondTarget, checkTargetOptions } from './correspond/target.js';
import { Thinner } from './thin.js';
import { boundaryThresholds, thresholdCutoffs } from './thresholds.js';

/** Per-threshold counts of one (image, class): the arrays have nthresh entries. */
export interface BoundaryCounts {
  cntR: Float64Array;
  sumR: Float64Array;
  cntP: Float64Array;
  sumP: Float64Array;
}

export interface EvaluateBoundaryOptions {
  /** Pixels cropped on every side before anything else (default 3). */
  margin?: number;
  /** Number of thresholds (default 99). */
  nthresh?: number;
  /** correspondPixels tolerance as a fraction of the cropped diagonal (default 0.0075). */
  maxDist?: number;
  /** erand48 seed applied at every correspondPixels call (default 12345). */
  seed?: number;
  /**
   * The caller knows that every value of `pred` is 0 (e.g. its PNG decoder saw it): the map is not scanned again.
   * Only a shortcut: it must be true when given (default false: the map is checked).
   */
  predAllZero?: boolean;
}

/** Whether every byte of `a` is 0 (read as 32-bit words where aligned). */
export function isAllZero(a: Uint8Array): boolean {
  const n = a.length;
  let i = 0;
  for (; i < n && ((a.byteOffset + i) & 3) !== 0; i++) if (a[i] !== 0) return false;
  const words = (n - i) >> 2;
  const w = words > 0 ? new Int32Array(a.buffer, a.byteOffset + i, words) : new Int32Array(0);
  for (let k = 0; k < words; ) {
    let acc = 0;
    for (const end = Math.min(words, k + 1024); k < end; k++) acc |= w[k];
    if (acc !== 0) return false;
  }
  for (i += words << 2; i < n; i++) if (a[i] !== 0) return false;
  return true;
}

/** The uint8 cut-offs of `boundaryThresholds(nthresh)`, computed once per nthresh (read-only here). */
const cutoffCache = new Map<number, Uint8Array>();
function cutoffsOf(nthresh: number): Uint8Array {
  let c = cutoffCache.get(nthresh);
  if (c === undefined) {
    c = thresholdCutoffs(boundaryThresholds(nthresh));
    if (cutoffCache.size < 8) cutoffCache.set(nthresh, c);
  }
  return c;
}

export function emptyCounts(nthresh: number): BoundaryCounts {
  return {
    cntR: new Float64Array(nthresh),
    sumR: new Float64Array(nthresh),
    cntP: new Float64Array(nthresh),
    sumP: new Float64Array(nthresh),
  };
}

/**
 * evaluate_bdry.m: `pred` = uint8 soft map (v/255), `gt` = 0/1 (any nonzero = boundary) or null for no
 * ground truth; both row-major height×width, uncropped.
 * Hot kernel, kept whole (> 80 lines): split into phases (inputs, crop, pixel order, threshold loop) it measured 3–5 %
 * slower on the no-GT bench unit (CPU time, interleaved in one process), so its steps are numbered comments instead.
 */
export function evaluateBoundary(
  pred: Uint8Array,
  gt: Uint8Array | null,
  height: number,
  width: number,
  options: EvaluateBoundaryOptions = {},
): BoundaryCounts {
  const margin = options.margin ?? 3;
  const nthresh = options.nthresh ?? 99;
  if (!Number.isInteger(height) || !Number.isInteger(width) || height < 0 || width < 0) {
    throw inputError({ code: 'input/size', field: 'size', expected: 'non-negative integer height and width', found: `${height}x${width}` });
  }
  if (pred.length !== height * width) {
    throw inputError({ code: 'input/size-mismatch', field: 'prediction', expected: `${height}x${width} = ${height * width} pixels`, found: `${pred.length}` });
  }
  if (gt !== null && gt.length !== height * width) {
    throw inputError({ code: 'input/size-mismatch', field: 'ground truth', expected: `${height}x${width} = ${height * width} pixels (the prediction's size)`, found: `${gt.length}` });
  }
  if (!Number.isInteger(margin) || margin < 0) throw new RangeError(`margin must be a non-negative integer, got ${margin}`);
  const cutoffs = cutoffsOf(nthresh);
  const counts = emptyCounts(nthresh);

  // 1. Crop the margin (MATLAB (1+m:end-m, 1+m:end-m)).
  const H = Math.max(0, height - 2 * margin);
  const W = Math.max(0, width - 2 * margin);
  if (H === 0 || W === 0) return counts;

  // 3. bdryExist after cropping.
  let gtCrop: Uint8Array | null = null;
  let sumR = 0;
  if (gt !== null) {
    gtCrop = new Uint8Array(H * W);
    for (let y = 0; y < H; y++) {
      const src = (y + margin) * width + margin;
      for (let x = 0; x < W; x++) {
        if (gt[src + x] !== 0) {
          gtCrop[y * W + x] = 1;
          sumR++;
        }
      }
    }
  }
  counts.sumR.fill(sumR);

  // Histogram: ge[c] = number of pixels with value >= c (the size of the map at cut-off c), for c >= minCut.
  const minCut = cutoffs.length > 0 ? Math.min(...cutoffs) : 256;
  const hist = new Int32Array(257);
  // only values >= minCut are counted (nothing below is ever read), and an all-zero map (most units of a
  // submission) is recognised 4 bytes at a time and not walked at all
  const zeroMap = minCut > 0 && (options.predAllZero === true || isAllZero(pred));
  for (let y = 0; !zeroMap && y < H; y++) {
    const src = (y + margin) * width + margin;
    for (let x = 0; x < W; x++) {
      const v = pred[src + x];
      if (v >= minCut) hist[v]++;
    }
  }
  const ge = new Int32Array(257);
  for (let v = 255; v >= 0; v--) ge[v] = ge[v + 1] + hist[v];
  // The pixels of the lowest threshold's map by decreasing value (word and bit in the thinner's image): a
  // threshold's map is the first ge[cut] of them, so the maps of decreasing thresholds grow by appending.
  const nCand = ge[minCut];
  // No pixel reaches the lowest threshold (an all-zero map, most units of a submission): every map is empty, so
  // sumP = cntR = cntP = 0 and correspondPixels is never called; nothing of the GT side is prepared.
  const targetOptions = resolveCorrespondOptions({ maxDist: options.maxDist, seed: options.seed });
  if (sumR > 0) checkTargetOptions(targetOptions); // the same errors whether or not a target is needed
  if (nCand === 0) return counts;
  const target = sumR > 0 && gtCrop !== null ? new CorrespondTarget(gtCrop, H, W, targetOptions) : null;
  const thinner = new Thinner(H, W);
  const candWord = new Int32Array(nCand);
  const candBit = new Int32Array(nCand);
  const slot = new Int32Array(257);
  for (let v = minCut; v < 256; v++) slot[v] = ge[v + 1];
  // The matchable pixels among them (within tolerance of the ground truth) in MATLAB linear order (x outer, y
  // inner), the order in which correspondPixels numbers its nodes: word and bit position (word · 32 + x & 31) in
  // the thinner's image, near-pixel id (the target's numbering: one per pixel).
  let nNear = 0;
  const nearWordBit = new Int32Array(target !== null ? nCand : 0);
  const nearId = new Int32Array(nearWordBit.length);
  for (let x = 0; x < W; x++) {
    const bit = thinner.bitOf(x);
    for (let y = 0; y < H; y++) {
      const v = pred[(y + margin) * width + margin + x];
      if (v < minCut) continue;
      const word = thinner.wordOf(y, x);
      const i = slot[v]++;
      candWord[i] = word;
      candBit[i] = bit;
      const id = target !== null ? target.nearIdOf(y * W + x) : -1;
      if (id >= 0) {
        nearWordBit[nNear] = (word << 5) | (x & 31);
        nearId[nNear++] = id;
      }
    }
  }

  const bits = thinner.bits;
  // The current map, unthinned, and its words that are not 0 (a word once set stays set as the map grows).
  const map = new Int32Array(bits.length);
  const mapWords = new Int32Array(bits.length);
  let nWords = 0;
  let inMap = 0;
  let prevK = -1;
  let prevT = -1;
  const ids1 = new Int32Array(nNear);
  // The matchable pixels of the last correspondPixels call (their ids) and its count: the graph (and the reseeded
  // random stream) depends on nothing else, so an identical list gives an identical count.
  const lastIds = new Int32Array(nNear);
  let lastCount = -1;
  let lastMatched = 0;
  // Highest threshold first: every call is independent (the stream is reseeded), so the order only decides the
  // warm start of the matcher; growing maps start it on the smallest map instead of a cold solve on the largest.
  for (let t = nthresh - 1; t >= 0; t--) {
    const cut = cutoffs[t];
    const k = ge[cut];
    if (k === prevK && prevT >= 0) {
      // Same binary map as the previously evaluated (next higher) threshold: same thinning, same (reseeded) matching.
      counts.cntR[t] = counts.cntR[prevT];
      counts.cntP[t] = counts.cntP[prevT];
      counts.sumP[t] = counts.sumP[prevT];
      continue;
    }
    prevK = k;
    prevT = t;
    if (k === 0) continue; // empty map: sumP = 0, nothing matched, correspondPixels draws nothing
    for (; inMap < k; inMap++) {
      const w = candWord[inMap];
      if (map[w] === 0) mapWords[nWords++] = w;
      map[w] |= candBit[inMap];
    }
    // the thinned image of the previous map has no bit outside these words
    for (let j = 0; j < nWords; j++) bits[mapWords[j]] = map[mapWords[j]];
    const deleted = thinner.thinInPlace(mapWords, nWords);
    counts.sumP[t] = k - deleted;
    if (!target) continue;
    // Thinned pixels that can match (their ids), in MATLAB linear order (only pixels of the map can be on).
    let c = 0;
    for (let i = 0; i < nNear; i++) {
      const wb = nearWordBit[i];
      ids1[c] = nearId[i];
      c += (bits[wb >> 5] >>> (wb & 31)) & 1;
    }
    let same = c === lastCount;
    for (let i = 0; same && i < c; i++) same = ids1[i] === lastIds[i];
    let matched = lastMatched;
    if (!same) {
      matched = target.count(null, c, ids1);
      lastIds.set(ids1.subarray(0, c));
      lastCount = c;
      lastMatched = matched;
    }
    counts.cntR[t] = matched;
    counts.cntP[t] = matched;
  }
  return counts;
}
