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
 * Which pixels of the 32 in word `w` of a bit-packed image (row stride `S` words, see `Thinner.bits`) the
 * sub-iteration deletes: the Guo–Hall conditions of `buildThinLut`, evaluated on 32 pixels at once (one bit
 * plane per neighbour). Equal to the tables bit for bit (tested on all 512 neighbourhoods, at both word edges and
 * inside a word).
 */
export function thinDeletions(bits: Int32Array, w: number, S: number, second: boolean): number {
  const c = bits[w];
  const n = bits[w - S];
  const s = bits[w + S];
  // bit i of a plane = that neighbour of pixel i; a word's bit 0 is its leftmost pixel
  const west = (c << 1) | (bits[w - 1] >>> 31);
  const east = (c >>> 1) | (bits[w + 1] << 31);
  const nw = (n << 1) | (bits[w - S - 1] >>> 31);
  const ne = (n >>> 1) | (bits[w - S + 1] << 31);
  const sw = (s << 1) | (bits[w + S - 1] >>> 31);
  const se = (s >>> 1) | (bits[w + S + 1] << 31);
  // x1..x8 = E, NE, N, NW, W, SW, S, SE. G1: exactly one of b1..b4 (X_H = 1).
  const b1 = ~east & (ne | n);
  const b2 = ~n & (nw | west);
  const b3 = ~west & (sw | s);
  const b4 = ~s & (se | east);
  const g1 = (b1 | b2 | b3 | b4) & ~((b1 & b2) | (b3 & b4) | ((b1 | b2) & (b3 | b4)));
  // G2: n1 = Σ x(2k-1)|x(2k), n2 = Σ x(2k)|x(2k+1); min(n1, n2) in 2..3 = both >= 2 and not both 4
  const p1 = east | ne;
  const p2 = n | nw;
  const p3 = west | sw;
  const p4 = s | se;
  const q1 = ne | n;
  const q2 = nw | west;
  const q3 = sw | s;
  const q4 = se | east;
  const g2 =
    ((p1 & p2) | (p3 & p4) | ((p1 | p2) & (p3 | p4))) &
    ((q1 & q2) | (q3 & q4) | ((q1 | q2) & (q3 | q4))) &
    ~(p1 & p2 & p3 & p4 & q1 & q2 & q3 & q4);
  // G3 (x2 | x3 | ¬x8) ∧ x1 = 0, G3' (x6 | x7 | ¬x4) ∧ x5 = 0
  const g3 = second ? ~((sw | s | ~nw) & west) : ~((ne | n | ~se) & east);
  return c & g1 & g2 & g3;
}

