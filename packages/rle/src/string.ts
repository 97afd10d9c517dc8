/**
 * The compressed RLE string of COCO files: pycocotools `rleToString` / `rleFrString`. Each count is
 * written as signed 5-bit groups, least significant first, in the characters '0' … 'o' (48 + value,
 * 0x20 = another group follows, 0x10 of the last group = sign); from the 4th count on, the difference
 * to the count two places before is written instead of the count.
 */
import { RleError, show } from './errors.js';
import { checkRle, checkSize, type Rle } from './rle.js';
import { scratchU32 } from './scratch.js';

// SIGN_EXTEND: a count of k ≤ 6 groups holds 5k bits; its sign is the last group's bit 0x10, bit 5k − 1 of x. `(x << (32 −
// 5k)) >> (32 − 5k)` sign-extends it: x when the bit is 0, `x | (-1 << 5k)` when it is 1 (the value pycocotools' C
// gives), without a branch whose negative side a file may first meet after the decoder was optimised (its code was
// then thrown away and compiled again)

let bytes = new Uint8Array(4096);
const latin1 = new TextDecoder('latin1');

/** The compressed string of an RLE, byte for byte as pycocotools writes it. */
export function encodeString(rle: Rle): string {
  const c = rle.counts;
  const m = c.length;
  if (bytes.length < 7 * m) bytes = new Uint8Array(Math.max(7 * m, 2 * bytes.length));
  const s = bytes;
  let p = 0;
  for (let i = 0; i < m; i++) {
    let x = c[i];
    if (i > 2) x -= c[i - 2];
    // x is an integer with |x| < 2^32: floor division keeps it exact where `>>` would cut it to int32
    for (;;) {
      const q = Math.floor(x / 32);
      let ch = x - q * 32;
      x = q;
      const more = ch & 0x10 ? x !== -1 : x !== 0;
      if (more) ch |= 0x20;
      s[p++] = ch + 48;
      if (!more) break;
    }
  }
  return latin1.decode(s.subarray(0, p));
}

function fail(reason: 'string-char' | 'string-truncated' | 'string-group', detail: string, s: string, p: number, expected: string, found: string): never {
  throw new RleError(reason, `${detail} at character ${p} of ${show(s)}`, { expected, found, position: p });
}

/**
 * Parses a compressed RLE string of an h×w mask. Unlike pycocotools (which reads past the end or
 * returns counts that do not fit the mask), it rejects characters outside '0' … 'o', a string ending
 * inside a count, counts longer than 7 characters, and counts that do not sum to h·w.
 */
export function decodeString(s: string, h: number, w: number): Rle {
  checkSize(h, w);
  const n = s.length;
  let cnts = scratchU32(Math.min(n, 1 << 16));
  let m = 0;
  let p = 0;
  while (p < n) {
    // up to 6 characters (|value| < 2^29) in int32 arithmetic; a 7th goes through doubles
    let x = 0;
    let k = 0;
    let c: number;
    let seventh = false;
    const start = p;
    do {
      if (p === n) fail('string-truncated', 'RLE string ends inside a count', s, start, 'a last character below "P" (no continuation bit 0x20)', 'the end of the string');
      c = s.charCodeAt(p++) - 48;
      if (c < 0 || c > 63) fail('string-char', 'invalid character in RLE string', s, p - 1, 'characters "0" … "o"', JSON.stringify(s[p - 1]));
      if (k === 6) {
        seventh = true;
        break;
      }
      x |= (c & 0x1f) << (5 * k);
      k++;
    } while (c & 0x20);
    let v: number;
    if (!seventh) {
      v = (x << (32 - 5 * k)) >> (32 - 5 * k); // sign-extended from the last group's bit 0x10 (see SIGN_EXTEND)
    } else {
      // the 7th character: bits 30 … 34
      if (c & 0x20) fail('string-group', 'RLE count too long', s, start, 'at most 7 characters per count', `${s.slice(start, start + 8)}…`);
      v = (x >>> 0) + (c & 0x1f) * 2 ** 30;
      if (c & 0x10) v -= 2 ** 35;
    }
    if (m > 2) v += cnts[m - 2];
    if (m === cnts.length) cnts = scratchU32(2 * m, cnts);
    cnts[m++] = v >>> 0;
  }
  const rle: Rle = { h, w, counts: cnts.slice(0, m) };
  checkRle(rle);
  return rle;
}

