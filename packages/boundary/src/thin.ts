/**
 * MATLAB `bwmorph(BW, 'thin', Inf)`: Guo & Hall 1989 (algorithm A1 in Lam, Lee & Suen 1992, p. 879),
 * two parallel sub-iterations per iteration through the 3x3 lookup tables `lutthin1` and `lutthin2`,
 * repeated until nothing changes; pixels outside the image are 0.
 */

/**
 * LUT index convention of MATLAB's `bwlookup`: idx = Σ A(r,c)·2^((c-1)*3+(r-1)), i.e. the weights
 * `[1 8 64; 2 16 128; 4 32 256]` (column-major 3x3 neighbourhood, centre = 16).
 */
const W_NW = 1;
const W_W = 2;
const W_SW = 4;
const W_N = 8;
const W_C = 16;
const W_S = 32;
const W_NE = 64;
const W_E = 128;
const W_SE = 256;

function buildThinLut(second: boolean): Uint8Array {
  const lut = new Uint8Array(512);
  for (let idx = 0; idx < 512; idx++) {
    if ((idx & W_C) === 0) continue; // background stays background
    // x1..x8 = E, NE, N, NW, W, SW, S, SE (counter-clockwise from east)
    const x = [
      0,
      idx & W_E ? 1 : 0,
      idx & W_NE ? 1 : 0,
      idx & W_N ? 1 : 0,
      idx & W_NW ? 1 : 0,
      idx & W_W ? 1 : 0,
      idx & W_SW ? 1 : 0,
      idx & W_S ? 1 : 0,
      idx & W_SE ? 1 : 0,
    ];
    const xi = (i: number): number => x[((i - 1) % 8) + 1];
    // G1: crossing number X_H = 1
    let xh = 0;
    for (let i = 1; i <= 4; i++) {
      if (xi(2 * i - 1) === 0 && (xi(2 * i) === 1 || xi(2 * i + 1) === 1)) xh++;
    }
    // G2: 2 <= min(n1, n2) <= 3
    let n1 = 0;
    let n2 = 0;
    for (let k = 1; k <= 4; k++) {
      n1 += xi(2 * k - 1) | xi(2 * k);
      n2 += xi(2 * k) | xi(2 * k + 1);
    }
    const m = Math.min(n1, n2);
    // G3 / G3'
    const g3 = second
      ? ((x[6] | x[7] | (1 - x[4])) & x[5]) === 0
      : ((x[2] | x[3] | (1 - x[8])) & x[1]) === 0;
    const remove = xh === 1 && m >= 2 && m <= 3 && g3;
    lut[idx] = remove ? 0 : 1;
  }
  return lut;
}

/** MATLAB's `lutthin1` (first sub-iteration), generated from the Guo–Hall definition. */
export const LUT_THIN1: Uint8Array = buildThinLut(false);
/** MATLAB's `lutthin2` (second sub-iteration). */
export const LUT_THIN2: Uint8Array = buildThinLut(true);

/**
 * Reusable thinning workspace for images of one size: a zero-padded (H+2)x(W+2) byte buffer and
 * candidate lists, so that repeated thinning (99 thresholds) allocates nothing.
 */
export class Thinner {
  readonly height: number;
  readonly width: number;
  /** Padded stride (width + 2). */
  readonly stride: number;
  /** The padded image: pixel (y, x) lives at (y+1)*stride + (x+1). */
  readonly buf: Uint8Array;
  private candA: Int32Array;
  private candB: Int32Array;
  private del: Int32Array;
  /** Per pixel: bit 1 = listed in candA, bit 2 = listed in candB. */
  private mark: Uint8Array;
  /** Offsets of the 8 neighbours in the padded buffer. */
  private readonly around: Int32Array;

  constructor(height: number, width: number) {
    this.height = height;
    this.width = width;
    this.stride = width + 2;
    const size = (height + 2) * (width + 2);
    this.buf = new Uint8Array(size);
    this.candA = new Int32Array(16);
    this.candB = new Int32Array(16);
    this.del = new Int32Array(16);
    this.mark = new Uint8Array(size);
    const S = this.stride;
    this.around = Int32Array.from([-S - 1, -S, -S + 1, -1, 1, S - 1, S, S + 1]);
  }

  /** Padded index of pixel (y, x). */
  index(y: number, x: number): number {
    return (y + 1) * this.stride + x + 1;
  }

