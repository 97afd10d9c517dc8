import { GrowableF64, GrowableI32, GrowableU8 } from './growable.js';

/** Outcome of a detection at one IoU threshold (accumulate's `tps` / `fps` / ignored). */
export const FP = 0;
export const TP = 1;
export const IGNORED = 2;

/**
 * The `evaluateImg` records of one category, image by image in ascending image-id order: for every kept
 * detection its score, its rank in its image's score order (for the `maxDet` cut) and the image's position
 * (the same for every area range), and per area range one outcome per IoU threshold and the number of
 * non-ignored GTs. This is all `accumulate` reads, and what a shard writes for `merge`.
 */
export class CategoryRecords {
  readonly scores: GrowableF64;
  readonly ranks: GrowableI32;
  readonly images: GrowableI32;
  /** outcomes[a]: T entries per detection. */
  readonly outcomes: GrowableU8[];
  /** Non-ignored GTs (`npig`) per area range. */
  readonly npig: Float64Array;
  /** Images with a record (GT or detections of this category). */
  imagesWithRecord = 0;
  /** `capacity`: the detections expected (an upper bound avoids growing the columns; they grow past it). */
  constructor(
    readonly thresholds: number,
    readonly areas: number,
    capacity = 64,
  ) {
    const c = Math.max(1, capacity);
    this.scores = new GrowableF64(c);
    this.ranks = new GrowableI32(c);
    this.images = new GrowableI32(c);
    this.outcomes = Array.from({ length: areas }, () => new GrowableU8(c * thresholds));
    this.npig = new Float64Array(areas);
  }
  get count(): number {
    return this.scores.length;
  }
  /** Empties the records, keeping the columns' memory (for the next category). */
  clear(): this {
    this.scores.length = 0;
    this.ranks.length = 0;
    this.images.length = 0;
    for (const o of this.outcomes) o.length = 0;
    this.npig.fill(0);
    this.imagesWithRecord = 0;
    return this;
  }
}
