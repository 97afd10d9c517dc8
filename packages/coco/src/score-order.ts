/**
 * `np.argsort(-scores, kind='mergesort')`: descending score, stable (ties keep their given order), NaN
 * last (-NaN is NaN, which numpy sorts after every number), -0 and +0 equal. The tie-break on the index
 * makes the order total, so any sort algorithm gives numpy's stable result.
 */
export function scoreOrder(scores: ArrayLike<number>, indices: Int32Array): Int32Array {
  return indices.sort((a, b) => compareScoreDesc(scores[a], scores[b]) || a - b);
}

/** Negative when a score `a` sorts before `b` in `argsort(-s)` order; 0 for a tie. */
export function compareScoreDesc(a: number, b: number): number {
  if (a > b) return -1;
  if (a < b) return 1;
  if (a === b) return 0;
  const na = a !== a;
  const nb = b !== b;
  return na === nb ? 0 : na ? 1 : -1;
}