  /**
   * Thins `buf` in place. `onPixels[0..count)` must list (padded indices of) every pixel that is on.
   * Returns the number of pixels deleted.
   */
  thinInPlace(onPixels: Int32Array, count: number): number {
    const buf = this.buf;
    const S = this.stride;
    if (this.candA.length < count) {
      const cap = Math.max(count, this.candA.length * 2);
      this.candA = new Int32Array(cap);
      this.candB = new Int32Array(cap);
      this.del = new Int32Array(cap);
    }
    let candA = this.candA;
    let candB = this.candB;
    let del = this.del;
    // mark bit 1: in candA, bit 2: in candB
    const mark = this.mark;
    const around = this.around;
    let nA = 0;
    let nB = 0;
    for (let k = 0; k < count; k++) {
      const p = onPixels[k];
      if (buf[p] === 0 || mark[p] !== 0) continue;
      // A pixel whose four edge neighbours are all on is kept by both tables (checked in thin.test.ts): it is
      // looked at only once a neighbour goes.
      if ((buf[p - 1] & buf[p + 1] & buf[p - S] & buf[p + S]) !== 0) continue;
      mark[p] = 3;
      candA[nA++] = p;
      candB[nB++] = p;
    }
    let deleted = 0;
    let sub = 0;
    let idleSubs = 0;
    // Alternate lutthin1 / lutthin2; a pass only looks at pixels whose 3x3 neighbourhood changed since
    // that table last looked at them. Stop after two consecutive passes without deletions (= one full
    // bwmorph iteration with no change) or when there is nothing left to look at.
    while (nA > 0 || nB > 0) {
      const first = (sub & 1) === 0;
      const lut = first ? LUT_THIN1 : LUT_THIN2;
      const cand = first ? candA : candB;
      const bit = first ? 1 : 2;
      const keep = 3 - bit;
      const nc = first ? nA : nB;
      let nd = 0;
      for (let k = 0; k < nc; k++) {
        const p = cand[k];
        mark[p] &= keep;
        if (buf[p] === 0) continue;
        const idx =
          buf[p - S - 1] * W_NW +
          buf[p - 1] * W_W +
          buf[p + S - 1] * W_SW +
          buf[p - S] * W_N +
          W_C +
          buf[p + S] * W_S +
          buf[p - S + 1] * W_NE +
          buf[p + 1] * W_E +
          buf[p + S + 1] * W_SE;
        if (lut[idx] === 0) {
          if (nd >= del.length) {
            const grown = new Int32Array(del.length * 2);
            grown.set(del);
            del = grown;
            this.del = del;
          }
          del[nd++] = p;
        }
      }
      if (first) nA = 0;
      else nB = 0;
      if (nd === 0) {
        idleSubs++;
        if (idleSubs >= 2) break;
      } else {
        idleSubs = 0;
        for (let k = 0; k < nd; k++) buf[del[k]] = 0;
        deleted += nd;
        // Neighbours of deleted pixels must be looked at again by both tables.
        if (nA + 8 * nd > candA.length || nB + 8 * nd > candB.length) {
          const cap = Math.max(candA.length, candB.length, nA + 8 * nd, nB + 8 * nd) * 2;
          const ga = new Int32Array(cap);
          ga.set(candA.subarray(0, nA));
          candA = ga;
          this.candA = candA;
          const gb = new Int32Array(cap);
          gb.set(candB.subarray(0, nB));
          candB = gb;
          this.candB = candB;
        }
        for (let k = 0; k < nd; k++) {
          const p = del[k];
          for (let o = 0; o < 8; o++) {
            const q = p + around[o];
            if (buf[q] === 0) continue;
            const m = mark[q];
            if (m === 3) continue;
            if ((m & 1) === 0) candA[nA++] = q;
            if ((m & 2) === 0) candB[nB++] = q;
            mark[q] = 3;
          }
        }
      }
      sub++;
    }
    // Leave the marks clean for the next call.
    for (let k = 0; k < nA; k++) mark[candA[k]] = 0;
    for (let k = 0; k < nB; k++) mark[candB[k]] = 0;
    return deleted;
  }

}

/**
 * `bwmorph(bw, 'thin', Inf)`. `bw` is row-major (index y*width+x), any nonzero byte = on.
 * Returns a new 0/1 array of the same layout.
 */
export function thin(bw: Uint8Array, height: number, width: number): Uint8Array {
  checkSize(bw.length, height, width, 'bw');
  const out = new Uint8Array(height * width);
  if (height === 0 || width === 0) return out;
  const t = new Thinner(height, width);
  const on = new Int32Array(bw.length);
  let count = 0;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    const prow = (y + 1) * t.stride + 1;
    for (let x = 0; x < width; x++) {
      if (bw[row + x] !== 0) {
        t.buf[prow + x] = 1;
        on[count++] = prow + x;
      }
    }
  }
  t.thinInPlace(on, count);
  for (let y = 0; y < height; y++) {
    const prow = (y + 1) * t.stride + 1;
    out.set(t.buf.subarray(prow, prow + width), y * width);
  }
  return out;
}

export function checkSize(length: number, height: number, width: number, what: string): void {
  if (!Number.isInteger(height) || !Number.isInteger(width) || height < 0 || width < 0) {
    throw new RangeError(`${what}: height and width must be non-negative integers, got ${height}x${width}`);
  }
  if (length !== height * width) {
    throw new RangeError(`${what}: expected ${height}x${width} = ${height * width} pixels, found ${length}`);
  }
}
