/** Bounding box of an RLE: pycocotools 2.0.11 `rleToBbox` (the version that skips zero-length 1-runs). */
import type { Rle } from './rle.js';

/** Writes [x, y, w, h] of `rle` at out[o … o+3]. */
export function toBboxInto(rle: Rle, out: Float64Array, o: number): void {
  countsBboxInto(rle.counts, 0, rle.counts.length, rle.h, rle.w, out, o);
}

/** Writes [x, y, w, h] of the h×w mask whose counts are c[at … at+len) at out[o … o+3] (toBboxInto of packed counts). */
export function countsBboxInto(c: Uint32Array, at: number, len: number, h: number, w: number, out: Float64Array, o: number): void {
  const m = len & ~1; // an odd last 0-run is dropped
  if (m === 0) {
    out[o] = out[o + 1] = out[o + 2] = out[o + 3] = 0;
    return;
  }
  let xs = w;
  let ys = h;
  let xe = 0;
  let ye = 0;
  let cc = 0;
  for (let j = 0; j < m; j++) {
    const start = cc;
    const n = c[at + j];
    cc = (cc + n) >>> 0;
    if ((j & 1) === 0 || n === 0) continue;
    const yStart = start % h;
    const xStart = (start - yStart) / h;
    const last = (cc - 1) >>> 0;
    const yEnd = last % h;
    const xEnd = (last - yEnd) / h;
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
  out[o] = xs;
  out[o + 2] = (xe - xs + 1) >>> 0; // uint arithmetic: wraps for a mask without 1 pixels, as in C
  out[o + 1] = ys;
  out[o + 3] = (ye - ys + 1) >>> 0;
}

/** [x, y, w, h] of the mask's 1 pixels (pixel units, x = column); [0, 0, 0, 0] for fewer than 2 counts. */
export function toBbox(rle: Rle): Float64Array {
  const out = new Float64Array(4);
  toBboxInto(rle, out, 0);
  return out;
}

/** The boxes of several RLEs, row i at [4i … 4i+3]. */
export function toBboxes(rles: readonly Rle[]): Float64Array {
  const out = new Float64Array(4 * rles.length);
  for (let i = 0; i < rles.length; i++) toBboxInto(rles[i], out, 4 * i);
  return out;
}
