/**
 * Label images as PNG: the reader gives what MATLAB's `[im, map] = imread(file)` gives for the label
 * images of PASCAL VOC — palette INDICES for palette PNGs (never colours) and the stored values for
 * greyscale PNGs — and the writer stores indices as a palette PNG with the VOC colour map.
 *
 * Decoding uses pngjs's own chunk parser (CRC checks), inflater and scanline un-filtering, and stops
 * before pngjs's colour normalisation (which would expand palette images to RGBA and lose the indices).
 */
import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { inflateSync as zlibInflateSync } from 'node:zlib';
import type pngjsModule from 'pngjs';
import { DevkitError, inputError, isDevkitError, type ErrorCode } from '@cvdevkit/core';
import { vocColormap } from './colormap.js';
import { fsWriteError } from './fs-problem.js';
import { readInputBytes, readInputBytesSync } from './input-file.js';
import { inflateExactly } from './inflate-exact.js';
import { readPngChunks, type PngMetadata } from './png-chunks.js';
import { readPngHeader, translatePngError } from './png-header.js';

// pngjs's parts, each loaded on first use (CommonJS): the plain 8-bit label images of VOC seg need none of them, so
// a run that only reads such files does not load pngjs at all (~9 MiB and ~60 ms of CPU under load).
const requireCjs = createRequire(import.meta.url);
const filterParseSync = { process: (data: Buffer, meta: PngMetadata): Buffer => (requireCjs('pngjs/lib/filter-parse-sync.js') as { process(data: Buffer, meta: PngMetadata): Buffer }).process(data, meta) };
const bitmapper = {
  dataToBitMap: (data: Buffer, meta: PngMetadata): Buffer | Uint16Array => (requireCjs('pngjs/lib/bitmapper.js') as { dataToBitMap(data: Buffer, meta: PngMetadata): Buffer | Uint16Array }).dataToBitMap(data, meta),
};
const pngjsInflateSync = (data: Buffer, options: { chunkSize: number; maxLength: number }): Buffer =>
  (requireCjs('pngjs/lib/sync-inflate.js') as (data: Buffer, options: { chunkSize: number; maxLength: number }) => Buffer)(data, options);
const crc = { crc32: (buf: Uint8Array): number => (requireCjs('pngjs/lib/crc.js') as { crc32(buf: Uint8Array): number }).crc32(buf) };
const pngjs = { get PNG(): typeof pngjsModule.PNG { return (requireCjs('pngjs') as typeof pngjsModule).PNG; } };

// ---------------------------------------------------------------- reader

/** A decoded label image: one value per pixel, row-major (`data[y * width + x]`). */
export interface LabelImage {
  width: number;
  height: number;
  /**
   * Palette indices (palette PNG) or grey values (greyscale PNG), unscaled: a 4-bit palette image gives
   * 0..15 and a 16-bit greyscale image gives 0..65535 (then `data` is a Uint16Array).
   */
  data: Uint8Array | Uint16Array;
  /** `palette` for colour type 3, `grey` for colour types 0 and 4 (the alpha channel is dropped). */
  kind: 'palette' | 'grey';
  /** Bits per sample in the file: 1, 2, 4, 8 or 16. */
  bitDepth: number;
  /** The PLTE entries as RGB triplets (palette images only). */
  palette?: Uint8Array;
}

function pngProblem(file: string | undefined, detail: string, extra: { code?: ErrorCode; expected?: string; found?: string } = {}): DevkitError {
  return inputError({ code: extra.code ?? 'input/png', file, detail, expected: extra.expected, found: extra.found });
}

/**
 * Decodes a label PNG from memory. Palette PNGs give their indices and greyscale PNGs their values,
 * as MATLAB `imread` does. Truecolour PNGs (colour types 2 and 6, where `imread` returns H×W×3) and
 * damaged files are input errors naming `file`. The header is checked first (`readPngHeader`: the
 * `png-pixels` cap), so nothing larger than the cap allows is ever allocated.
 */
