/**
 * The random stream of the BSDS `correspondPixels` MEX: POSIX `erand48` (48-bit LCG
 * X ← (0x5DEECE66D·X + 0xB) mod 2^48, value X/2^48) and `kOfN` (kofn.cc) built on it.
 *
 * The 48-bit state is kept as two 24-bit halves in doubles, so every product is an exact integer
 * below 2^53 and no BigInt is needed.
 */

const TWO24 = 16777216;
const INV_TWO24 = 1 / TWO24;
const INV_TWO48 = 1 / (TWO24 * TWO24);
const A_LO = 0xece66d; // low 24 bits of 0x5DEECE66D
const A_HI = 0x5de; // high bits of 0x5DEECE66D
const C = 0xb;

export class Erand48 {
  private hi = 0;
  private lo = 0;

  constructor(seed: number) {
    this.reseed(seed);
  }

  /**
   * Random::reseed(seed): xsubi = [seed & 0xffff, (seed >> 16) & 0xffff, (seed >> 32) & 0xffff],
   * i.e. X = seed mod 2^48 (seed must be a non-negative integer).
   */
  reseed(seed: number): void {
    if (!Number.isInteger(seed) || seed < 0 || seed > Number.MAX_SAFE_INTEGER) {
      throw new RangeError(`seed must be a non-negative safe integer, got ${seed}`);
    }
    const s = seed % (TWO24 * TWO24);
    this.hi = Math.floor(s * INV_TWO24);
    this.lo = s - this.hi * TWO24;
  }

  /** The current 48-bit state X. */
  get state(): number {
    return this.hi * TWO24 + this.lo;
  }

  /** erand48(): advance the state, return X / 2^48 in [0, 1). */
  fp(): number {
    const lo = A_LO * this.lo + C; // < 2^48 + 11: exact
    const carry = Math.floor(lo * INV_TWO24);
    const newLo = lo - carry * TWO24;
    const mid = A_HI * this.lo + A_LO * this.hi + carry; // < 2^49: exact
    this.hi = mid - Math.floor(mid * INV_TWO24) * TWO24;
    this.lo = newLo;
    return (this.hi * TWO24 + this.lo) * INV_TWO48;
  }

  /** Random::i32(a, b) = floor(fp() * (b - a + 1) + a). */
  i32(a: number, b: number): number {
    return Math.floor(this.fp() * (b - a + 1) + a);
  }
}

const LOG2 = Math.log(2);

/**
 * kofn.cc `kOfN(k, n, values)`: k distinct integers of [0, n) in increasing order, written to
 * `out[offset..offset+k)`. Consumes exactly the random numbers the C++ code does.
 */
export function kOfN(rng: Erand48, k: number, n: number, out: Int32Array | number[], offset = 0): void {
  if (k === 0) return;
  const klogk = (k * Math.log(k)) / LOG2;
  if (klogk < Math.floor(n / 2)) smallK(rng, k, n, out, offset);
  else largeK(rng, k, n, out, offset);
}

function largeK(rng: Erand48, k: number, n: number, out: Int32Array | number[], offset: number): void {
  let j = 0;
  for (let i = 0; i < n; i++) {
    const prob = (k - j) / (n - i);
    const x = rng.fp();
    if (x < prob) out[offset + j++] = i;
  }
}

function smallK(rng: Erand48, k: number, n: number, out: Int32Array | number[], offset: number): void {
  if (k === 1) {
    out[offset] = rng.i32(0, n - 1);
    return;
  }
  const leftN = Math.floor(n / 2);
  const rightN = n - leftN;
  let leftK = 0;
  let rightK = 0;
  for (let i = 0; i < k; i++) {
    const x = rng.i32(0, n - i - 1);
    if (x < leftN - leftK) leftK++;
    else rightK++;
  }
  if (leftK > 0) smallK(rng, leftK, leftN, out, offset);
  if (rightK > 0) smallK(rng, rightK, rightN, out, offset + leftK);
  for (let i = leftK; i < k; i++) out[offset + i] += leftN;
}