/** An RLE with its area (`area`) and box (`toBbox`), measured while its string was parsed. */
export interface MeasuredRle {
  rle: Rle;
  /** Number of 1 pixels, as `area(rle)`. */
  area: number;
  /** [x, y, w, h], as `toBbox(rle)`. */
  bbox: Float64Array;
}

/**
 * Room for the counts of many RLEs that live together (a results file's masks): each RLE's counts are a
 * view into a shared chunk instead of an allocation of its own (tens of thousands of small buffers cost
 * the allocator more than the decoding). A chunk stays in memory while any of its RLEs does.
 */
export class CountsArena {
  private chunk = new Uint32Array(0);
  private used = 0;
  constructor(private readonly chunkSize = 1 << 18) {}
  /** A copy of src[0..m) in the arena. */
  copy(src: Uint32Array, m: number): Uint32Array {
    const to = this.room(m);
    to.set(src.subarray(0, m), this.used);
    return this.take(m);
  }
  /** The chunk to write up to `n` counts into, from `offset` on (then `take` the ones written). */
  room(n: number): Uint32Array {
    if (this.used + n > this.chunk.length) {
      this.chunk = new Uint32Array(Math.max(n, this.chunkSize));
      this.used = 0;
    }
    return this.chunk;
  }
  /** Where the counts written into `room`'s chunk start. */
  get offset(): number {
    return this.used;
  }
  /** The m counts written at `offset`, kept. */
  take(m: number): Uint32Array {
    const at = this.used;
    this.used = at + m;
    return this.chunk.subarray(at, at + m);
  }
}

/**
 * The counts of many RLEs one after the other in one Uint32Array (grown by doubling): a results file's
 * masks kept as columns, without an object or a typed-array view per mask (tens of thousands of those
 * cost the garbage collector more than the decoding). The caller keeps each RLE's start and length.
 */
export class PackedCounts {
  data: Uint32Array;
  length = 0;
  constructor(capacity = 1024) {
    this.data = new Uint32Array(capacity);
  }
  /** The array with room for `n` more counts after `length`. */
  room(n: number): Uint32Array {
    if (this.length + n > this.data.length) {
      const next = new Uint32Array(Math.max(this.length + n, 2 * this.data.length));
      next.set(this.data.subarray(0, this.length));
      this.data = next;
    }
    return this.data;
  }
  /** The RLE whose counts are data[start … start+length). */
  rle(h: number, w: number, start: number, length: number): Rle {
    return { h, w, counts: this.data.subarray(start, start + length) };
  }
}

let charBytes = new Uint8Array(256);

/**
 * `decodeString`, `area` and `toBbox` in one pass over the string's characters: what loading a segm
 * result needs (pycocotools' `mask.area` and `mask.toBbox` each parse the string again). Equal to the
 * three calls value for value (property-tested against them), with the same errors. With `arena`, the
 * counts are kept there (see `CountsArena`).
 */
export function decodeStringMeasured(s: string, h: number, w: number, arena?: CountsArena): MeasuredRle {
  const n = s.length;
  if (charBytes.length < n) charBytes = new Uint8Array(Math.max(n, 2 * charBytes.length));
  // a character beyond one byte becomes 0xff: invalid as well, at the same position
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    charBytes[i] = c < 256 ? c : 0xff;
  }
  const areas = new Float64Array(1);
  const bbox = new Float64Array(4);
  checkSize(h, w);
  // at most one count per character: room for n counts, in the arena or the scratch buffer
  const cnts = arena ? arena.room(n) : scratchU32(n);
  const m = measure(charBytes, 0, n, h, w, cnts, arena ? arena.offset : 0, areas, bbox, 0, s, 0);
  const rle: Rle = { h, w, counts: arena ? arena.take(m) : cnts.slice(0, m) };
  return { rle, area: areas[0], bbox };
}

