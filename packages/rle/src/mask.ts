/** Dense masks ↔ RLE, and the area: pycocotools `rleEncode`, `rleDecode`, `rleArea`. */
import { RleError } from './errors.js';
import { checkRle, checkSize, type Rle } from './rle.js';
import { scratchU32 } from './scratch.js';

/**
 * Run-length encodes a column-major h×w mask (index x·h + y). A run ends where the byte value changes,
 * as in pycocotools, so the mask must hold 0 and 1 only (a 255 after a 1 would start a new run).
 */
export function encode(mask: Uint8Array, h: number, w: number): Rle {
  checkSize(h, w);
  const a = h * w;
  if (mask.length !== a) {
    throw new RleError('size', 'mask length is not h*w', { expected: `${a} bytes (h=${h}, w=${w})`, found: `${mask.length} bytes` });
  }
  let out = scratchU32(1024);
  let k = 0;
  let p = 0;
  let c = 0;
  for (let j = 0; j < a; j++) {
    const t = mask[j];
    if (t !== p) {
      if (k === out.length) out = scratchU32(k * 2, out);
      out[k++] = c;
      c = 0;
      p = t;
    }
    c++;
  }
  if (k === out.length) out = scratchU32(k + 1, out);
  out[k++] = c;
  return { h, w, counts: out.slice(0, k) };
}

/** The column-major h×w 0/1 mask of an RLE. Throws RleError 'counts-sum' unless the counts sum to h·w. */
export function decode(rle: Rle): Uint8Array {
  checkRle(rle);
  const out = new Uint8Array(rle.h * rle.w);
  const c = rle.counts;
  let p = 0;
  for (let j = 0; j < c.length; j++) {
    const n = c[j];
    if (j & 1) out.fill(1, p, p + n);
    p += n;
  }
  return out;
}

/** Number of 1 pixels: the sum of the odd-index counts (uint32, as `rleArea`). */
export function area(rle: Rle): number {
  const c = rle.counts;
  let a = 0;
  for (let j = 1; j < c.length; j += 2) a += c[j];
  return a >>> 0;
}
