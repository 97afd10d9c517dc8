/**
 * collect_eval_bdry.m for one class: ODS (summed counts, 100-step interpolated max F), OIS (per-image
 * best threshold) and AP (101-point interpolated precision over unique recalls).
 */
import type { BoundaryCounts } from './evaluate.js';
import { matlabColon, matlabLinspace } from './thresholds.js';

export interface BoundaryScores {
  odsThreshold: number;
  odsRecall: number;
  odsPrecision: number;
  odsF: number;
  oisRecall: number;
  oisPrecision: number;
  oisF: number;
  ap: number;
  /** The ODS curve over thresholds (R, P, F from the summed counts). */
  curve: { threshold: Float64Array; recall: Float64Array; precision: Float64Array; f: Float64Array };
}

/** fmeasure(r,p) = 2*p.*r./(p+r+((p+r)==0)). */
export function fmeasure(r: number, p: number): number {
  const s = p + r;
  return (2 * p * r) / (s + (s === 0 ? 1 : 0));
}

/** cnt ./ (sum + (sum==0)). */
function ratio(cnt: number, sum: number): number {
  return cnt / (sum + (sum === 0 ? 1 : 0));
}

const D100 = matlabLinspace(0, 1, 100);
const RI = matlabColon(0, 0.01, 1);

/** maxF of collect_eval_bdry.m: interpolate between neighbouring thresholds, keep strict improvements. */
export function maxF(thresh: ArrayLike<number>, R: ArrayLike<number>, P: ArrayLike<number>): { t: number; r: number; p: number; f: number } {
  let bestT = thresh[0];
  let bestR = R[0];
  let bestP = P[0];
  let bestF = fmeasure(R[0], P[0]);
  for (let i = 1; i < thresh.length; i++) {
    for (let k = 0; k < D100.length; k++) {
      const d = D100[k];
      const e = 1 - d;
      const t = thresh[i] * d + thresh[i - 1] * e;
      const r = R[i] * d + R[i - 1] * e;
      const p = P[i] * d + P[i - 1] * e;
      const f = fmeasure(r, p);
      if (f > bestF) {
        bestT = t;
        bestR = r;
        bestP = p;
        bestF = f;
      }
    }
  }
  return { t: bestT, r: bestR, p: bestP, f: bestF };
}

/** Relative margin of the segment bound in odsMaxF: far above the few ulps the computed F can exceed its exact value by. */
const BOUND_MARGIN = 1e-9;

/**
 * `maxF(thresh, R, P).f`, the ODS F, bit for bit, for the bootstrap (which needs only F, thousands of
 * times). F = 2PR/(P+R) grows with R and with P, so no point of a segment exceeds F at (the larger R,
 * the larger P) of its two ends; a segment whose bound is below the running best (with a margin far
 * wider than rounding) cannot hold a strict improvement and is skipped; the others are scanned as
 * maxF scans them. NaN bounds never skip.
 */
export function odsMaxF(R: ArrayLike<number>, P: ArrayLike<number>): number {
  let bestF = fmeasure(R[0], P[0]);
  for (let i = 1; i < R.length; i++) {
    const bound = fmeasure(Math.max(R[i], R[i - 1]), Math.max(P[i], P[i - 1]));
    if (bound * (1 + BOUND_MARGIN) < bestF) continue;
    for (let k = 0; k < D100.length; k++) {
      const d = D100[k];
      const e = 1 - d;
      const f = fmeasure(R[i] * d + R[i - 1] * e, P[i] * d + P[i - 1] * e);
      if (f > bestF) bestF = f;
    }
  }
  return bestF;
}

