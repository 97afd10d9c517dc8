/**
 * A monomorphic, allocation-free copy of `Erand48` + `kOfN` (../random.ts) for the hot loop of the graph
 * construction: the same 48-bit LCG in two 24-bit halves and the same kofn.cc recursion, so it draws exactly
 * the same numbers (tested against ../random.ts).
 */

const TWO24 = 16777216;
const INV_TWO24 = 1 / TWO24;
const INV_TWO48 = 1 / (TWO24 * TWO24);
const A_LO = 0xece66d;
const A_HI = 0x5de;
const C = 0xb;
const LOG2 = Math.log(2);

/**
 * The erand48 stream from one seed, generated once and kept: every correspondPixels call reseeds the stream,
 * so every call consumes a prefix of the same sequence of values.
 */
class Stream {
  values = new Float64Array(1 << 16);
  length = 0;
  private hi: number;
  private lo: number;

  constructor(seed: number) {
    const s = seed % (TWO24 * TWO24);
    this.hi = Math.floor(s * INV_TWO24);
    this.lo = s - this.hi * TWO24;
  }

  /** Makes at least `count` values available. */
  extend(count: number): void {
    if (count <= this.length) return;
    let cap = this.values.length;
    while (cap < count) cap *= 2;
    if (cap !== this.values.length) {
      const grown = new Float64Array(cap);
      grown.set(this.values.subarray(0, this.length));
      this.values = grown;
    }
    const values = this.values;
    let hi = this.hi;
    let lo = this.lo;
    for (let k = this.length; k < cap; k++) {
      const l = A_LO * lo + C; // < 2^48 + 11: exact
      const carry = Math.floor(l * INV_TWO24);
      const newLo = l - carry * TWO24;
      const mid = A_HI * lo + A_LO * hi + carry; // < 2^49: exact
      hi = mid - Math.floor(mid * INV_TWO24) * TWO24;
      lo = newLo;
      values[k] = (hi * TWO24 + lo) * INV_TWO48;
    }
    this.hi = hi;
    this.lo = lo;
    this.length = cap;
  }
}

const streams = new Map<number, Stream>();

/**
 * The kept chain of `drawBlockMemo` for one (k, n): starting position of every draw (and the end), the draws,
 * their number, and the buffers of the next chain. One per block that uses the memo.
 */
export class DrawChain {
  k = -1;
  n = -1;
  stream: Stream | null = null;
  len = 0;
  pos = new Int32Array(0);
  out = new Int32Array(0);
  nextPos = new Int32Array(0);
  nextOut = new Int32Array(0);
}

export class FastKofN {
  private stream: Stream = new Stream(0);
  private values: Float64Array = this.stream.values;
  private pos = 0;
  private end = 0;
  /** smallK call stack of drawBlock: 4 ints per pending call; at most one pending call per level (<= 64 levels). */
  private readonly stack = new Int32Array(4 * 64);
  /** k·log2(k) of kofn.cc for small k, with the same expression. */
  private readonly klogk: Float64Array;

  constructor() {
    this.klogk = new Float64Array(64);
    for (let k = 1; k < 64; k++) this.klogk[k] = (k * Math.log(k)) / LOG2;
  }

  /** Random::reseed(seed) for a non-negative safe integer seed. */
  reseed(seed: number): void {
    let st = streams.get(seed);
    if (st === undefined) {
      if (streams.size >= 16) streams.clear();
      st = new Stream(seed);
      streams.set(seed, st);
    }
    this.stream = st;
    this.values = st.values;
    this.pos = 0;
    this.end = st.length;
  }

  private fp(): number {
    if (this.pos >= this.end) {
      this.stream.extend(this.pos + 1);
      this.values = this.stream.values;
      this.end = this.stream.length;
    }
    return this.values[this.pos++];
  }

  /** kOfN(k, n) into out[0..k) (increasing). */
  draw(k: number, n: number, out: Int32Array): void {
    this.drawBlock(k, n, 1, out);
  }

