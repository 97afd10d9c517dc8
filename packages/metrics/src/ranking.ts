export interface RankOptions {
  /**
   * Where NaN scores go.
   * - `'last'`: MATLAB `[~,si] = sort(-score)` (the VOC devkit): NaN after -Inf.
   * - `'first'`: MATLAB `sort(score, 'descend')` (the ILSVRC devkit): NaN before +Inf.
   */
  nan?: 'last' | 'first';
}

/** Below this many scores a comparison sort is cheaper than the radix passes. */
const RADIX_MIN = 64;
const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

/**
 * Stable ranking by descending score: returns the permutation of indices, best first.
 * Equal scores (including +0 and -0) keep their input order, as MATLAB's sort does.
 */
export function rankDescending(scores: ArrayLike<number>, options: RankOptions = {}): Uint32Array {
  const n = scores.length;
  const nanFirst = options.nan === 'first';
  const finite = new Uint32Array(n);
  const nans: number[] = [];
  let m = 0;
  for (let i = 0; i < n; i++) {
    if (Number.isNaN(scores[i])) nans.push(i);
    else finite[m++] = i;
  }
  const sorted = m >= RADIX_MIN && LITTLE_ENDIAN ? radixDescending(scores, finite.subarray(0, m)) : comparisonDescending(scores, finite.subarray(0, m));
  const out = new Uint32Array(n);
  let k = 0;
  if (nanFirst) for (const i of nans) out[k++] = i;
  out.set(sorted, k);
  k += m;
  if (!nanFirst) for (const i of nans) out[k++] = i;
  return out;
}

/** `idx` (input order) sorted by descending score, ties in input order: Array.prototype.sort is stable. */
function comparisonDescending(scores: ArrayLike<number>, idx: Uint32Array): Uint32Array {
  const order = Array.from(idx);
  order.sort((a, b) => {
    const sa = scores[a];
    const sb = scores[b];
    return sa > sb ? -1 : sa < sb ? 1 : a - b;
  });
  return Uint32Array.from(order);
}

/**
 * `idx` (input order, no NaN) sorted by descending score with a stable least-significant-digit radix sort
 * on the IEEE-754 bits: the four byte passes of the high 32 bits (fewer: a byte all keys share is skipped)
 * instead of n log n comparator calls, then the rare runs of equal high words put in low-word order. The
 * bits are turned into a key whose unsigned order is the descending order of the numbers: a negative
 * number keeps its bits (a larger magnitude is a larger key), a positive one flips every bit but the sign;
 * -0 is counted as +0 (a tie, as in MATLAB). Half the passes of a full 64-bit sort matter most at start-up,
 * when these loops still run unoptimised.
 * A hot kernel: kept in one function on purpose.
 */
function radixDescending(scores: ArrayLike<number>, idx: Uint32Array): Uint32Array {
  const m = idx.length;
  const values = new Float64Array(m);
  for (let j = 0; j < m; j++) {
    const s = scores[idx[j]];
    values[j] = s === 0 ? 0 : s;
  }
  const words = new Uint32Array(values.buffer);
  const hi = new Uint32Array(m);
  const lo = new Uint32Array(m);
  for (let j = 0; j < m; j++) {
    const h = words[2 * j + 1];
    const l = words[2 * j];
    if (h & 0x80000000) {
      hi[j] = h;
      lo[j] = l;
    } else {
      hi[j] = h ^ 0x7fffffff;
      lo[j] = ~l >>> 0;
    }
  }
  // positions into idx/hi/lo, permuted pass by pass
  let from = new Uint32Array(m);
  for (let j = 0; j < m; j++) from[j] = j;
  let to = new Uint32Array(m);
  const count = new Uint32Array(256);
  for (let shift = 0; shift < 32; shift += 8) {
    count.fill(0);
    for (let j = 0; j < m; j++) count[(hi[j] >>> shift) & 255]++;
    if (count[(hi[0] >>> shift) & 255] === m) continue; // every key has this byte: the pass would not move anything
    let sum = 0;
    for (let b = 0; b < 256; b++) {
      const c = count[b];
      count[b] = sum;
      sum += c;
    }
    for (let j = 0; j < m; j++) {
      const p = from[j];
      to[count[(hi[p] >>> shift) & 255]++] = p;
    }
    const t = from;
    from = to;
    to = t;
  }
  // runs of equal high words: stable (positions ascend within a run), so order by low word, then position
  let r = 0;
  while (r < m) {
    const h = hi[from[r]];
    let e = r + 1;
    let mixed = false;
    while (e < m && hi[from[e]] === h) {
      if (lo[from[e]] !== lo[from[r]]) mixed = true;
      e++;
    }
    if (mixed) {
      const run = Array.from(from.subarray(r, e));
      run.sort((a, b) => lo[a] - lo[b] || a - b);
      from.set(run, r);
    }
    r = e;
  }
  for (let j = 0; j < m; j++) from[j] = idx[from[j]];
  return from;
}
