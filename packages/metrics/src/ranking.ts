import { packedDescending, PACKED_MAX, radixDescending } from './ranking-sorts.js';

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
 * The input positions without NaN, kept from call to call (no fresh column per ranked list); never
 * returned: every sort below returns a new array. Safe: the ranking is synchronous.
 */
let finiteScratch = new Uint32Array(0);

/**
 * Stable ranking by descending score: returns the permutation of indices, best first.
 * Equal scores (including +0 and -0) keep their input order, as MATLAB's sort does.
 */
export function rankDescending(scores: ArrayLike<number>, options: RankOptions = {}): Uint32Array {
  const n = scores.length;
  const nanFirst = options.nan === 'first';
  if (finiteScratch.length < n) finiteScratch = new Uint32Array(n);
  const finite = finiteScratch;
  const nans: number[] = [];
  let m = 0;
  for (let i = 0; i < n; i++) {
    if (Number.isNaN(scores[i])) nans.push(i);
    else finite[m++] = i;
  }
  const idx = finite.subarray(0, m);
  const sorted = m < RADIX_MIN || !LITTLE_ENDIAN ? comparisonDescending(scores, idx) : m < PACKED_MAX ? packedDescending(scores, idx) : radixDescending(scores, idx);
  if (m === n) return sorted;
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
