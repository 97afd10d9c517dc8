/**
 * A monomorphic, allocation-free copy of `Erand48` + `kOfN` (random.ts) for the hot loop of the graph
 * construction: the same 48-bit LCG in two 24-bit halves and the same kofn.cc recursion, so it draws exactly
 * the same numbers (tested against random.ts).
 */

const TWO24 = 16777216;
const INV_TWO24 = 1 / TWO24;
const INV_TWO48 = 1 / (TWO24 * TWO24);
const A_LO = 0xece66d;
const A_HI = 0x5de;
const C = 0xb;
const LOG2 = Math.log(2);

export class FastKofN {
  /** [hi, lo] 24-bit halves of the state (a typed array: double fields would be boxed on every store). */
  private readonly st = new Float64Array(2);
  /** k·log2(k) of kofn.cc for small k, with the same expression. */
  private readonly klogk: Float64Array;

  constructor() {
    this.klogk = new Float64Array(64);
    for (let k = 1; k < 64; k++) this.klogk[k] = (k * Math.log(k)) / LOG2;
  }

  /** Random::reseed(seed) for a non-negative safe integer seed. */
  reseed(seed: number): void {
    const s = seed % (TWO24 * TWO24);
    const hi = Math.floor(s * INV_TWO24);
    this.st[0] = hi;
    this.st[1] = s - hi * TWO24;
  }

  private fp(): number {
    const st = this.st;
    const oldLo = st[1];
    const lo = A_LO * oldLo + C;
    const carry = Math.floor(lo * INV_TWO24);
    const newLo = lo - carry * TWO24;
    const mid = A_HI * oldLo + A_LO * st[0] + carry;
    const hi = mid - Math.floor(mid * INV_TWO24) * TWO24;
    st[0] = hi;
    st[1] = newLo;
    return (hi * TWO24 + newLo) * INV_TWO48;
  }

  /** kOfN(k, n) into out[0..k) (increasing). */
  draw(k: number, n: number, out: Int32Array): void {
    if (k === 0) return;
    const klogk = k < 64 ? this.klogk[k] : (k * Math.log(k)) / LOG2;
    if (klogk < Math.floor(n / 2)) this.smallK(k, n, out, 0);
    else this.largeK(k, n, out);
  }

  private largeK(k: number, n: number, out: Int32Array): void {
    let j = 0;
    for (let i = 0; i < n; i++) {
      const prob = (k - j) / (n - i);
      if (this.fp() < prob) out[j++] = i;
    }
  }

  private smallK(k: number, n: number, out: Int32Array, offset: number): void {
    if (k === 1) {
      out[offset] = Math.floor(this.fp() * n);
      return;
    }
    const leftN = Math.floor(n / 2);
    let leftK = 0;
    for (let i = 0; i < k; i++) {
      const x = Math.floor(this.fp() * (n - i));
      if (x < leftN - leftK) leftK++;
    }
    const rightK = k - leftK;
    if (leftK > 0) this.smallK(leftK, leftN, out, offset);
    if (rightK > 0) this.smallK(rightK, n - leftN, out, offset + leftK);
    for (let i = leftK; i < k; i++) out[offset + i] += leftN;
  }
}