/**
 * `decodeStringMeasured` of the compressed string held as bytes (`src[start..end)`, its characters as
 * Latin-1: a JSON file's bytes, read without making a string), its counts appended to `packed` (or, without
 * it, not kept: the area and box only): the number of counts is returned (they are the last ones of
 * `packed`), the area written to `areas[i]` and the box [x, y, w, h] to `boxes[4i … 4i+3]`. The same
 * values and the same errors (the message quotes the bytes as the string they spell); on an error
 * `packed` is left as it was.
 */
export function decodeBytesMeasured(src: Uint8Array, start: number, end: number, h: number, w: number, packed: PackedCounts | undefined, areas: Float64Array, boxes: Float64Array, i: number): number {
  checkSize(h, w);
  if (packed === undefined && h > 0 && h <= MAX_FAST_SIDE && w <= MAX_FAST_SIDE) {
    const m = measureOnly(src, start, end, h, w, areas, boxes, 4 * i, i);
    if (m >= 0) return m;
  }
  const base = packed ? packed.length : 0;
  // sizes below 2^31 as int32 (a Float64Array column gives doubles): the decoder's arithmetic on them
  // stays in small integers
  const hi = h | 0;
  const wi = w | 0;
  const small = hi === h && wi === w;
  const m = measure(src, start, end, small ? hi : h, small ? wi : w, packed ? packed.room(end - start) : scratchU32(end - start), base, areas, boxes, 4 * i, undefined, i);
  if (packed) packed.length = base + m;
  return m;
}

/**
 * `decodeBytesMeasured`'s area alone (no box, no counts kept), written to `areas[i]`: what a result whose
 * mask is never compared needs. The same value and the same errors (a string the fast pass does not take
 * goes through the full decoder).
 */
export function decodeBytesArea(src: Uint8Array, start: number, end: number, h: number, w: number, areas: Float64Array, i: number): void {
  checkSize(h, w);
  const a = areaOnly(src, start, end, h * w);
  if (a >= 0) areas[i] = a;
  else measure(src, start, end, h, w, scratchU32(end - start), 0, areas, plainBox, 0, undefined, i);
}

/** The area of the compressed string src[start..end) of a mask of n pixels, or -1 for anything but a valid string with counts below 2^31. */
function areaOnly(src: Uint8Array, start: number, end: number, n: number): number {
  let m = 0;
  let p = start;
  let back2 = 0;
  let back1 = 0;
  let sum = 0;
  let a = 0;
  while (p < end) {
    let v: number;
    const c0 = src[p++] - 48;
    if (c0 >= 0 && c0 < 32) v = c0 & 0x10 ? c0 - 32 : c0;
    else {
      if (c0 < 0 || c0 > 63) return -1;
      let x = c0 & 0x1f;
      let k = 1;
      let c = c0;
      while (c & 0x20) {
        if (p === end || k === 6) return -1;
        c = src[p++] - 48;
        if (c < 0 || c > 63) return -1;
        x |= (c & 0x1f) << (5 * k);
        k++;
      }
      v = (x << (32 - 5 * k)) >> (32 - 5 * k); // SIGN_EXTEND
    }
    if (m > 2) v += back2;
    if (v < 0 || v > 0x7fffffff) return -1;
    back2 = back1;
    back1 = v;
    sum += v;
    if (m & 1) a += v;
    m++;
  }
  return sum === n ? a : -1;
}

/**
 * The counts of the compressed string src[start..end) appended to `packed` (returns how many), without
 * the area and box: what a second decoding of a string already measured needs (the IoU's). The same
 * counts and the same errors as `decodeBytesMeasured` (an invalid string is handed to it for the error).
 */
export function decodeBytes(src: Uint8Array, start: number, end: number, h: number, w: number, packed: PackedCounts): number {
  checkSize(h, w);
  const base = packed.length;
  const cnts = packed.room(end - start);
  const m = plainCounts(src, start, end, cnts, base);
  if (m >= 0) {
    let sum = 0;
    for (let j = 0; j < m; j++) sum += cnts[base + j];
    if (sum === h * w) {
      packed.length = base + m;
      return m;
    }
  }
  return decodeBytesMeasured(src, start, end, h, w, packed, plainArea, plainBox, 0);
}
const plainArea = new Float64Array(1);
const plainBox = new Float64Array(4);

