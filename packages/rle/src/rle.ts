import { RleError, show } from './errors.js';

/**
 * A binary h×w mask as run lengths in column-major order (pixel index x·h + y): counts alternate
 * 0-runs and 1-runs and start with a 0-run (possibly of length 0), as pycocotools' `RLE`.
 * Every Rle this package returns has counts summing to h·w.
 */
export interface Rle {
  readonly h: number;
  readonly w: number;
  readonly counts: Uint32Array;
}

/** Largest h·w: counts are uint32 and must sum to h·w. */
export const MAX_PIXELS = 0xffffffff;

/** Throws RleError 'size' unless h, w are non-negative integers with h·w < 2^32. */
export function checkSize(h: number, w: number): void {
  if (!Number.isInteger(h) || !Number.isInteger(w) || h < 0 || w < 0 || h * w > MAX_PIXELS) {
    throw new RleError('size', 'invalid mask size', {
      expected: 'integers h, w >= 0 with h*w < 2^32',
      found: `h=${show(h)}, w=${show(w)}`,
    });
  }
}

/** Throws RleError unless `rle` has a valid size and counts summing to h·w. */
export function checkRle(rle: Rle): void {
  checkSize(rle.h, rle.w);
  const c = rle.counts;
  let sum = 0;
  for (let i = 0; i < c.length; i++) sum += c[i];
  if (sum !== rle.h * rle.w) {
    throw new RleError('counts-sum', 'RLE counts do not cover the mask', {
      expected: `counts summing to h*w = ${rle.h}*${rle.w} = ${rle.h * rle.w}`,
      found: `sum ${sum} of ${c.length} counts`,
    });
  }
}
