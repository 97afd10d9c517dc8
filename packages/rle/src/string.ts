/**
 * The compressed RLE string of COCO files: pycocotools `rleToString` / `rleFrString`. Each count is
 * written as signed 5-bit groups, least significant first, in the characters '0' … 'o' (48 + value,
 * 0x20 = another group follows, 0x10 of the last group = sign); from the 4th count on, the difference
 * to the count two places before is written instead of the count.
 */
import { RleError, show } from './errors.js';
import { checkRle, checkSize, type Rle } from './rle.js';
import { scratchU32 } from './scratch.js';

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
      v = c & 0x10 ? x | (-1 << (5 * k)) : x; // sign-extend from the last group
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
    if (this.used + m > this.chunk.length) {
      this.chunk = new Uint32Array(Math.max(m, this.chunkSize));
      this.used = 0;
    }
    const at = this.used;
    this.chunk.set(src.subarray(0, m), at);
    this.used = at + m;
    return this.chunk.subarray(at, at + m);
  }
}

/**
 * `decodeString`, `area` and `toBbox` in one pass over the string's characters: what loading a segm
 * result needs (pycocotools' `mask.area` and `mask.toBbox` each parse the string again). Equal to the
 * three calls value for value (property-tested against them), with the same errors. With `arena`, the
 * counts are kept there (see `CountsArena`).
 */
export function decodeStringMeasured(s: string, h: number, w: number, arena?: CountsArena): MeasuredRle {
  checkSize(h, w);
  const n = s.length;
  let cnts = scratchU32(Math.min(n, 1 << 16));
  let m = 0;
  let p = 0;
  // running pixel position (the sum of the counts so far), the area and toBbox's extremes
  let pos = 0;
  let a = 0;
  let xs = w;
  let ys = h;
  let xe = 0;
  let ye = 0;
  let col = 0;
  let row = 0;
  while (p < n) {
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
      v = c & 0x10 ? x | (-1 << (5 * k)) : x;
    } else {
      if (c & 0x20) fail('string-group', 'RLE count too long', s, start, 'at most 7 characters per count', `${s.slice(start, start + 8)}…`);
      v = (x >>> 0) + (c & 0x1f) * 2 ** 30;
      if (c & 0x10) v -= 2 ** 35;
    }
    if (m > 2) v += cnts[m - 2];
    if (m === cnts.length) cnts = scratchU32(2 * m, cnts);
    const count = v >>> 0;
    cnts[m] = count;
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
  const rle: Rle = { h, w, counts: arena ? arena.copy(cnts, m) : cnts.slice(0, m) };
  checkRle(rle);
  const bbox = new Float64Array(4);
  if (m >= 2) {
    bbox[0] = xs;
    bbox[1] = ys;
    bbox[2] = (xe - xs + 1) >>> 0;
    bbox[3] = (ye - ys + 1) >>> 0;
  }
  return { rle, area: a >>> 0, bbox };
}
