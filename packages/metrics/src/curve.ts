/**
 * Precision/recall from per-row outcomes in ranked order (the official `cumsum` form):
 * `tp = cumsum(tp); fp = cumsum(fp); rec = tp/npos; prec = tp./(fp+tp)`.
 * A row with tp = fp = 0 (an ignored detection) repeats the previous point; 0/0 gives NaN.
 */
export function precisionRecall(
  tp: ArrayLike<number>,
  fp: ArrayLike<number>,
  npos: number,
): { recall: Float64Array; precision: Float64Array } {
  const n = tp.length;
  if (fp.length !== n) throw new RangeError(`tp and fp differ in length (${n} vs ${fp.length})`);
  const recall = new Float64Array(n);
  const precision = new Float64Array(n);
  fillCurve(tp, fp, npos, recall, precision);
  return { recall, precision };
}

/** The loop of `precisionRecall`, alone in its function (compiled while it runs, it meets nothing new after it). */
function fillCurve(tp: ArrayLike<number>, fp: ArrayLike<number>, npos: number, recall: Float64Array, precision: Float64Array): void {
  let ctp = 0;
  let cfp = 0;
  for (let i = 0; i < recall.length; i++) {
    ctp += tp[i];
    cfp += fp[i];
    recall[i] = ctp / npos;
    precision[i] = ctp / (cfp + ctp);
  }
}
