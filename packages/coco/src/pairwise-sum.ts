/**
 * numpy's pairwise summation of a contiguous float64 array (`pairwise_sum` in numpy's
 * `loops_utils.h.src`, used by `np.sum` and `np.mean`): sequential below 8 terms, eight running lanes up to
 * 128 terms, and above that the two halves (the first a multiple of 8 long) summed recursively. pycocotools'
 * summary means and OKS sums go through it, so the same order gives the same double.
 */
export function pairwiseSum(a: ArrayLike<number>, start = 0, n = a.length - start): number {
  if (n < 8) {
    let res = -0.0;
    for (let i = 0; i < n; i++) res += a[start + i];
    return res;
  }
  if (n <= 128) {
    let r0 = a[start];
    let r1 = a[start + 1];
    let r2 = a[start + 2];
    let r3 = a[start + 3];
    let r4 = a[start + 4];
    let r5 = a[start + 5];
    let r6 = a[start + 6];
    let r7 = a[start + 7];
    const end = n - (n % 8);
    let i = 8;
    for (; i < end; i += 8) {
      const p = start + i;
      r0 += a[p];
      r1 += a[p + 1];
      r2 += a[p + 2];
      r3 += a[p + 3];
      r4 += a[p + 4];
      r5 += a[p + 5];
      r6 += a[p + 6];
      r7 += a[p + 7];
    }
    let res = r0 + r1 + (r2 + r3) + (r4 + r5 + (r6 + r7));
    for (; i < n; i++) res += a[start + i];
    return res;
  }
  let n2 = Math.floor(n / 2);
  n2 -= n2 % 8;
  return pairwiseSum(a, start, n2) + pairwiseSum(a, start + n2, n - n2);
}

/**
 * `pairwiseSum` of the n values a[start], a[start + stride], …, a[start + (n − 1)·stride] (a column of a C-order
 * array: the same double as the column copied out and summed, without the copy).
 */
export function pairwiseSumStrided(a: ArrayLike<number>, start: number, stride: number, n: number): number {
  if (n < 8) {
    let res = -0.0;
    for (let i = 0; i < n; i++) res += a[start + i * stride];
    return res;
  }
  if (n <= 128) {
    let r0 = a[start];
    let r1 = a[start + stride];
    let r2 = a[start + 2 * stride];
    let r3 = a[start + 3 * stride];
    let r4 = a[start + 4 * stride];
    let r5 = a[start + 5 * stride];
    let r6 = a[start + 6 * stride];
    let r7 = a[start + 7 * stride];
    const end = n - (n % 8);
    let i = 8;
    for (; i < end; i += 8) {
      const p = start + i * stride;
      r0 += a[p];
      r1 += a[p + stride];
      r2 += a[p + 2 * stride];
      r3 += a[p + 3 * stride];
      r4 += a[p + 4 * stride];
      r5 += a[p + 5 * stride];
      r6 += a[p + 6 * stride];
      r7 += a[p + 7 * stride];
    }
    let res = r0 + r1 + (r2 + r3) + (r4 + r5 + (r6 + r7));
    for (; i < n; i++) res += a[start + i * stride];
    return res;
  }
  let n2 = Math.floor(n / 2);
  n2 -= n2 % 8;
  return pairwiseSumStrided(a, start, stride, n2) + pairwiseSumStrided(a, start + n2 * stride, stride, n - n2);
}

/** `np.mean` of a contiguous float64 array: the pairwise sum divided by the count (NaN when empty). */
export function numpyMean(a: ArrayLike<number>): number {
  return pairwiseSum(a) / a.length;
}
