/**
 * In-place ascending sort of a[lo … hi) as unsigned 32-bit integers, without allocating (TypedArray#sort
 * allocates a work copy per call, which the polygon rasteriser would pay per polygon). Quicksort with a
 * median-of-three pivot, insertion sort below 24 elements; recursion only into the smaller half.
 */
export function sortU32(a: Uint32Array, lo: number, hi: number): void {
  while (hi - lo > 24) {
    const mid = lo + ((hi - lo) >> 1);
    // median of a[lo], a[mid], a[hi-1]
    const x = a[lo];
    const y = a[mid];
    const z = a[hi - 1];
    const pivot = x < y ? (y < z ? y : x < z ? z : x) : x < z ? x : y < z ? z : y;
    let i = lo;
    let j = hi - 1;
    while (i <= j) {
      while (a[i] < pivot) i++;
      while (a[j] > pivot) j--;
      if (i <= j) {
        const t = a[i];
        a[i] = a[j];
        a[j] = t;
        i++;
        j--;
      }
    }
    // a[lo … j] <= pivot <= a[i … hi-1]
    if (j + 1 - lo < hi - i) {
      sortU32(a, lo, j + 1);
      lo = i;
    } else {
      sortU32(a, i, hi);
      hi = j + 1;
    }
  }
  for (let i = lo + 1; i < hi; i++) {
    const v = a[i];
    let j = i - 1;
    while (j >= lo && a[j] > v) {
      a[j + 1] = a[j];
      j--;
    }
    a[j + 1] = v;
  }
}
