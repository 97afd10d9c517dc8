/**
 * The fast path of the prediction decoder: an 8-bit greyscale, non-interlaced PNG (what nearly every submission
 * holds) decoded straight to its grey values with Node's zlib (CRCs and inflate native) and one un-filter pass,
 * without pngjs's RGBA expansion (~4x less CPU at 512x683). It accepts only files whose decoding cannot differ from
 * pngjs's: anything else (another colour type or depth, interlace, a PLTE / tRNS / gAMA chunk, an unknown critical
 * chunk, a bad CRC, bytes after IEND, a zlib stream that does not inflate to exactly the image, a filter type above
 * 4) returns null, and the caller decodes with pngjs as before, so every message stays the same. Fuzzed against
 * pngjs (`grey-png.test.ts`).
 */
import { crc32, inflateSync } from 'node:zlib';
import { isAllZero } from '@cvdevkit/boundary';

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const IHDR = 0x49484452;
const IDAT = 0x49444154;
const IEND = 0x49454e44;
/** Chunks pngjs interprets (PLTE, tRNS, gAMA): left to it. */
const INTERPRETED = new Set([0x504c5445, 0x74524e53, 0x67414d41]);

/**
 * The grey values (row-major) of an 8-bit greyscale non-interlaced PNG, or null when pngjs must decide. `allZero`:
 * every value is 0 (most prediction maps of a submission), found before un-filtering, which is then skipped.
 */
export function decodeGrey8Png(bytes: Uint8Array): { width: number; height: number; data: Uint8Array; allZero: boolean } | null {
  const n = bytes.length;
  if (n < 45) return null;
  for (let i = 0; i < 8; i++) if (bytes[i] !== SIGNATURE[i]) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(8) !== 13 || view.getUint32(12) !== IHDR) return null;
  const width = view.getUint32(16);
  const height = view.getUint32(20);
  // depth 8, colour type 0, compression 0, filter 0, interlace 0
  if (bytes[24] !== 8 || bytes[25] !== 0 || bytes[26] !== 0 || bytes[27] !== 0 || bytes[28] !== 0) return null;
  if (width < 1 || height < 1 || width * height > 0x3fffffff) return null;
  const idat: Uint8Array[] = [];
  let pos = 8;
  let ended = false;
  while (pos + 12 <= n) {
    const length = view.getUint32(pos);
    const type = view.getUint32(pos + 4);
    const end = pos + 12 + length;
    if (end > n) return null;
    const critical = (bytes[pos + 4] & 0x20) === 0;
    if (type === IHDR || type === IDAT || type === IEND) {
      if ((type === IHDR) !== (pos === 8)) return null;
      if (crc32(bytes.subarray(pos + 4, pos + 8 + length)) !== view.getUint32(pos + 8 + length)) return null;
      if (type === IDAT) idat.push(bytes.subarray(pos + 8, pos + 8 + length));
    } else if (critical || INTERPRETED.has(type)) return null;
    pos = end;
    if (type === IEND) {
      ended = true;
      break;
    }
  }
  if (!ended || pos !== n || idat.length === 0) return null;
  const rowBytes = width + 1;
  const size = rowBytes * height;
  let raw: Uint8Array;
  try {
    // one output chunk with a byte to spare: no chunk list to concatenate, no spare chunk allocated at the end
    raw = inflateSync(idat.length === 1 ? idat[0] : Buffer.concat(idat), { maxOutputLength: size, chunkSize: Math.max(64, size + 1) });
  } catch {
    return null;
  }
  if (raw.length !== size) return null;
  const data = new Uint8Array(raw.buffer, raw.byteOffset, width * height);
  if (zeroImage(raw, width, height)) return { width, height, data, allZero: true };
  // un-filtered in place (each row moves down by its filter byte and more), read through a plain Uint8Array
  if (!unfilterGrey8(raw, width, height, raw)) return null;
  return { width, height, data, allZero: false };
}

/**
 * Whether the filtered rows `raw` (a filter byte and `width` bytes per row) hold an all-zero image: every filter
 * type is valid (0..4) and every other byte is 0. Then every row un-filters to zeros whatever its filter (each
 * predictor reads only bytes already un-filtered to 0), and conversely the first nonzero byte of the rows un-filters
 * to itself, so this is exact. When it returns true, `raw` is all zero (the filter bytes are cleared: raw's first
 * width·height bytes are the image); otherwise `raw` is left as it was.
 */
export function zeroImage(raw: Uint8Array, width: number, height: number): boolean {
  const rowBytes = width + 1;
  for (let y = 0; y < height; y++) if (raw[y * rowBytes] > 4) return false;
  const filters = new Uint8Array(height);
  for (let y = 0; y < height; y++) {
    filters[y] = raw[y * rowBytes];
    raw[y * rowBytes] = 0;
  }
  if (isAllZero(raw)) return true;
  for (let y = 0; y < height; y++) raw[y * rowBytes] = filters[y];
  return false;
}


/**
 * PNG scanline un-filtering for one byte per pixel: `raw` holds `height` rows of a filter byte and `width` bytes;
 * the values go to `out`, which may be `raw` itself (in place: row y is written at y·width, before its own bytes and
 * after the rows already written, so nothing is overwritten before it is read). Returns false on a filter type above
 * 4. Hot loop, kept whole.
 */
export function unfilterGrey8(raw: Uint8Array, width: number, height: number, out: Uint8Array): boolean {
  for (let y = 0; y < height; y++) {
    const r = y * (width + 1) + 1;
    const o = y * width;
    const up = o - width;
    const filter = raw[r - 1];
    if (filter === 0 || (filter === 2 && y === 0)) {
      if (out === raw) out.copyWithin(o, r, r + width);
      else out.set(raw.subarray(r, r + width), o);
    } else if (filter === 1) {
      let left = 0;
      for (let x = 0; x < width; x++) out[o + x] = left = (raw[r + x] + left) & 255;
    } else if (filter === 2) {
      for (let x = 0; x < width; x++) out[o + x] = (raw[r + x] + out[up + x]) & 255;
    } else if (filter === 3) {
      let left = 0;
      if (y === 0) for (let x = 0; x < width; x++) out[o + x] = left = (raw[r + x] + (left >> 1)) & 255;
      else for (let x = 0; x < width; x++) out[o + x] = left = (raw[r + x] + ((left + out[up + x]) >> 1)) & 255;
    } else if (filter === 4) {
      if (y === 0) {
        // no row above: Paeth picks the left byte
        let left = 0;
        for (let x = 0; x < width; x++) out[o + x] = left = (raw[r + x] + left) & 255;
        continue;
      }
      let left = 0;
      let upLeft = 0;
      for (let x = 0; x < width; x++) {
        const above = out[up + x];
        const pa = Math.abs(above - upLeft); // |p - left|, p = left + above - upLeft
        const pb = Math.abs(left - upLeft); // |p - above|
        const pc = Math.abs(left + above - 2 * upLeft); // |p - upLeft|
        const pred = pa <= pb && pa <= pc ? left : pb <= pc ? above : upLeft;
        out[o + x] = left = (raw[r + x] + pred) & 255;
        upLeft = above;
      }
    } else return false;
  }
  return true;
}
