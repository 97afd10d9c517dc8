/**
 * Adds one image to a confusion matrix (row-major, `counts[g * numClasses + r]`, rows = ground truth,
 * columns = prediction). Pixels whose ground truth equals `ignore` (VOC: 255, void) are skipped.
 * Values must be below `numClasses` (the caller validates; out-of-range values throw a RangeError).
 */
export function accumulateConfusion(
  counts: Float64Array,
  gt: ArrayLike<number>,
  pred: ArrayLike<number>,
  numClasses: number,
  ignore = 255,
): void {
  const n = gt.length;
  if (pred.length !== n) throw new RangeError(`ground truth and prediction differ in size (${n} vs ${pred.length})`);
  if (counts.length < numClasses * numClasses) throw new RangeError('counts is smaller than numClasses²');
  for (let i = 0; i < n; i++) {
    const g = gt[i];
    if (g === ignore) continue;
    const r = pred[i];
    if (!(g >= 0 && g < numClasses && r >= 0 && r < numClasses)) {
      throw new RangeError(`value out of range at index ${i}: ground truth ${g}, prediction ${r}`);
    }
    counts[g * numClasses + r]++;
  }
}

/**
 * Per-class IoU from a confusion matrix: `tp / (gt_j + res_j - tp)`, with `gt_j` the row sum and
 * `res_j` the column sum (VOCevalseg.m line 83 without the factor 100). A class absent from both gives NaN.
 */
export function iouFromConfusion(counts: ArrayLike<number>, numClasses: number): Float64Array {
  const out = new Float64Array(numClasses);
  for (let j = 0; j < numClasses; j++) {
    let gtj = 0;
    let resj = 0;
    for (let k = 0; k < numClasses; k++) {
      gtj += counts[j * numClasses + k];
      resj += counts[k * numClasses + j];
    }
    const tp = counts[j * numClasses + j];
    out[j] = tp / (gtj + resj - tp);
  }
  return out;
}
