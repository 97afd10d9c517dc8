/** Uncompressed RLE (a `counts` list, COCO's crowd annotations) to Rle: pycocotools `frUncompressedRLE`. */
import { RleError, show } from './errors.js';
import { checkRle, checkSize, type Rle } from './rle.js';

/**
 * The Rle of uncompressed counts of an h×w mask. Give the RLE's own `size` [h, w]: pycocotools ignores the
 * image's size here. Counts must be integers in 0 … 2^32−1 (numpy's uint32 cast raises on negatives and
 * would truncate fractions: those are rejected) summing to h·w.
 */
export function fromUncompressed(counts: ArrayLike<number>, h: number, w: number): Rle {
  checkSize(h, w);
  const out = new Uint32Array(counts.length);
  for (let i = 0; i < counts.length; i++) {
    const c = counts[i];
    if (!Number.isInteger(c) || c < 0 || c > 0xffffffff) {
      throw new RleError('counts-value', `count ${i} is not a uint32`, { expected: 'an integer in 0 … 4294967295', found: show(c), position: i });
    }
    out[i] = c;
  }
  const rle: Rle = { h, w, counts: out };
  checkRle(rle);
  return rle;
}