  /**
   * `count` consecutive kOfN(k, n) draws, the subset of draw t into out[t·k .. t·k + k) (kofn.cc: largeK when
   * k·log2(k) >= n/2, else smallK). smallK runs as one iterative pass without a per-value bounds check (the hot
   * loop of the graph construction draws ~30 values per node, 10^5..10^6 per correspondPixels call).
   */
  drawBlock(k: number, n: number, count: number, out: Int32Array): void {
    if (k === 0 || count === 0) return;
    if (!this.smallKReady(k, n, count)) {
      for (let t = 0; t < count; t++) this.largeK(k, n, out, t * k);
      return;
    }
    this.pos = smallKBlock(this.values, this.pos, k, n, count, out, 0, this.stack);
  }

  /**
   * Whether kofn.cc draws kOfN(k, n) with smallK (k·log2(k) < n/2, C integer division); if so, makes the values of
   * `count` such draws available. smallK splits a subset of size <= k in two at every level until it is a single
   * element: at most k values per level and ceil(log2 n) + 1 levels (the split is exact sampling without
   * replacement).
   */
  private smallKReady(k: number, n: number, count: number): boolean {
    const klogk = k < 64 ? this.klogk[k] : (k * Math.log(k)) / LOG2;
    if (!(klogk < Math.floor(n / 2))) return false;
    let levels = 2;
    for (let m = n; m > 1; m = Math.ceil(m / 2)) levels++;
    const need = this.pos + k * levels * count;
    if (need > this.end) {
      this.stream.extend(need);
      this.values = this.stream.values;
      this.end = this.stream.length;
    }
    return true;
  }

  /**
   * `drawBlock` for a (k, n) that the same stream sees again and again (the map2 block of correspondPixels:
   * n2 stays the same from one threshold to the next, only the block's starting position moves). A single
   * kOfN(k, n) draw depends only on its starting position in the stream, and two chains of draws from different
   * starting positions meet after a few dozen draws and coincide from there. So the last block's chain (the
   * starting position and the subset of every draw, in order) is kept: a new block draws until its position
   * falls on the kept chain, copies the kept draws from there, and draws on past the kept chain's end if it has
   * to. Same numbers as `drawBlock`, draw for draw.
   */
  drawBlockMemo(k: number, n: number, count: number, out: Int32Array, chain: DrawChain = this.chain): void {
    if (k === 0 || count === 0) return;
    if (!this.smallKReady(k, n, count)) {
      this.drawBlock(k, n, count, out);
      return;
    }
    const kept = chain.k === k && chain.n === n && chain.stream === this.stream;
    const keptLen = kept ? chain.len : 0;
    const oldPos = chain.pos;
    const oldOut = chain.out;
    // with room to grow by half (the block's length mostly grows from one call to the next)
    if (chain.nextPos.length < count + 1) chain.nextPos = new Int32Array(count + 1 + ((count + 1) >> 1));
    if (chain.nextOut.length < count * k) chain.nextOut = new Int32Array(count * k + ((count * k) >> 1));
    const newPos = chain.nextPos;
    const newOut = chain.nextOut;
    const values = this.values;
    const stack = this.stack;
    let pos = this.pos;
    // draw until the position is one of the kept chain's (positions increase along both chains)
    let t = 0;
    let m = 0;
    for (; t < count; t++) {
      while (m < keptLen && oldPos[m] < pos) m++;
      if (m < keptLen && oldPos[m] === pos) break;
      newPos[t] = pos;
      pos = smallKBlock(values, pos, k, n, 1, out, t * k, stack);
    }
    if (t < count) {
      // the rest of the kept chain, then fresh draws past its end
      const copy = Math.min(count - t, keptLen - m);
      out.set(oldOut.subarray(m * k, (m + copy) * k), t * k);
      newPos.set(oldPos.subarray(m, m + copy), t);
      pos = oldPos[m + copy];
      for (t += copy; t < count; t++) {
        newPos[t] = pos;
        pos = smallKBlock(values, pos, k, n, 1, out, t * k, stack);
      }
    }
    newPos[count] = pos;
    newOut.set(out.subarray(0, count * k));
    // the new chain is kept; the old buffers take the next one
    chain.pos = newPos;
    chain.out = newOut;
    chain.nextPos = oldPos;
    chain.nextOut = oldOut;
    chain.len = count;
    chain.k = k;
    chain.n = n;
    chain.stream = this.stream;
    this.pos = pos;
  }