/** Number of set bits of a 32-bit word. */
function popcount(v: number): number {
  v -= (v >>> 1) & 0x55555555;
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/**
 * Reusable thinning workspace for images of one size: the image bit-packed in 32-bit words (a 512x683 image
 * is 48 KB and stays in cache; a sub-iteration decides 32 pixels with ~60 word operations), and the
 * lists of words to look at, so that repeated thinning (99 thresholds) allocates nothing.
 */
export class Thinner {
  readonly height: number;
  readonly width: number;
  /** Words per padded row: a zero word left of column 0, ceil(width / 32) words, a zero word on the right. */
  readonly wordStride: number;
  /**
   * The image: pixel (y, x) is bit x & 31 of word (y + 1)·wordStride + 1 + (x >> 5) (`wordOf`, `bitOf`). The
   * padding rows above and below, the padding words and the bits right of the last column stay 0.
   */
  readonly bits: Int32Array;
  private readonly listA: Int32Array;
  private readonly listB: Int32Array;
  private readonly delWord: Int32Array;
  private readonly delMask: Int32Array;
  /** Per word: bit 1 = listed in listA, bit 2 = listed in listB. */
  private readonly mark: Uint8Array;

  constructor(height: number, width: number) {
    this.height = height;
    this.width = width;
    this.wordStride = ((width + 31) >> 5) + 2;
    const size = (height + 2) * this.wordStride;
    this.bits = new Int32Array(size);
    // a word is listed at most once per list
    this.listA = new Int32Array(size);
    this.listB = new Int32Array(size);
    this.delWord = new Int32Array(size);
    this.delMask = new Int32Array(size);
    this.mark = new Uint8Array(size);
  }

  /** Index in `bits` of the word holding pixel (y, x). */
  wordOf(y: number, x: number): number {
    return (y + 1) * this.wordStride + 1 + (x >> 5);
  }

  /** The bit of pixel (y, x) in its word. */
  bitOf(x: number): number {
    return 1 << (x & 31);
  }

  /**
   * Thins `bits` in place. `words[0..count)` must list (once each) every word of `bits` that is not 0; it is
   * not modified. Returns the number of pixels deleted. Hot kernel (every threshold of every unit), kept whole.
   */
  thinInPlace(words: Int32Array, count: number): number {
    const bits = this.bits;
    const S = this.wordStride;
    const listA = this.listA;
    const listB = this.listB;
    const delWord = this.delWord;
    const delMask = this.delMask;
    const mark = this.mark;
    listA.set(words.subarray(0, count));
    listB.set(words.subarray(0, count));
    for (let k = 0; k < count; k++) mark[words[k]] = 3;
    let nA = count;
    let nB = count;
    let deleted = 0;
    let sub = 0;
    let idleSubs = 0;
    // Alternate lutthin1 / lutthin2; a pass only looks at words in which some pixel's 3x3 neighbourhood changed
    // since that table last looked at them. Stop after two consecutive passes without deletions (= one full
    // bwmorph iteration with no change) or when there is nothing left to look at. All deletions of a pass are
    // decided before any is applied (parallel sub-iterations).
    while (nA > 0 || nB > 0) {
      const second = (sub & 1) === 1;
      const list = second ? listB : listA;
      const nc = second ? nB : nA;
      const keep = second ? 1 : 2;
      let nd = 0;
      for (let k = 0; k < nc; k++) {
        const w = list[k];
        mark[w] &= keep;
        const m = thinDeletions(bits, w, S, second);
        delWord[nd] = w;
        delMask[nd] = m;
        nd += ((m !== 0) as unknown as number) | 0;
      }
      if (second) nB = 0;
      else nA = 0;
      if (nd === 0) {
        idleSubs++;
        if (idleSubs >= 2) break;
      } else {
        idleSubs = 0;
        for (let k = 0; k < nd; k++) {
          const m = delMask[k];
          bits[delWord[k]] &= ~m;
          deleted += popcount(m);
        }
        // Words with a pixel next to a deleted one are looked at again by both tables: the same word in the rows
        // above and below (three distinct words, read before any is written), and the word left (right) of those
        // three when bit 0 (31) went.
        for (let k = 0; k < nd; k++) {
          const w = delWord[k];
          const m = delMask[k];
          const up = w - S;
          const down = w + S;
          const onUp = ((bits[up] !== 0) as unknown as number) | 0;
          const onW = ((bits[w] !== 0) as unknown as number) | 0;
          const onDown = ((bits[down] !== 0) as unknown as number) | 0;
          const mUp = mark[up];
          const mW = mark[w];
          const mDown = mark[down];
          listA[nA] = up;
          nA += onUp & ~mUp & 1;
          listA[nA] = w;
          nA += onW & ~mW & 1;
          listA[nA] = down;
          nA += onDown & ~mDown & 1;
          listB[nB] = up;
          nB += onUp & (~mUp >> 1) & 1;
          listB[nB] = w;
          nB += onW & (~mW >> 1) & 1;
          listB[nB] = down;
          nB += onDown & (~mDown >> 1) & 1;
          mark[up] = mUp | (onUp * 3);
          mark[w] = mW | (onW * 3);
          mark[down] = mDown | (onDown * 3);
          if ((m & 1) === 0 && m >= 0) continue;
          for (let side = -1; side <= 1; side += 2) {
            if (side < 0 ? (m & 1) === 0 : m >= 0) continue;
            for (let q = up + side; q <= down + side; q += S) {
              const on = ((bits[q] !== 0) as unknown as number) | 0;
              const mk = mark[q];
              listA[nA] = q;
              nA += on & ~mk & 1;
              listB[nB] = q;
              nB += on & (~mk >> 1) & 1;
              mark[q] = mk | (on * 3);
            }
          }
        }
      }
      sub++;
    }
    // Leave the marks clean for the next call.
    for (let k = 0; k < nA; k++) mark[listA[k]] = 0;
    for (let k = 0; k < nB; k++) mark[listB[k]] = 0;
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
  const bits = t.bits;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) if (bw[y * width + x] !== 0) bits[t.wordOf(y, x)] |= t.bitOf(x);
  }
  const words = new Int32Array(bits.length);
  let count = 0;
  for (let w = 0; w < bits.length; w++) if (bits[w] !== 0) words[count++] = w;
  t.thinInPlace(words, count);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) out[y * width + x] = (bits[t.wordOf(y, x)] >>> (x & 31)) & 1;
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
