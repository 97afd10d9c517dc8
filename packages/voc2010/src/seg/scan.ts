/** Reading, checking and counting a batch of segmentation images (runs in a worker or in-process). */
import { isDevkitError, type Problem } from '@cvdevkit/core';
import { join, sep } from 'node:path';
// the entries of @cvdevkit/formats a seg run needs, not its whole index (gzip, JSON, caches: ~1 MiB more to load)
import { inputLimit, readInputBytesSync } from '@cvdevkit/formats/text';
import { listFolder, listedFileBuffer, readListedFile, type ListedFolder } from '@cvdevkit/formats/files';
import { ReusableLabelBuffer, decodeLabelPng, readPngHeader, type LabelImage, type LabelStorage } from '@cvdevkit/formats/png';
import { SEG_NUM_LABELS } from './classes.js';
import { SEG_HISTOGRAM_SIZE, accumulateSegHistogram, checkSegPair } from './confusion.js';
import { segHistogramKernel } from './histogram-kernel.js';

export interface SegItem {
  id: string;
  gtFile: string;
  resFile: string;
  /** Also return this image's own confusion counts (per-image statistics). */
  perImage?: boolean;
}

/** One image's non-zero confusion cells (`g * 21 + r`) and their counts. */
export interface SegImageCounts {
  id: string;
  cells: number[];
  counts: number[];
}

export interface SegBatchResult {
  /** Joint histogram (441 bins, see `accumulateSegHistogram`). */
  hist: Float64Array;
  /** Pixels counted. */
  pixels: number;
  problems: Problem[];
  /** Ids whose ground truth is entirely void (the official code's Octave run fails on them). */
  allVoid: string[];
  /** Per image (when asked), in batch order. */
  images?: SegImageCounts[];
}

/**
 * `join(dir, `${id}.png`)`, the path of image `id` in `dir`, made without `join`'s normalising pass when that pass
 * would change nothing (`id` holds no path separator): `prefix` is `segImagePrefix(dir)`. `join` builds its result
 * piece by piece (a tree of about ten string pieces a path); this is one piece for the id.
 */
export function segImagePath(dir: string, prefix: string, id: string): string {
  return id.includes('/') || (sep === '\\' && id.includes('\\')) ? join(dir, `${id}.png`) : `${prefix}${id}.png`;
}

/** What `join(dir, name)` puts before a plain `name` (one without separators, not `.` or `..`). */
export function segImagePrefix(dir: string): string {
  return join(dir, 'x').slice(0, -1);
}

/** The items of a batch of image ids, their paths made when the batch is scanned (`segImagePath`), not all up front. */
export function segItems(ids: readonly string[], dirs: { gtDir: string; resultDir: string }, perImage: boolean): SegItem[] {
  const gtPrefix = segImagePrefix(dirs.gtDir);
  const resPrefix = segImagePrefix(dirs.resultDir);
  return ids.map((id) => {
    const item: SegItem = { id, gtFile: segImagePath(dirs.gtDir, gtPrefix, id), resFile: segImagePath(dirs.resultDir, resPrefix, id) };
    if (perImage) item.perImage = true;
    return item;
  });
}

/**
 * Pixel storage reused from image to image (one pair at a time per thread): no image-sized garbage per file. In the
 * histogram kernel's memory when there is one (the pixels are counted there), else plain buffers.
 */
let pixelStorage: { gt: LabelStorage; res: LabelStorage } | undefined;
function threadPixelStorage(): { gt: LabelStorage; res: LabelStorage } {
  return (pixelStorage ??= segHistogramKernel() ?? { gt: new ReusableLabelBuffer(), res: new ReusableLabelBuffer() });
}

/**
 * The folders images are read from, each listed once (`readListedFile`: no stat, no fstat), by folder path. A
 * listing is a snapshot: keep one map for one run (a name added later is read the ordinary way; one removed
 * fails to open and is read the ordinary way too, with its message).
 */
export type SegFolders = Map<string, ListedFolder>;

/**
 * A PNG's bytes: read from its listed folder into the shared read buffer (valid until the next read) when it is
 * a plain regular file there, else the ordinary way (`readInputBytesSync`: the checks and the messages).
 */
