/**
 * pycocotools' AP in the diagnosis's terms (`SampledAveragePrecision` of core): a category's precision sampled at
 * the recall thresholds as `accumulate` computes it (E:375-410), and the summary mean over thresholds, recall points
 * and categories in C order with numpy's pairwise sum (`_summarize`, E:427-457).
 */
import type { SampledAveragePrecision } from '@cvdevkit/core';
import { pairwiseSum } from './pairwise-sum.js';

const EPS = 2 ** -52;

/** Precision envelope and the samples at the recall thresholds (`searchsorted` left; 0 past the last row). */
function samplesOf(rc: Float64Array, pr: Float64Array, nd: number, recThrs: Float64Array): Float64Array {
  for (let i = nd - 1; i > 0; i--) if (pr[i] > pr[i - 1]) pr[i - 1] = pr[i];
  const q = new Float64Array(recThrs.length);
  let i = 0;
  for (let r = 0; r < recThrs.length; r++) {
    const thr = recThrs[r];
    while (i < nd && rc[i] < thr) i++;
    if (i >= nd) break;
    q[r] = pr[i];
  }
  return q;
}

let rcBuf = new Float64Array(0);
let prBuf = new Float64Array(0);

/** One category's `precision[t, :, k, a, m]` from its rows in score order (ignored rows have tp = fp = 0). */
export function cocoPrecisionSamples(tp: ArrayLike<number>, fp: ArrayLike<number>, npos: number, recThrs: Float64Array): Float64Array | undefined {
  if (npos === 0) return undefined;
  const nd = tp.length;
  if (rcBuf.length < nd) {
    rcBuf = new Float64Array(Math.max(nd, 2 * rcBuf.length));
    prBuf = new Float64Array(rcBuf.length);
  }
  // A row with neither flag (ignored) repeats the previous row's recall and precision (or is (0, 0) first): leaving
  // it out changes neither the envelope at the rows kept nor the first row reaching a recall threshold.
  let t = 0;
  let f = 0;
  let m = 0;
  for (let i = 0; i < nd; i++) {
    const ti = tp[i];
    const fi = fp[i];
    if (ti === 0 && fi === 0) continue;
    t += ti;
    f += fi;
    rcBuf[m] = t / npos;
    prBuf[m++] = t / (f + t + EPS);
  }
  return samplesOf(rcBuf, prBuf, m, recThrs);
}

/** `np.mean` of the samples in C order (threshold, recall point, category), the left-out categories skipped. */
export function cocoMeanOfSamples(samples: readonly (readonly (Float64Array | undefined)[])[]): number {
  let n = 0;
  for (const row of samples) for (const s of row) if (s) n += s.length;
  if (n === 0) return NaN;
  const flat = new Float64Array(n);
  let k = 0;
  for (const row of samples) {
    const R = row.reduce((m, s) => (s ? Math.max(m, s.length) : m), 0);
    for (let r = 0; r < R; r++) for (const s of row) if (s) flat[k++] = s[r];
  }
  return pairwiseSum(flat) / n;
}

/** The COCO AP rule for the diagnosis, at these recall thresholds. */
export function cocoSampledAp(recThrs: Float64Array): SampledAveragePrecision {
  return {
    sample: (tp, fp, npos) => cocoPrecisionSamples(tp, fp, npos, recThrs),
    mean: cocoMeanOfSamples,
  };
}

let curvePr = new Float64Array(0);

/** The 101-point interpolated AP of a curve given as (recall, precision), for Hoiem's normalised precision. */
export function cocoCurveAp(recThrs: Float64Array): (recall: ArrayLike<number>, precision: ArrayLike<number>) => number {
  return (recall, precision) => {
    const nd = recall.length;
    // the recall is only read; the precision's envelope is built in a scratch copy (the caller's array is kept)
    const rc = recall instanceof Float64Array ? recall : Float64Array.from(recall);
    if (curvePr.length < nd) curvePr = new Float64Array(Math.max(nd, 2 * curvePr.length));
    const pr = curvePr;
    for (let i = 0; i < nd; i++) pr[i] = precision[i];
    return pairwiseSum(samplesOf(rc, pr, nd, recThrs)) / recThrs.length;
  };
}
