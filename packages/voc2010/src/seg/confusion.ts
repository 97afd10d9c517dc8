/**
 * The per-image part of `VOCevalseg.m` (lines 30-59): checking a result image against its ground truth and
 * adding it to the joint histogram, exactly as the official code does, aliasing included.
 */
import type { Problem } from '@cvdevkit/core';
import type { LabelImage } from '@cvdevkit/formats/png';
import { SEG_NUM_LABELS, SEG_VOID } from './classes.js';

/** Length of the joint histogram: `histc(sumim, 1:num*num)` with `num = 21`. */
export const SEG_HISTOGRAM_SIZE = SEG_NUM_LABELS * SEG_NUM_LABELS;

/** What `accumulateSegHistogram` found. */
export interface SegCount {
  /** Pixels counted into the histogram. */
  counted: number;
  /** Row-major index of the first result value above `maxLabel`, or -1. */
  firstAbove: number;
}

/**
 * Adds one image to the joint histogram `hist` (length 441). Index `L = gt + 21*res` (0-based; the
 * official `sumim - 1`) is counted for every pixel whose ground truth is below 255, and only when
 * `L <= 440` (histc over 1:441 drops larger values). For ground truth 0..20 and results 0..20 this is
 * the confusion count (gt, res); ground-truth values 21..254 alias into other bins exactly as in the
 * official code. Values are integers below 65536. When a result value exceeds `maxLabel`, the first
 * such pixel is reported (and the histogram should be discarded: the official code stops there).
 */
export function accumulateSegHistogram(hist: Float64Array, gt: ArrayLike<number>, res: ArrayLike<number>, maxLabel = 65535): SegCount {
  const n = gt.length;
  if (res.length !== n) throw new RangeError(`ground truth and result differ in size (${n} vs ${res.length})`);
  if (gt instanceof Uint8Array && res instanceof Uint8Array && gt.byteOffset % 4 === 0 && res.byteOffset % 4 === 0) return accumulateBytes(hist, gt, res, maxLabel);
  // Label images are made of long runs of one (gt, res) pair: count runs, add once per run, and check
  // the result value once per run.
  let counted = 0;
  let firstAbove = -1;
  let prev = -1;
  let run = 0;
  for (let i = 0; i < n; i++) {
    const key = (res[i] << 16) | gt[i];
    if (key === prev) {
      run++;
      continue;
    }
    if (run > 0) counted += addRun(hist, prev, run);
    if (firstAbove < 0 && key >>> 16 > maxLabel) firstAbove = i;
    prev = key;
    run = 1;
  }
  if (run > 0) counted += addRun(hist, prev, run);
  return { counted, firstAbove };
}

/**
 * The 8-bit case (both views 4-byte aligned): pixel by pixel up to the next word boundary after a change of
 * (gt, res), then four pixels at a time, as 32-bit words, for as long as they repeat the current pair. A run
 * is `start..k-1`; it is added when the pair changes. The word scan is a loop of its own (`sameWords`), so no
 * long loop here is compiled on stack replacement with an exit it never saw: that made V8 deoptimise this
 * code at the end of every image (1,000 times over the large case).
 */
function accumulateBytes(hist: Float64Array, gt: Uint8Array, res: Uint8Array, maxLabel: number): SegCount {
  const n = gt.length;
  const words = n >> 2;
  const g32 = new Uint32Array(gt.buffer, gt.byteOffset, words);
  const r32 = new Uint32Array(res.buffer, res.byteOffset, words);
  let counted = 0;
  let firstAbove = -1;
  let prev = -1;
  let start = 0;
  let k = 0;
  while (k < n) {
    const key = (res[k] << 16) | gt[k];
    if (key !== prev) {
      if (k > start) counted += addRun(hist, prev, k - start);
      if (firstAbove < 0 && key >>> 16 > maxLabel) firstAbove = k;
      prev = key;
      start = k;
    }
    k++;
    if ((k & 3) === 0) k = sameWords(g32, r32, k >> 2, ((prev & 0xff) * 0x01010101) | 0, ((prev >>> 16) * 0x01010101) | 0) << 2;
  }
  if (n > start) counted += addRun(hist, prev, n - start);
  return { counted, firstAbove };
}

/** The first word index from `w` on where `g32` is not `g4` or `r32` is not `r4` (`g32.length` if none). */
function sameWords(g32: Uint32Array, r32: Uint32Array, w: number, g4: number, r4: number): number {
  const words = g32.length;
  while (w < words && ((g32[w] ^ g4) | (r32[w] ^ r4)) === 0) w++;
  return w;
}

function addRun(hist: Float64Array, key: number, run: number): number {
  const g = key & 0xffff;
  if (g >= SEG_VOID) return 0;
  const l = g + SEG_NUM_LABELS * (key >>> 16);
  if (l > SEG_HISTOGRAM_SIZE - 1) return 0;
  hist[l] += run;
  return run;
}

/** Index of the first value above `limit` (row-major), or -1. */
export function firstAbove(data: ArrayLike<number>, limit: number): number {
  const n = data.length;
  for (let i = 0; i < n; i++) if (data[i] > limit) return i;
  return -1;
}

/**
 * The confusion matrix from the histogram: `confcounts(:) = hs(:)` fills the 21×21 matrix in column
 * order, so bin `L` is row `L mod 21` (ground truth), column `floor(L / 21)` (result).
 * Returned row-major: `counts[g * 21 + r]`.
 */
export function histogramToConfusion(hist: ArrayLike<number>): Float64Array {
  const out = new Float64Array(SEG_HISTOGRAM_SIZE);
  for (let l = 0; l < SEG_HISTOGRAM_SIZE; l++) {
    const row = l % SEG_NUM_LABELS;
    const col = (l - row) / SEG_NUM_LABELS;
    out[row * SEG_NUM_LABELS + col] = hist[l];
  }
  return out;
}

/** `x,y` (1-based column, row) of a row-major pixel index. */
export function pixelName(index: number, width: number): string {
  return `${(index % width) + 1},${Math.floor(index / width) + 1}`;
}

/**
 * The official checks (lines 42-52), in order: the largest result value must be <= 20 (255 included),
 * and the result must have the ground truth's size. Returns the problems (empty when the pair is valid).
 */
export function checkSegPair(id: string, gt: LabelImage, res: LabelImage, resFile: string, first = firstAbove(res.data, SEG_NUM_LABELS - 1)): Problem[] {
  const problems: Problem[] = [];
  const data = res.data;
  let max = 0;
  if (first >= 0) for (let i = first; i < data.length; i++) if (data[i] > max) max = data[i];
  if (first >= 0) {
    problems.push({
      code: 'input/label-range',
      file: resFile,
      pixel: pixelName(first, res.width),
      detail: `results image '${id}' has out of range value ${max} (its largest value; values must be <= ${SEG_NUM_LABELS - 1})`,
      expected: `labels 0..${SEG_NUM_LABELS - 1}`,
      found: String(data[first]),
      hint: 'results images hold class indices 0..20; 255 (void) is not allowed in results',
    });
  }
  if (gt.width !== res.width || gt.height !== res.height) {
    problems.push({
      code: 'input/size-mismatch',
      file: resFile,
      detail: `results image '${id}' is the wrong size`,
      expected: `${gt.height} x ${gt.width} (rows x columns, as the ground truth)`,
      found: `${res.height} x ${res.width}`,
    });
  }
  return problems;
}