/** `measure`'s decoding alone: the counts into cnts[base …], or -1 for a string that is not valid. */
function plainCounts(src: Uint8Array, start: number, end: number, cnts: Uint32Array, base: number): number {
  let m = 0;
  let p = start;
  while (p < end) {
    let v: number;
    const c0 = src[p] - 48;
    if (c0 >= 0 && c0 < 32) {
      v = c0 & 0x10 ? c0 - 32 : c0;
      p++;
    } else {
      let x = 0;
      let k = 0;
      let c: number;
      let seventh = false;
      do {
        if (p === end) return -1;
        c = src[p++] - 48;
        if (c < 0 || c > 63) return -1;
        if (k === 6) {
          seventh = true;
          break;
        }
        x |= (c & 0x1f) << (5 * k);
        k++;
      } while (c & 0x20);
      if (!seventh) v = (x << (32 - 5 * k)) >> (32 - 5 * k); // SIGN_EXTEND
      else {
        if (c & 0x20) return -1;
        v = (x >>> 0) + (c & 0x1f) * 2 ** 30;
        if (c & 0x10) v -= 2 ** 35;
      }
    }
    if (m > 2) v += cnts[base + m - 2];
    cnts[base + m] = v >>> 0;
    m++;
  }
  return m;
}

/** Masks up to this side are measured by `measureOnly` (the counts and positions stay small integers). */
const MAX_FAST_SIDE = 1 << 15;

/**
 * `measure` without keeping the counts (the area and box only, what loading a result needs), for a valid
 * string of an h×w mask with 0 < h, w ≤ 2^15 and counts of at most 6 characters: the two counts before
 * the current one are kept in variables instead of an array, and nothing is written per count. Returns
 * the number of counts, or -1 (nothing written) for anything else (a bad character, a string ending inside
 * a count, a 7-character count, counts not summing to h·w): `measure` then gives the value or the error.
 */
function measureOnly(src: Uint8Array, start: number, end: number, h: number, w: number, areas: Float64Array, boxes: Float64Array, boxAt: number, areaAt: number): number {
  let m = 0;
  let p = start;
  let back2 = 0; // count m-2
  let back1 = 0; // count m-1
  let sum = 0;
  let a = 0;
  let xs = w;
  let ys = h;
  let xe = 0;
  let ye = 0;
  let col = 0;
  let row = 0;
  while (p < end) {
    let v: number;
    const c0 = src[p++] - 48;
    if (c0 >= 0 && c0 < 32) v = c0 & 0x10 ? c0 - 32 : c0;
    else {
      if (c0 < 0 || c0 > 63) return -1;
      let x = c0 & 0x1f;
      let k = 1;
      let c = c0;
      while (c & 0x20) {
        if (p === end || k === 6) return -1;
        c = src[p++] - 48;
        if (c < 0 || c > 63) return -1;
        x |= (c & 0x1f) << (5 * k);
        k++;
      }
      v = (x << (32 - 5 * k)) >> (32 - 5 * k); // SIGN_EXTEND
    }
    if (m > 2) v += back2;
    // a count outside [0, h·w] makes the sum differ from h·w (a valid RLE's counts never exceed it)
    if (v < 0 || v > 0x7fffffff) return -1;
    back2 = back1;
    back1 = v;
    sum += v;
    const colStart = col;
    const rowStart = row;
    const r = row + v;
    if (r < h) row = r;
    else if (r < 2 * h) {
      row = r - h;
      col++;
    } else {
      const q = Math.floor(r / h);
      col += q;
      row = r - q * h;
    }
    if (m & 1 && v !== 0) {
      a += v;
      let yEnd: number, xEnd: number;
      if (row > 0) {
        yEnd = row - 1;
        xEnd = col;
      } else {
        yEnd = h - 1;
        xEnd = col - 1;
      }
      if (colStart < xs) xs = colStart;
      if (xEnd > xe) xe = xEnd;
      if (colStart < xEnd) {
        ys = 0;
        ye = h - 1;
      } else {
        if (rowStart < ys) ys = rowStart;
        if (yEnd > ye) ye = yEnd;
      }
    }
    m++;
  }
  if (sum !== h * w) return -1;
  if (m >= 2) {
    boxes[boxAt] = xs;
    boxes[boxAt + 1] = ys;
    boxes[boxAt + 2] = (xe - xs + 1) >>> 0;
    boxes[boxAt + 3] = (ye - ys + 1) >>> 0;
  } else boxes.fill(0, boxAt, boxAt + 4);
  areas[areaAt] = a;
  return m;
}