  /** The default kept chain of `drawBlockMemo`. */
  private readonly chain = new DrawChain();

  private largeK(k: number, n: number, out: Int32Array, offset: number): void {
    let j = 0;
    for (let i = 0; i < n; i++) {
      const prob = (k - j) / (n - i);
      if (this.fp() < prob) out[offset + j++] = i;
    }
  }
}

/**
 * `count` smallK(k, n) draws from values[pos..] (enough values must be there) into out[offset + t·k ..]; returns the new
 * position. An explicit stack of pending calls (k, n, offset, base), left subtree first, replaces the recursion.
 */
function smallKBlock(
  values: Float64Array,
  pos: number,
  k: number,
  n: number,
  count: number,
  out: Int32Array,
  offset: number,
  stack: Int32Array,
): number {
  for (let t = 0; t < count; t++) {
    stack[0] = k;
    stack[1] = n;
    stack[2] = offset + t * k;
    stack[3] = 0;
    let sp = 4;
    while (sp > 0) {
      sp -= 4;
      let kk = stack[sp];
      let nn = stack[sp + 1];
      const off = stack[sp + 2];
      let base = stack[sp + 3];
      // one call and then its left child in place (it is drawn first); a right child waits on the stack
      for (;;) {
        if (kk === 1) {
          out[off] = base + ((values[pos++] * nn) | 0); // floor: v·nn >= 0 and < 2^31
          break;
        }
        if (kk === 2) {
          // The same split as below for two values, level after level until they part (1 + 1: two leaves at
          // once). Both in the right half (two = 0) or both in the left (two = 2) is a coin flip: chosen without a
          // branch (nn − half = half + (nn − 2·half)).
          for (;;) {
            const half = nn >> 1;
            const a = ((((values[pos] * nn) | 0) < half) as unknown as number) | 0;
            const two = a + (((((values[pos + 1] * (nn - 1)) | 0) + a < half) as unknown as number) | 0);
            pos += 2;
            if (two === 1) {
              out[off] = base + ((values[pos] * half) | 0);
              out[off + 1] = base + half + ((values[pos + 1] * (nn - half)) | 0);
              pos += 2;
              break;
            }
            const right = -(((two === 0) as unknown as number) | 0);
            base += half & right;
            nn = half + ((nn - (half << 1)) & right);
          }
          break;
        }
        const leftN = nn >> 1;
        let leftK = 0;
        // x = floor(v·(nn − i)) (i32 of kofn.cc; `| 0` truncates, v·(nn − i) < 2^31) and x < leftN − leftK, added
        // without a branch: the outcome is a coin flip, and a mispredicted branch per value cost a third of the
        // time (`bool | 0` compiles to a flag move in V8; Number(bool) and `? 1 : 0` stay branches). x does not
        // depend on leftK, so only an integer add and compare are on the chain from one value to the next.
        for (let i = 0; i < kk; i++) leftK += ((((values[pos++] * (nn - i)) | 0) + leftK < leftN) as unknown as number) | 0;
        const rightK = kk - leftK;
        if (leftK === 0) {
          // only a right child: it is the next call
          kk = rightK;
          base += leftN;
          nn -= leftN;
          continue;
        }
        if (rightK > 0) {
          stack[sp] = rightK;
          stack[sp + 1] = nn - leftN;
          stack[sp + 2] = off + leftK;
          stack[sp + 3] = base + leftN;
          sp += 4;
        }
        kk = leftK;
        nn = leftN;
      }
    }
  }
  return pos;
}