export function decodeLabelPng(buffer: Uint8Array, file?: string, options: LabelDecodeOptions = {}): LabelImage {
  const buf = Buffer.isBuffer(buffer) ? buffer : Buffer.from(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  readPngHeader(buf, file);
  const { meta: m, palette, idat } = readPngChunks(buf, file);
  if (m.colorType === 2 || m.colorType === 6) {
    throw pngProblem(file, 'not a label image', {
      code: 'input/png-color-type',
      expected: 'a palette (indexed) or greyscale PNG, one label per pixel',
      found: `a truecolour ${m.colorType === 6 ? 'RGBA' : 'RGB'} PNG (imread would give H×W×3)`,
    });
  }
  const data = (!m.interlace && m.depth === 8 && m.bpp === 1 ? oneBytePerPixel(idat, m, file, options.reuse) : undefined) ?? labelsFromInflated(inflateImageData(idat, m, file), m, file);
  const image: LabelImage = { width: m.width, height: m.height, data, kind: m.colorType === 3 ? 'palette' : 'grey', bitDepth: m.depth };
  if (m.colorType === 3 && palette) image.palette = palette;
  return image;
}

/**
 * Pixel storage that `decodeLabelPng` may reuse from one image to the next (for a loop that is done with an
 * image before it decodes the next one): the `data` it gives is valid until the next decode given the same
 * buffer. Only the 8-bit, one-sample images use it (the label-image case); others get their own array. It
 * holds the inflated scanlines too (`(width + 1) × height + 1` bytes), un-filtered in place into the pixels.
 */
export class ReusableLabelBuffer implements LabelStorage {
  private bytes = new Uint8Array(0);
  /**
   * `n` bytes of the storage, grown when needed to `n` rounded up to 64 KiB (not doubled: a set of images of
   * mixed sizes grows it a few times, by little, and it ends at the largest image, not up to twice that).
   */
  take(n: number): Uint8Array {
    if (this.bytes.length < n) this.bytes = new Uint8Array(Math.ceil(n / GROW_STEP) * GROW_STEP);
    return this.bytes.subarray(0, n);
  }
}

/** `ReusableLabelBuffer`'s growth step. */
const GROW_STEP = 1 << 16;

/**
 * Where `decodeLabelPng` may put an image's pixels (8-bit, one-sample images only): `take(n)` gives `n` bytes (the
 * inflated scanlines, un-filtered in place into the pixels), which may be those of the previous take.
 * `ReusableLabelBuffer` is one; a caller may keep them elsewhere (in a WebAssembly kernel's memory, say).
 */
export interface LabelStorage {
  take(n: number): Uint8Array;
  /**
   * Optional: un-filters the inflated scanlines `raw` (bytes `take` gave, all `height` rows of them — the decoder
   * checks that first; one byte per pixel, `width × height`, each row after its filter byte) into the pixels at its
   * start, in place, exactly as the decoder would, and says
   * true; or says false, having changed nothing (a filter type it does not know, other bytes): the decoder then
   * does it, and gives the message.
   */
  unfilter?(raw: Uint8Array, width: number, height: number): boolean;
}

export interface LabelDecodeOptions {
  /** Where to put the pixels (see `LabelStorage`, `ReusableLabelBuffer`); default: a new array per image. */
  reuse?: LabelStorage;
}

/**
 * Steps 2 and 3 for the label-image case (8 bits, one sample, not interlaced): the image data inflated into a
 * scratch buffer (`inflateExactly`) and un-filtered into the output; undefined when the stream is not a complete
 * one of at most the header's size (or empty): the general path then gives its result or message.
 */
function oneBytePerPixel(idat: Buffer[], m: PngMetadata, file: string | undefined, reuse: LabelStorage | undefined): Uint8Array | undefined {
  const { width, height } = m;
  const size = (width + 1) * height;
  // With reusable storage the stream is inflated straight into it and un-filtered in place: no second copy.
  const raw = inflateExactly(idat.length === 1 ? idat[0] : Buffer.concat(idat), size, reuse?.take(size + 1));
  if (!raw || raw.length === 0) return undefined;
  if (reuse?.unfilter !== undefined && raw.length >= size && reuse.unfilter(raw, width, height)) return new Uint8Array(raw.buffer, raw.byteOffset, width * height);
  const out = reuse ? raw : new Uint8Array(width * height);
  return unfilterOneBytePerPixel(raw, out, width, height, file);
}

/** Step 2: the IDAT stream inflated, with an output bounded by what the header allows. */
function inflateImageData(idat: Buffer[], m: PngMetadata, file: string | undefined): Buffer {
  const { width, height } = m;
  try {
    const compressed = idat.length === 1 ? idat[0] : Buffer.concat(idat);
    const rowSize = ((width * m.bpp * m.depth + 7) >> 3) + 1;
    const imageSize = rowSize * height;
    let inflated: Buffer;
    if (m.interlace) {
      // The seven Adam7 passes add at most one filter byte per row and pass: a bounded output either way.
      inflated = zlibInflateSync(compressed, { maxOutputLength: imageSize + 7 * (height + 8) });
    } else {
      inflated = inflateWhole(compressed, imageSize) ?? pngjsInflateSync(compressed, { chunkSize: imageSize, maxLength: imageSize });
    }
    if (!inflated || inflated.length === 0) throw new Error('no image data');
    return inflated;
  } catch (e) {
    throw pngProblem(file, 'damaged PNG image data', { expected: 'a complete, undamaged PNG', found: translatePngError(e) });
  }
}

/**
 * A complete zlib stream of at most `size` bytes inflated into one buffer (node's zlib, no chunk list to
 * concatenate); undefined for anything else (cut short, damaged, too long), which pngjs's inflater then reads
 * as before, with its result or error. Where this succeeds both give the same bytes. The output buffer has
 * one byte to spare: a stream that fills it exactly would make node's zlib allocate a second one of the same
 * size to look for more output.
 */
function inflateWhole(compressed: Buffer, size: number): Buffer | undefined {
  try {
    return zlibInflateSync(compressed, { chunkSize: Math.max(size + 1, 64), maxOutputLength: Math.max(size, 1) });
  } catch {
    return undefined;
  }
}

/** Step 3: un-filtered scanlines → one label (palette index or grey value, channel 0) per pixel. */
function labelsFromInflated(inflated: Buffer, m: PngMetadata, file: string | undefined): Uint8Array | Uint16Array {
  const { width, height } = m;
  const n = width * height;
  if (!m.interlace && m.depth === 8 && m.bpp === 1) {
    // The label-image case (8-bit palette or grey) when oneBytePerPixel left it: un-filtered in place.
    return unfilterOneBytePerPixel(inflated, inflated, width, height, file);
  }
  let unfiltered: Buffer;
  try {
    unfiltered = filterParseSync.process(inflated, m);
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    throw pngProblem(file, 'damaged PNG image data', { expected: 'a complete, undamaged PNG', found: /waitng|waiting/.test(msg) ? 'fewer rows than the header says' : translatePngError(e) });
  }
  if (!m.interlace && m.depth === 8 && m.bpp === 2) {
    const out = new Uint8Array(n);
    for (let i = 0, j = 0; i < n; i++, j += 2) out[i] = unfiltered[j];
    return out;
  }
  if (!m.interlace && m.depth === 16) {
    const out = new Uint16Array(n);
    const step = 2 * m.bpp;
    for (let i = 0, j = 0; i < n; i++, j += step) out[i] = (unfiltered[j] << 8) | unfiltered[j + 1];
    return out;
  }
  // Interlaced or fewer than 8 bits: pngjs's bitmapper places every pixel (raw value in channel 0).
  let rgba: Buffer | Uint16Array;
  try {
    rgba = bitmapper.dataToBitMap(unfiltered, m);
  } catch (e) {
    throw pngProblem(file, 'damaged PNG image data', { expected: 'a complete, undamaged PNG', found: translatePngError(e) });
  }
  const out = m.depth === 16 ? new Uint16Array(n) : new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = rgba[i * 4];
  return out;
}

/**
 * PNG scanline un-filtering (filter types 0-4, PNG spec §9) for one byte per pixel, non-interlaced:
 * the hot path of label images, done in place of pngjs's line-by-line stream filter for speed.
 * From `raw` (the inflated data) into `out` (`width × height` bytes), which may be `raw` itself: row y
 * moves from `y·(width+1)+1` down to `y·width`, always to a lower index than it is read from, and the row
 * above is already in its final place when a filter reads it.
 */
function unfilterOneBytePerPixel(raw: Uint8Array, out: Uint8Array, width: number, height: number, file: string | undefined): Uint8Array {
  const stride = width + 1;
  if (raw.length < stride * height) {
    throw pngProblem(file, 'damaged PNG image data', { expected: `${stride * height} bytes of scanlines`, found: `${raw.length} (fewer rows than the header says)` });
  }
  for (let y = 0; y < height; y++) {
    const src = y * stride + 1;
    const dst = y * width;
    const up = dst - width;
    const filter = raw[src - 1];
    if (filter === 0 || (filter === 2 && y === 0)) {
      // (no per-row subarray view: one short-lived object per row was most of a seg run's garbage)
      if (out === raw) out.copyWithin(dst, src, src + width);
      else for (let x = 0; x < width; x++) out[dst + x] = raw[src + x];
    } else if (filter === 1) {
      let left = 0;
      for (let x = 0; x < width; x++) out[dst + x] = left = (raw[src + x] + left) & 255;
    } else if (filter === 2) {
      for (let x = 0; x < width; x++) out[dst + x] = (raw[src + x] + out[up + x]) & 255;
    } else if (filter === 3) {
      let left = 0;
      for (let x = 0; x < width; x++) {
        const b = y > 0 ? out[up + x] : 0;
        out[dst + x] = left = (raw[src + x] + ((left + b) >> 1)) & 255;
      }
    } else if (filter === 4) {
      let a = 0;
      let c = 0;
      for (let x = 0; x < width; x++) {
        const b = y > 0 ? out[up + x] : 0;
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        const pred = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
        out[dst + x] = a = (raw[src + x] + pred) & 255;
        c = b;
      }
    } else {
      throw pngProblem(file, 'damaged PNG image data', { expected: 'scanline filter type 0..4', found: `${filter} (row ${y + 1})` });
    }
  }
  // a plain Uint8Array view (not a Buffer), as before
  return new Uint8Array(out.buffer, out.byteOffset, width * height);
}

/** Reads and decodes a label PNG through the input layer (regular file, `png` size cap; see `decodeLabelPng`). */
export async function readLabelPng(file: string): Promise<LabelImage> {
  return decodeLabelPng(await readInputBytes(file, { kind: 'png', expected: 'a PNG file' }), file);
}

/** Synchronous `readLabelPng`. */
export function readLabelPngSync(file: string): LabelImage {
  return decodeLabelPng(readInputBytesSync(file, { kind: 'png', expected: 'a PNG file' }), file);
}

// ---------------------------------------------------------------- writer

export interface IndexedImageInput {
  width: number;
  height: number;
  /** One index per pixel, row-major, integers 0..255 (and below the palette size). */
  data: ArrayLike<number>;
}

export interface IndexedPngOptions {
  /** RGB triplets, at most 256 entries; default: the VOC colour map with 256 entries. */
  palette?: Uint8Array;
  /** zlib level 0..9 (default 6). */
  deflateLevel?: number;
  /** PNG scanline filter 0..4 for every row, or -1 (default): pngjs picks the best of the five per row. */
  filterType?: number;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  out.set(data, 8);
  out.writeInt32BE(crc.crc32(out.subarray(4, 8 + data.length)) | 0, 8 + data.length);
  return out;
}

/**
 * Encodes indices as an 8-bit palette PNG (colour type 3) with the given palette (default: VOC colours).
 * pngjs writes the scanlines as an 8-bit greyscale image (identical filtered bytes); the header is then
 * switched to colour type 3 and the PLTE chunk inserted.
 */
export function encodeIndexedPng(image: IndexedImageInput, options: IndexedPngOptions = {}): Buffer {
  const { width, height, data } = image;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw inputError({ code: 'input/image-size', field: 'width/height', expected: 'positive integers', found: `${width} x ${height}` });
  }
  if (data.length !== width * height) {
    throw inputError({ code: 'input/image-size', field: 'data', expected: `${width * height} values (${width} x ${height})`, found: `${data.length}` });
  }
  const palette = options.palette ?? vocColormap(256);
  const entries = Math.floor(palette.length / 3);
  if (palette.length % 3 !== 0 || entries < 1 || entries > 256) {
    throw inputError({ code: 'input/palette', field: 'palette', expected: '1 to 256 RGB triplets', found: `${palette.length} bytes` });
  }
  let pixels: Buffer;
  if (data instanceof Uint8Array && entries === 256) {
    pixels = Buffer.from(data); // every byte is a valid index: copy without checking
  } else {
    pixels = Buffer.alloc(width * height);
    for (let i = 0; i < pixels.length; i++) {
      const v = data[i];
      if (!(Number.isInteger(v) && v >= 0 && v < entries)) {
        throw inputError({
          code: 'input/label-range',
          field: 'data',
          pixel: `${(i % width) + 1},${Math.floor(i / width) + 1}`,
          expected: `an integer index 0..${entries - 1}`,
          found: String(v),
        });
      }
      pixels[i] = v;
    }
  }
  // The packer only reads width, height, data and gamma.
  const png = { width, height, data: pixels, gamma: 0 } as unknown as InstanceType<typeof pngjs.PNG>;
  const grey = pngjs.PNG.sync.write(png, {
    colorType: 0,
    inputColorType: 0,
    bitDepth: 8,
    inputHasAlpha: false,
    deflateLevel: options.deflateLevel ?? 6,
    ...(options.filterType !== undefined ? { filterType: options.filterType } : {}),
  });
  // signature (8) + IHDR chunk (4 length + 4 type + 13 data + 4 crc) = 33 bytes
  const header = Buffer.from(grey.subarray(0, 33));
  if (header.toString('latin1', 12, 16) !== 'IHDR') throw new DevkitError({ kind: 'internal', code: 'internal/png-writer', detail: 'unexpected PNG layout from pngjs' });
  header[8 + 8 + 9] = 3; // colour type: palette
  header.writeInt32BE(crc.crc32(header.subarray(12, 29)) | 0, 29);
  return Buffer.concat([header, chunk('PLTE', palette.subarray(0, entries * 3)), grey.subarray(33)]);
}

/** Writes indices as a palette PNG file (see `encodeIndexedPng`). */
export async function writeIndexedPng(file: string, image: IndexedImageInput, options: IndexedPngOptions = {}): Promise<void> {
  const bytes = encodeIndexedPng(image, options);
  try {
    await writeFile(file, bytes);
  } catch (e) {
    if (isDevkitError(e)) throw e;
    throw fsWriteError(e, file, 'a PNG file');
  }
}
