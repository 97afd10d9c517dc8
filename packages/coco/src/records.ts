import { GrowableF64, GrowableI32, GrowableU8 } from './growable.js';

/** Outcome of a detection at one IoU threshold (accumulate's `tps` / `fps` / ignored). */
export const FP = 0;
export const TP = 1;
export const IGNORED = 2;

/**
 * The `evaluateImg` records of one (category, area range), image by image in ascending image-id order:
 * for every kept detection its score, its rank in its image's score order (for the `maxDet` cut), the
 * image's position, and one outcome per IoU threshold; and the number of non-ignored GTs. This is all
 * `accumulate` reads, and what a shard writes for `merge`.
 */
export class CellRecords {
  readonly scores = new GrowableF64();
  readonly ranks = new GrowableI32();
  readonly images = new GrowableI32();
  readonly outcomes = new GrowableU8();
  /** Non-ignored GTs (`npig`). */
  npig = 0;
  /** Images with a record (GT or detections of this category). */
  imagesWithRecord = 0;
  constructor(readonly thresholds: number) {}
  get count(): number {
    return this.scores.length;
  }
}
