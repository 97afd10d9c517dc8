/**
 * evaluate_bdry.m for one (image, class): crop the margin, threshold the soft prediction at every
 * threshold (`>=`), thin, and count matches against the ground truth with correspondPixels.
 */
import { inputError } from '@devkit/core';
import { CorrespondTarget, DEFAULT_MAX_DIST, DEFAULT_SEED } from './correspond.js';
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
  const thresholds = boundaryThresholds(nthresh);
  const cutoffs = thresholdCutoffs(thresholds);
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
  const target = sumR > 0 && gtCrop !== null
    ? new CorrespondTarget(gtCrop, H, W, { maxDist: options.maxDist ?? DEFAULT_MAX_DIST, seed: options.seed ?? DEFAULT_SEED })
    : null;
  counts.sumR.fill(target ? sumR : 0);

  // Histogram: ge[c] = number of pixels with value >= c (the size of the map at cut-off c).
  const thinner = new Thinner(H, W);
  const S = thinner.stride;
  const minCut = cutoffs.length > 0 ? Math.min(...cutoffs) : 256;
  const hist = new Int32Array(257);
  const colFill = new Int32Array(W + 1); // candidates per column (below)
  for (let y = 0; y < H; y++) {
    const src = (y + margin) * width + margin;
    for (let x = 0; x < W; x++) {
      const v = pred[src + x];
      hist[v]++;
      if (v >= minCut) colFill[x + 1]++;
    }
  }
  const ge = new Int32Array(257);
  for (let v = 255; v >= 0; v--) ge[v] = ge[v + 1] + hist[v];
  // The pixels of the lowest threshold's map in MATLAB linear order (x outer, y inner): padded index, row-major
  // index and value. A threshold's map is the entries with value >= its cut-off, already in the order in which
  // correspondPixels numbers its nodes.
  const nCand = ge[minCut];
  const candPad = new Int32Array(nCand);
  const candRm = new Int32Array(nCand);
  const candVal = new Uint8Array(nCand);
  /** The near-pixel id of the candidate where it can match (within tolerance of the ground truth), else -1. */
  const candId = new Int32Array(nCand).fill(-1);
  for (let x = 0; x < W; x++) colFill[x + 1] += colFill[x];
  for (let y = 0; y < H; y++) {
    const src = (y + margin) * width + margin;
    for (let x = 0; x < W; x++) {
      const v = pred[src + x];
      if (v < minCut) continue;
      const slot = colFill[x]++;
      candPad[slot] = (y + 1) * S + x + 1;
      candRm[slot] = y * W + x;
      candVal[slot] = v;
      if (target !== null) candId[slot] = target.nearIdOf(y * W + x);
    }
  }

  const buf = thinner.buf;
  let prevK = -1;
  let prevT = -1;
  // the map in `buf` (padded indices, MATLAB order) and its matchable pixels (padded, row-major, near id)
  const on = new Int32Array(nCand);
  const onNearPad = new Int32Array(nCand);
  const onNearRm = new Int32Array(nCand);
  const onNearId = new Int32Array(nCand);
  let inBuf = 0;
  const pixels1 = new Int32Array(nCand);
  const ids1 = new Int32Array(nCand);
  // The matchable pixels of the last correspondPixels call and its count: the graph (and the reseeded
  // random stream) depends on nothing else, so an identical list gives an identical count.
  const lastPixels = new Int32Array(nCand);
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
    for (let i = 0; i < inBuf; i++) buf[on[i]] = 0;
    let n = 0;
    let nNear = 0;
    for (let i = 0; i < nCand; i++) {
      if (candVal[i] < cut) continue;
      const q = candPad[i];
      buf[q] = 1;
      on[n++] = q;
      const id = candId[i];
      if (id >= 0) {
        onNearPad[nNear] = q;
        onNearRm[nNear] = candRm[i];
        onNearId[nNear++] = id;
      }
    }
    inBuf = n; // = k
    const deleted = thinner.thinInPlace(on, k);
    counts.sumP[t] = k - deleted;
    if (!target) continue;
    // Thinned pixels that can match, in MATLAB linear order.
    let c = 0;
    for (let i = 0; i < nNear; i++) {
      if (buf[onNearPad[i]] === 0) continue;
      pixels1[c] = onNearRm[i];
      ids1[c++] = onNearId[i];
    }
    let same = c === lastCount;
    for (let i = 0; same && i < c; i++) same = pixels1[i] === lastPixels[i];
    let matched = lastMatched;
    if (!same) {
      matched = target.count(pixels1, c, ids1);
      lastPixels.set(pixels1.subarray(0, c));
      lastCount = c;
      lastMatched = matched;
    }
    counts.cntR[t] = matched;
    counts.cntP[t] = matched;
  }
  return counts;
}
