import type { Rle } from './rle.js';
import { PackedCounts } from './string.js';

/**
 * A list of masks held as packed counts, for `iouPacked`: mask i is h[i] × w[i], its counts at
 * `counts.data[start[i] … start[i] + length[i])`. Emptied (`clear`) and filled again call after call, it
 * keeps its memory: no object, array or view per mask (an evaluation measures tens of thousands).
 */
export class MaskList {
  readonly counts: PackedCounts;
  start: Int32Array = new Int32Array(16);
  length: Int32Array = new Int32Array(16);
  h: Float64Array = new Float64Array(16);
  w: Float64Array = new Float64Array(16);
  size = 0;

  /** `capacity`: room for this many counts before the first growth. */
  constructor(capacity = 4096) {
    this.counts = new PackedCounts(capacity);
  }

  /** Empties the list (its memory kept). */
  clear(): void {
    this.size = 0;
    this.counts.length = 0;
  }

  /** The counts appended to `counts` from `base` on (m of them) become the next mask, of size h × w. */
  push(h: number, w: number, base: number, m: number): void {
    const i = this.size;
    if (i === this.start.length) {
      const n = 2 * i;
      this.start = grownI32(this.start, n);
      this.length = grownI32(this.length, n);
      this.h = grownF64(this.h, n);
      this.w = grownF64(this.w, n);
    }
    this.start[i] = base;
    this.length[i] = m;
    this.h[i] = h;
    this.w[i] = w;
    this.size = i + 1;
  }

  /** Appends a copy of `rle`. */
  add(rle: Rle): void {
    const m = rle.counts.length;
    const base = this.counts.length;
    this.counts.room(m).set(rle.counts, base);
    this.counts.length = base + m;
    this.push(rle.h, rle.w, base, m);
  }
}

function grownI32(a: Int32Array, n: number): Int32Array {
  const b = new Int32Array(n);
  b.set(a);
  return b;
}

function grownF64(a: Float64Array, n: number): Float64Array {
  const b = new Float64Array(n);
  b.set(a);
  return b;
}