/** `interp1(x, y, xi)` (linear; NaN outside [x(1), x(end)]), x strictly increasing. */
export function interp1Linear(x: ArrayLike<number>, y: ArrayLike<number>, xi: ArrayLike<number>): Float64Array {
  const out = new Float64Array(xi.length);
  const n = x.length;
  for (let k = 0; k < xi.length; k++) {
    const v = xi[k];
    if (!(v >= x[0] && v <= x[n - 1])) {
      out[k] = NaN;
      continue;
    }
    // last j with x[j] <= v (binary search)
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (x[mid] <= v) lo = mid;
      else hi = mid - 1;
    }
    if (lo === n - 1 || x[lo] === v) {
      out[k] = y[lo];
      continue;
    }
    const slope = (y[lo + 1] - y[lo]) / (x[lo + 1] - x[lo]);
    out[k] = slope * (v - x[lo]) + y[lo];
  }
  return out;
}

/** AP of collect_eval_bdry.m: unique(R) (first occurrence), interp1 at 0:0.01:1, NaN → 0, sum × 0.01. */
export function averagePrecision(R: ArrayLike<number>, P: ArrayLike<number>): number {
  const idx = Array.from({ length: R.length }, (_, i) => i);
  // Stable sort by R: the first index of each value comes first.
  idx.sort((a, b) => (R[a] < R[b] ? -1 : R[a] > R[b] ? 1 : a - b));
  const ru: number[] = [];
  const pu: number[] = [];
  for (const i of idx) {
    if (ru.length > 0 && ru[ru.length - 1] === R[i]) continue;
    ru.push(R[i]);
    pu.push(P[i]);
  }
  if (ru.length <= 1) return 0;
  const pint = interp1Linear(ru, pu, RI);
  let s = 0;
  for (let k = 0; k < pint.length; k++) s += Number.isNaN(pint[k]) ? 0 : pint[k];
  return s * 0.01;
}

/** collect_eval_bdry.m over the images of one class (images in sorted name order). */
export function collectBoundaryScores(perImage: readonly BoundaryCounts[], thresholds: Float64Array): BoundaryScores {
  const nt = thresholds.length;
  const cntR = new Float64Array(nt);
  const sumR = new Float64Array(nt);
  const cntP = new Float64Array(nt);
  const sumP = new Float64Array(nt);
  let cntRMax = 0;
  let sumRMax = 0;
  let cntPMax = 0;
  let sumPMax = 0;
  for (const c of perImage) {
    if (c.cntR.length !== nt || c.sumR.length !== nt || c.cntP.length !== nt || c.sumP.length !== nt) {
      throw new RangeError(`counts have ${c.cntR.length} thresholds, expected ${nt}`);
    }
    let best = -1;
    let bestF = -Infinity;
    for (let t = 0; t < nt; t++) {
      cntR[t] += c.cntR[t];
      sumR[t] += c.sumR[t];
      cntP[t] += c.cntP[t];
      sumP[t] += c.sumP[t];
      const f = fmeasure(ratio(c.cntR[t], c.sumR[t]), ratio(c.cntP[t], c.sumP[t]));
      if (f > bestF) {
        bestF = f;
        best = t;
      }
    }
    if (best >= 0) {
      cntRMax += c.cntR[best];
      sumRMax += c.sumR[best];
      cntPMax += c.cntP[best];
      sumPMax += c.sumP[best];
    }
  }
  const recall = new Float64Array(nt);
  const precision = new Float64Array(nt);
  const f = new Float64Array(nt);
  for (let t = 0; t < nt; t++) {
    recall[t] = ratio(cntR[t], sumR[t]);
    precision[t] = ratio(cntP[t], sumP[t]);
    f[t] = fmeasure(recall[t], precision[t]);
  }
  const ods = nt > 0 ? maxF(thresholds, recall, precision) : { t: NaN, r: NaN, p: NaN, f: NaN };
  const oisRecall = ratio(cntRMax, sumRMax);
  const oisPrecision = ratio(cntPMax, sumPMax);
  return {
    odsThreshold: ods.t,
    odsRecall: ods.r,
    odsPrecision: ods.p,
    odsF: ods.f,
    oisRecall,
    oisPrecision,
    oisF: fmeasure(oisRecall, oisPrecision),
    ap: averagePrecision(recall, precision),
    curve: { threshold: Float64Array.from(thresholds), recall, precision, f },
  };
}
