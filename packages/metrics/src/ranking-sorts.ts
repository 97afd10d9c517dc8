/**
 * The two long-list kernels of `rankDescending` (`ranking.ts`): `idx` (input order, no NaN, little-endian
 * host) sorted by descending score, stably, on the IEEE-754 bits. Kept apart so that tests reach both.
 */

/** Below this many scores (2^21) a position fits beside a 32-bit key in one exactly held double (53 bits). */
export const PACKED_MAX = 2 ** 21;

/**
 * The descending key of a score's high 32 bits (see `radixDescending`): its unsigned order is the
 * descending order of the numbers, -0 counted as +0.
 */
function highKey(h: number): number {
  return (h & 0x80000000 ? h : h ^ 0x7fffffff) >>> 0;
}

/** The low 32 bits' key, to order scores whose high keys are equal. */
function lowKey(h: number, l: number): number {
  return h & 0x80000000 ? l : ~l >>> 0;
}

/**
 * `idx` (input order, no NaN, fewer than 2^21) sorted by descending score, stably: each score's 32-bit high
 * key (see `radixDescending`) and its position packed into one double, `key * 2^21 + position` (exact below
 * 2^53), sorted by the engine's native typed-array sort (the doubles are distinct, so stability is not
 * needed from it), then the rare runs of equal high keys put in low-word order. One native sort instead of
 * the radix passes, which run unoptimised at start-up.
 */
export function packedDescending(scores: ArrayLike<number>, idx: Uint32Array): Uint32Array {
  const m = idx.length;
  const s = scratchFor(m);
  const packed = s.packed.subarray(0, m);
  const words = s.words;
  packHighKeys(scores, idx, packed, s.values);
  packed.sort();
  const from = new Uint32Array(m);
  unpackPositions(packed, from);
  const runs = findMixedRuns(packed, from, words, s.runStart, s.runEnd);
  for (let k = 0; k < runs; k++) orderRunByLowWord(from, words, s.runStart[k], s.runEnd[k]);
  mapPositions(from, idx);
  return from;
}

/**
 * The working columns of `packedDescending`, kept from call to call (a task ranks twenty lists one after
 * another: one set of columns instead of twenty sets of garbage). Safe: the sort is synchronous.
 */
interface PackedScratch {
  values: Float64Array;
  words: Uint32Array;
  packed: Float64Array;
  runStart: Uint32Array;
  runEnd: Uint32Array;
}
let scratch: PackedScratch | undefined;

function scratchFor(m: number): PackedScratch {
  if (!scratch || scratch.values.length < m) {
    const values = new Float64Array(m);
    scratch = { values, words: new Uint32Array(values.buffer), packed: new Float64Array(m), runStart: new Uint32Array(m + 1), runEnd: new Uint32Array(m + 1) };
  }
  return scratch;
}

// Each loop of packedDescending is a function of its own: a loop is compiled while it runs (on-stack
// replacement), and code after it that has not run yet would throw that compiled code away.

/** `packed[j] = highKey(score) * 2^21 + j`, the scores (-0 as +0) into `values` (their IEEE-754 words are read through it). */
function packHighKeys(scores: ArrayLike<number>, idx: Uint32Array, packed: Float64Array, values: Float64Array): void {
  const m = idx.length;
  for (let j = 0; j < m; j++) {
    const s = scores[idx[j]];
    values[j] = s === 0 ? 0 : s; // -0 counts as +0
  }
  const words = new Uint32Array(values.buffer, 0, 2 * m);
  for (let j = 0; j < m; j++) packed[j] = highKey(words[2 * j + 1]) * PACKED_MAX + j;
}

function unpackPositions(packed: Float64Array, from: Uint32Array): void {
  for (let r = 0; r < from.length; r++) from[r] = packed[r] % PACKED_MAX;
}

function mapPositions(from: Uint32Array, idx: Uint32Array): void {
  for (let j = 0; j < from.length; j++) from[j] = idx[from[j]];
}

/**
 * The runs of equal high keys in `packed` (sorted; `from[r]` its positions, ascending within a run) whose
 * low words differ: their bounds into `runStart` / `runEnd`, their count returned. Branch-free (every
 * statement runs for every run), so that its compiled loop meets nothing new later.
 */
function findMixedRuns(packed: Float64Array, from: Uint32Array, words: Uint32Array, runStart: Uint32Array, runEnd: Uint32Array): number {
  const m = packed.length;
  let runs = 0;
  let r = 0;
  while (r < m) {
    const h = Math.floor(packed[r] / PACKED_MAX);
    const l0 = words[2 * from[r]];
    let mixed = 0;
    let e = r + 1;
    while (e < m && Math.floor(packed[e] / PACKED_MAX) === h) {
      mixed |= words[2 * from[e]] === l0 ? 0 : 1;
      e++;
    }
    runStart[runs] = r;
    runEnd[runs] = e;
    runs += mixed;
    r = e;
  }
  return runs;
}

/** `from[r, e)` (positions with equal high keys, ascending) in low-word order, then position order. */
function orderRunByLowWord(from: Uint32Array, words: Uint32Array, r: number, e: number): void {
  const lo = (j: number): number => lowKey(words[2 * j + 1], words[2 * j]);
  const run = Array.from(from.subarray(r, e));
  run.sort((a, b) => lo(a) - lo(b) || a - b);
  from.set(run, r);
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
export function radixDescending(scores: ArrayLike<number>, idx: Uint32Array): Uint32Array {
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
