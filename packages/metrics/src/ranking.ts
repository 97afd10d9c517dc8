export interface RankOptions {
  /**
   * Where NaN scores go.
   * - `'last'`: MATLAB `[~,si] = sort(-score)` (the VOC devkit): NaN after -Inf.
   * - `'first'`: MATLAB `sort(score, 'descend')` (the ILSVRC devkit): NaN before +Inf.
   */
  nan?: 'last' | 'first';
}

/**
 * Stable ranking by descending score: returns the permutation of indices, best first.
 * Equal scores (including +0 and -0) keep their input order, as MATLAB's sort does.
 */
export function rankDescending(scores: ArrayLike<number>, options: RankOptions = {}): Uint32Array {
  const n = scores.length;
  const nanFirst = options.nan === 'first';
  const finite: number[] = [];
  const nans: number[] = [];
  for (let i = 0; i < n; i++) (Number.isNaN(scores[i]) ? nans : finite).push(i);
  // Array.prototype.sort is stable; the index tie-break makes that explicit.
  finite.sort((a, b) => {
    const sa = scores[a];
    const sb = scores[b];
    return sa > sb ? -1 : sa < sb ? 1 : a - b;
  });
  const out = new Uint32Array(n);
  let k = 0;
  if (nanFirst) for (const i of nans) out[k++] = i;
  for (const i of finite) out[k++] = i;
  if (!nanFirst) for (const i of nans) out[k++] = i;
  return out;
}
