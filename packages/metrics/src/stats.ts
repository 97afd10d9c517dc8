/** Plain mean, summed left to right; NaN propagates; NaN for an empty list (as MATLAB `mean([])`). */
export function mean(values: ArrayLike<number>): number {
  const n = values.length;
  if (n === 0) return NaN;
  let s = 0;
  for (let i = 0; i < n; i++) s += values[i];
  return s / n;
}

/**
 * MATLAB `median` of a vector: NaN if any value is NaN (or the list is empty); otherwise the middle of
 * the sorted values, or `(a + b) / 2` of the two middle values for an even count.
 */
export function median(values: ArrayLike<number>): number {
  const n = values.length;
  if (n === 0) return NaN;
  const sorted = Float64Array.from(values);
  for (let i = 0; i < n; i++) if (Number.isNaN(sorted[i])) return NaN;
  sorted.sort();
  const h = n >> 1;
  if (n % 2 === 1) return sorted[h];
  const a = sorted[h - 1];
  const b = sorted[h];
  // GNU Octave (the reference oracle): sum of the two middle values / 2.
  return (a + b) / 2;
}

/**
 * Top-k error over single-label ground truth: the fraction of items whose label is not among the
 * first k guesses.
 */
export function topKError(labels: ArrayLike<number>, guesses: ArrayLike<ArrayLike<number>>, k: number): number {
  const n = labels.length;
  if (guesses.length !== n) throw new RangeError(`labels and guesses differ in length (${n} vs ${guesses.length})`);
  if (n === 0) return NaN;
  let wrong = 0;
  for (let i = 0; i < n; i++) {
    const g = guesses[i];
    let hit = false;
    for (let j = 0; j < Math.min(k, g.length); j++) if (g[j] === labels[i]) hit = true;
    if (!hit) wrong++;
  }
  return wrong / n;
}