/** The error of a bad character (`string-char`), a string ending inside a count (`string-truncated`) or a too-long count (`string-group`) at p (relative to start). */
function failAt(reason: 'string-char' | 'string-truncated' | 'string-group', src: Uint8Array, start: number, end: number, text: string | undefined, p: number): never {
  let s = text;
  if (s === undefined) {
    s = '';
    for (let i = start; i < end; i++) s += String.fromCharCode(src[i]);
  }
  if (reason === 'string-truncated') fail(reason, 'RLE string ends inside a count', s, p, 'a last character below "P" (no continuation bit 0x20)', 'the end of the string');
  if (reason === 'string-char') fail(reason, 'invalid character in RLE string', s, p, 'characters "0" … "o"', JSON.stringify(s[p]));
  fail(reason, 'RLE count too long', s, p, 'at most 7 characters per count', `${s.slice(p, p + 8)}…`);
}

/**
 * The one pass of `decodeStringMeasured`: the counts of src[start..end) (h, w checked) written to
 * cnts[base …] (room for end − start of them), the area to areas[areaAt], the box to boxes[boxAt …];
 * returns the number of counts. `text` is the string itself when there is one (for errors).
 */
function measure(src: Uint8Array, start: number, end: number, h: number, w: number, cnts: Uint32Array, base: number, areas: Float64Array, boxes: Float64Array, boxAt: number, text: string | undefined, areaAt: number): number {
  let m = 0;
  let p = start;
  // running pixel position (the sum of the counts so far), the area and toBbox's extremes
  let pos = 0;
  let a = 0;
  let xs = w;
  let ys = h;
  let xe = 0;
  let ye = 0;
  let col = 0;
  let row = 0;
  while (p < end) {
    let v: number;
    const c0 = src[p] - 48;
    if (c0 >= 0 && c0 < 32) {
      // one character, no continuation bit (most counts of real masks): 5 bits, sign-extended
      v = c0 & 0x10 ? c0 - 32 : c0;
      p++;
    } else {
      let x = 0;
      let k = 0;
      let c: number;
      let seventh = false;
      const first = p;
      do {
        if (p === end) failAt('string-truncated', src, start, end, text, first - start);
        c = src[p++] - 48;
        if (c < 0 || c > 63) failAt('string-char', src, start, end, text, p - 1 - start);
        if (k === 6) {
          seventh = true;
          break;
        }
        x |= (c & 0x1f) << (5 * k);
        k++;
      } while (c & 0x20);
      if (!seventh) {
        v = (x << (32 - 5 * k)) >> (32 - 5 * k); // SIGN_EXTEND
      } else {
        if (c & 0x20) failAt('string-group', src, start, end, text, first - start);
        v = (x >>> 0) + (c & 0x1f) * 2 ** 30;
        if (c & 0x10) v -= 2 ** 35;
      }
    }
    if (m > 2) v += cnts[base + m - 2];
    const count = v >>> 0;
    cnts[base + m] = count;
    // toBboxInto's step for count m (uint32 running sum; only 1-runs of positive length count). The
    // running position is also kept as (column, row), advanced without a division for runs shorter
    // than two columns; the sum of a valid RLE's counts is h·w < 2^32, so the uint32 sum never wraps
    // (where it would, the counts do not sum to h·w and checkRle below throws).
    const begin = pos;
    pos = (pos + count) >>> 0;
    const colStart = col;
    const rowStart = row;
    if (h > 0) {
      const r = row + count;
      if (r < h) row = r;
      else if (r < 2 * h) {
        row = r - h;
        col++;
      } else {
        const q = Math.floor(r / h);
        col += q;
        row = r - q * h;
      }
    }
    if (m & 1 && count !== 0) {
      a += count;
      let yStart: number, xStart: number, yEnd: number, xEnd: number;
      if (h > 0) {
        yStart = rowStart;
        xStart = colStart;
        if (row > 0) {
          yEnd = row - 1;
          xEnd = col;
        } else {
          yEnd = h - 1;
          xEnd = col - 1;
        }
      } else {
        yStart = begin % h;
        xStart = (begin - yStart) / h;
        const last = (pos - 1) >>> 0;
        yEnd = last % h;
        xEnd = (last - yEnd) / h;
      }
      if (xStart < xs) xs = xStart;
      if (xEnd > xe) xe = xEnd;
      if (xStart < xEnd) {
        ys = 0;
        ye = h - 1;
      } else {
        if (yStart < ys) ys = yStart;
        if (yEnd > ye) ye = yEnd;
      }
    }
    m++;
  }
  // the sum check before the counts are kept (a failed RLE leaves the arena as it was)
  let sum = 0;
  for (let j = 0; j < m; j++) sum += cnts[base + j];
  if (sum !== h * w) checkRle({ h, w, counts: cnts.subarray(base, base + m) });
  if (m >= 2) {
    boxes[boxAt] = xs;
    boxes[boxAt + 1] = ys;
    boxes[boxAt + 2] = (xe - xs + 1) >>> 0;
    boxes[boxAt + 3] = (ye - ys + 1) >>> 0;
  } else boxes.fill(0, boxAt, boxAt + 4);
  areas[areaAt] = a >>> 0;
  return m;
}

