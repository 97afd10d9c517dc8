/**
 * Small crops of test images for the `top` section of an analyze page, made by sharp (libvips; prebuilt
 * binaries for every common platform come from npm as `@img/sharp-<platform>` packages, so nothing is
 * compiled): the image (`<id>.jpg`, `.jpeg`, `.JPEG`, `.JPG`, `.png` in the images folder) is cut to the
 * boxes plus a margin, shrunk to at most `maxSide` pixels and re-encoded as a small JPEG for a `data:` URI.
 * sharp is loaded on first use only. Anything that goes wrong (sharp missing on the platform, no file, not
 * an image, too large) is a reason string, never an exception: the page shows the id and the box instead.
 *
 * Untrusted folders are safe: only JPEG and PNG are decoded (sniffed from the bytes, see `image-header.ts`;
 * the library never sees another format), the header's pixel size is checked before decoding, each crop
 * has a time limit, and a symbolic link that leads out of the images folder is not followed.
 */
import { closeSync, fstatSync, lstatSync, openSync, readSync, realpathSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { describeMagic, imageHeader } from './image-header.js';

type Sharp = typeof import('sharp');

/** A box `x1 y1 x2 y2` in the devkits' +1-pixel convention (pixels x1..x2 inclusive, 1-based). */
export type PixelBox = readonly [number, number, number, number];

export interface Crop {
  /** `data:image/jpeg;base64,…` */
  uri: string;
  /** The region of the image it shows, in 0-based pixel edges: [x0, x1) × [y0, y1). */
  region: { x0: number; y0: number; x1: number; y1: number };
  /** Its size in pixels after shrinking. */
  width: number;
  height: number;
  bytes: number;
}

const EXTENSIONS = ['.jpg', '.jpeg', '.JPEG', '.JPG', '.png'];
/** Files above this are not decoded (a test image is far smaller). */
const MAX_FILE_BYTES = 32 * 1024 * 1024;
/** Decompression-bomb guard, checked on the header and given to sharp (`limitInputPixels`): 25 MP (5000×5000) decodes in ~75 MB. */
const MAX_PIXELS = 25e6;
/** Time limit of one crop (sharp's `timeout`). */
const CROP_SECONDS = 5;

let sharpModule: Promise<Sharp | string> | undefined;

/** sharp, or why it cannot be loaded on this platform. */
export function loadSharp(): Promise<Sharp | string> {
  sharpModule ??= import('sharp').then(
    (m) => (m.default ?? m) as Sharp,
    (e: unknown) => `the image library sharp cannot be loaded here (${e instanceof Error ? e.message.split('\n')[0].slice(0, 160) : 'unknown error'})`,
  );
  return sharpModule;
}

/**
 * The image file of an id in `dir`, or undefined. Ids with a path separator or `..` are refused, and so is
 * a symbolic link whose target lies outside `dir`.
 */
export function findImageFile(dir: string, id: string): string | undefined {
  if (id.includes('/') || id.includes('\\') || id.includes('..') || id.length === 0) return undefined;
  let realDir: string | undefined;
  for (const ext of EXTENSIONS) {
    const file = join(dir, `${id}${ext}`);
    try {
      const st = lstatSync(file);
      if (st.isFile()) return file;
      if (!st.isSymbolicLink()) continue;
      realDir ??= realpathSync(dir);
      const target = realpathSync(file);
      if (target.startsWith(realDir + sep) && statSync(target).isFile()) return file;
    } catch {
      // try the next extension
    }
  }
  return undefined;
}

/** The file's bytes (at most `MAX_FILE_BYTES`), or why not. */
function readImage(file: string): Buffer | string {
  const fd = openSync(file, 'r');
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return 'not a regular file';
    if (st.size > MAX_FILE_BYTES) return `larger than ${MAX_FILE_BYTES / 1024 / 1024} MiB`;
    const buf = Buffer.alloc(st.size);
    let n = 0;
    while (n < buf.length) {
      const r = readSync(fd, buf, n, buf.length - n, n);
      if (r === 0) break;
      n += r;
    }
    return buf.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

/** The region around the boxes: their union plus `margin` of its size on each side (at least 8 px), inside the image. */
export function cropRegion(boxes: readonly PixelBox[], width: number, height: number, margin = 0.15): Crop['region'] | undefined {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const b of boxes) {
    if (!b.every(Number.isFinite)) continue;
    x0 = Math.min(x0, b[0] - 1);
    y0 = Math.min(y0, b[1] - 1);
    x1 = Math.max(x1, b[2]);
    y1 = Math.max(y1, b[3]);
  }
  if (!(x1 > x0 && y1 > y0)) return undefined;
  const mx = Math.max(8, (x1 - x0) * margin);
  const my = Math.max(8, (y1 - y0) * margin);
  const r = { x0: Math.max(0, Math.floor(x0 - mx)), y0: Math.max(0, Math.floor(y0 - my)), x1: Math.min(width, Math.ceil(x1 + mx)), y1: Math.min(height, Math.ceil(y1 + my)) };
  return r.x1 > r.x0 && r.y1 > r.y0 ? r : undefined;
}

/** A crop of the image file around the boxes as a small JPEG `data:` URI, or why not. */
export async function makeCrop(file: string, boxes: readonly PixelBox[], maxSide = 160, quality = 72): Promise<Crop | string> {
  const sharp = await loadSharp();
  if (typeof sharp === 'string') return sharp;
  try {
    const bytes = readImage(file);
    if (typeof bytes === 'string') return bytes;
    const header = imageHeader(bytes);
    if (!header) return `not a JPEG or PNG (found ${describeMagic(bytes)})`;
    if (!(header.width > 0 && header.height > 0)) return 'an image without a size';
    if (header.width * header.height > MAX_PIXELS) return `${header.width}×${header.height} pixels: more than the ${MAX_PIXELS / 1e6} million a crop decodes`;
    const region = cropRegion(boxes, header.width, header.height);
    if (!region) return 'no box inside the image';
    const w = region.x1 - region.x0;
    const h = region.y1 - region.y0;
    const { data, info } = await sharp(bytes, { limitInputPixels: MAX_PIXELS, failOn: 'error' })
      .timeout({ seconds: CROP_SECONDS })
      .extract({ left: region.x0, top: region.y0, width: w, height: h })
      .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality })
      .toBuffer({ resolveWithObject: true });
    return { uri: `data:image/jpeg;base64,${data.toString('base64')}`, region, width: info.width, height: info.height, bytes: data.length };
  } catch (e) {
    return `not a readable image (${e instanceof Error ? e.message.split('\n')[0].slice(0, 120) : 'unknown error'})`;
  }
}