function readPngBytes(file: string, folders: SegFolders): Uint8Array {
  const dir = file.slice(0, file.lastIndexOf(sep));
  let folder = folders.get(dir);
  if (folder === undefined) {
    folder = listFolder(dir);
    folders.set(dir, folder);
  }
  const n = readListedFile(file, folder, inputLimit('png'));
  return n >= 0 ? listedFileBuffer().subarray(0, n) : readInputBytesSync(file, { kind: 'png', expected: 'a PNG file' });
}

/**
 * Reads a label PNG (its pixels in `pixels`, valid until the next image); with `gt`, a result whose header declares another size and more pixels than the
 * ground truth is reported from its header alone (never decoded: a 69-byte PNG may claim 50000×50000).
 */
function read(file: string, folders: SegFolders, problems: Problem[], pixels: LabelStorage, gt?: { id: string; image: LabelImage }): LabelImage | undefined {
  try {
    const bytes = readPngBytes(file, folders);
    if (gt) {
      const h = readPngHeader(bytes, file);
      const g = gt.image;
      if ((h.width !== g.width || h.height !== g.height) && h.width * h.height > g.width * g.height) {
        problems.push(...checkSegPair(gt.id, g, { width: h.width, height: h.height, data: new Uint8Array(0), kind: 'grey', bitDepth: h.bitDepth }, file, -1));
        return undefined;
      }
    }
    return decodeLabelPng(bytes, file, { reuse: pixels });
  } catch (e) {
    if (isDevkitError(e) && e.kind === 'input') {
      problems.push(...e.problems);
      return undefined;
    }
    throw e;
  }
}

/** Checks and counts every image of the batch; problems are collected, not thrown. `folders`: see `SegFolders` (one per run). */
export function scanSegBatch(items: readonly SegItem[], folders: SegFolders = new Map(), hist = new Float64Array(SEG_HISTOGRAM_SIZE)): SegBatchResult {
  const problems: Problem[] = [];
  const allVoid: string[] = [];
  let pixels = 0;
  const scratch = new Float64Array(SEG_HISTOGRAM_SIZE);
  const images: SegImageCounts[] = [];
  const storage = threadPixelStorage();
  const kernel = segHistogramKernel();
  for (const item of items) {
    const gt = read(item.gtFile, folders, problems, storage.gt);
    const res = read(item.resFile, folders, problems, storage.res, gt ? { id: item.id, image: gt } : undefined);
    if (!gt || !res) continue;
    if (gt.width === res.width && gt.height === res.height) {
      // One pass: count into a scratch histogram and find out-of-range results on the way.
      const { counted, firstAbove } = kernel?.accumulate(scratch, gt.data, res.data, SEG_NUM_LABELS - 1) ?? accumulateSegHistogram(scratch.fill(0), gt.data, res.data, SEG_NUM_LABELS - 1);
      if (firstAbove >= 0) {
        problems.push(...checkSegPair(item.id, gt, res, item.resFile, firstAbove));
        continue;
      }
      addHistogram(hist, scratch);
      if (item.perImage) images.push(sparseConfusion(item.id, scratch));
      if (counted === 0 && gt.data.length > 0 && !(gt.data as Uint8Array).some((v: number) => v < 255)) allVoid.push(item.id);
      pixels += counted;
    } else {
      problems.push(...checkSegPair(item.id, gt, res, item.resFile));
    }
  }
  return { hist, pixels, problems, allVoid, ...(items.some((i) => i.perImage) ? { images } : {}) };
}

/**
 * `hist += add`, bin by bin. A function of its own: this loop (441 steps an image) inside `scanSegBatch` made that
 * function hot, and its optimised compilation, with the reads inlined twice, took ~1 MB of compiler memory.
 */
function addHistogram(hist: Float64Array, add: Float64Array): void {
  for (let i = 0; i < SEG_HISTOGRAM_SIZE; i++) hist[i] += add[i];
}

/** Histogram bin L = 1 + gt + 21·res − 1 → confusion cell `gt * 21 + res` (see histogramToConfusion). */
function sparseConfusion(id: string, hist: Float64Array): SegImageCounts {
  const cells: number[] = [];
  const counts: number[] = [];
  for (let l = 0; l < SEG_HISTOGRAM_SIZE; l++) {
    if (hist[l] === 0) continue;
    const g = l % SEG_NUM_LABELS;
    cells.push(g * SEG_NUM_LABELS + (l - g) / SEG_NUM_LABELS);
    counts.push(hist[l]);
  }
  return { id, cells, counts };
}
