/**
 * `np.argsort(-scores, kind='mergesort')`: descending score, stable (ties keep their given order), NaN
 * last (-NaN is NaN, which numpy sorts after every number), -0 and +0 equal.
 */

/** Negative when a score `a` sorts before `b` in `argsort(-s)` order; 0 for a tie. */
export function compareScoreDesc(a: number, b: number): number {
  // every comparison made on every call: the optimised code of a caller then has feedback for each (a case first
  // met after the caller was optimised, such as the first out-of-order pair, threw that code away to compile it again)
  const before = a > b;
  const after = a < b;
  const tie = a === b;
  const na = a !== a;
  const nb = b !== b;
  if (before) return -1;
  if (after) return 1;
  if (tie) return 0;
  return na === nb ? 0 : na ? 1 : -1;
}

/** Sorts `indices` (into `scores`) in place in argsort(-s, mergesort) order. */
export function scoreOrder(scores: ArrayLike<number>, indices: Int32Array): Int32Array {
  scoreOrderRange(scores, indices, 0, indices.length);
  return indices;
}

/** Sorts `idx[lo, hi)` (indices into `scores`) in place in argsort(-s, mergesort) order. */
export function scoreOrderRange(scores: ArrayLike<number>, idx: Int32Array, lo: number, hi: number): void {
  if (hi - lo <= 48) insertionOrder(scores, idx, lo, hi);
  else bucketOrder(scores, idx.subarray(lo, hi));
}

/** Stable insertion sort of idx[lo, hi) (small lists: one image's detections of one category). */
function insertionOrder(scores: ArrayLike<number>, idx: Int32Array, lo: number, hi: number): void {
  for (let i = lo + 1; i < hi; i++) {
    const v = idx[i];
    const s = scores[v];
    let j = i - 1;
    while (j >= lo && compareScoreDesc(scores[idx[j]], s) > 0) {
      idx[j + 1] = idx[j];
      j--;
    }
    idx[j + 1] = v;
  }
}

/**
 * Stable order of a long list: the distinct scores sorted natively (descending, NaN last, -0 = +0), then
 * a counting sort of the indices by the rank of their score, which keeps the given order within a score.
 */
function bucketOrder(scores: ArrayLike<number>, idx: Int32Array): void {
  const n = idx.length;
  const keys = new Float64Array(n);
  let nans = 0;
  let m = 0;
  for (let i = 0; i < n; i++) {
    const s = scores[idx[i]];
    if (s !== s) nans++;
    else keys[m++] = -s;
  }
  const sorted = keys.subarray(0, m).sort();
  // distinct values (−0 and +0 are one value: === treats them as equal)
  let d = 0;
  for (let i = 0; i < m; i++) if (d === 0 || sorted[i] !== sorted[d - 1]) sorted[d++] = sorted[i];
  const distinct = sorted.subarray(0, d);
  const rank = new Int32Array(n);
  const counts = new Int32Array(d + 2);
  for (let i = 0; i < n; i++) {
    const s = scores[idx[i]];
    let r: number;
    if (s !== s) r = d;
    else {
      const key = -s;
      let lo = 0;
      let hi = d - 1;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (distinct[mid] < key) lo = mid + 1;
        else hi = mid;
      }
      r = lo;
    }
    rank[i] = r;
    counts[r + 1]++;
  }
  void nans;
  for (let r = 1; r <= d + 1; r++) counts[r] += counts[r - 1];
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) out[counts[rank[i]]++] = idx[i];
  idx.set(out);
}