/**
 * Type feedback for every branch of `measure` before the first real string: a mask file's first strings
 * may not reach a branch (a 7-character count, a run over several columns, a failure) until the
 * optimised code is in place, and reaching it then throws the code away (a deoptimisation: the decoding
 * goes back to the interpreter, ~20× slower, until it is compiled again). A few tiny RLEs, microseconds.
 */
function warmUp(): void {
  const areas = new Float64Array(1);
  const boxes = new Float64Array(4);
  const packed = new PackedCounts(64);
  const cases: Rle[] = [
    { h: 4, w: 3, counts: Uint32Array.of(1, 2, 1, 3, 4, 1) }, // short runs, row wraps, negative deltas
    { h: 3, w: 4, counts: Uint32Array.of(0, 6, 3, 3) }, // a first 1-run over two whole columns (row back to 0)
    { h: 2, w: 9, counts: Uint32Array.of(7, 1, 10) }, // a 0-run over several columns
    { h: 65536, w: 32768, counts: Uint32Array.of(2 ** 31 - 5, 5) }, // a 7-character count
  ];
  for (let r = 0; r < 2; r++) {
    for (const rle of cases) {
      const s = encodeString(rle);
      for (let i = 0; i < s.length; i++) charBytes[i] = s.charCodeAt(i);
      packed.length = 0;
      decodeBytesMeasured(charBytes, 0, s.length, rle.h, rle.w, r ? packed : undefined, areas, boxes, 0);
      decodeBytes(charBytes, 0, s.length, rle.h, rle.w, packed);
      decodeBytesArea(charBytes, 0, s.length, rle.h, rle.w, areas, 0);
    }
  }
  for (const [s, h, w] of [['5:e2', 10, 11], ['5:x', 10, 10], ['5:e', 10, 10], ['oooooooo0', 10, 10]] as const) {
    for (let i = 0; i < s.length; i++) charBytes[i] = s.charCodeAt(i);
    try {
      decodeBytesMeasured(charBytes, 0, s.length, h, w, packed, areas, boxes, 0);
    } catch {
      // the failures' branches
    }
    try {
      decodeBytes(charBytes, 0, s.length, h, w, packed);
    } catch {
      // the same for the plain decoding
    }
  }
}
warmUp();
