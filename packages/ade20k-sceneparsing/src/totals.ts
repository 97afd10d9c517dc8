/**
 * Dataset totals and the summary (demoEvaluation.m:78-80), in IEEE double as the official code does:
 * - `IoU(c) = sum_i I_i(c) / sum_i (eps + U_i(c))`: eps = 2^-52 is added to EACH evaluated image's union
 *   before the sum, and the sum runs image by image in file order from 0 (Octave's `sum` along dim 2);
 *   an image with union 0 adds exactly eps. A class absent from every image gets 0 / (n·eps) = 0.
 * - `mIoU = mean(IoU)`: the left-to-right sum of all 150 IoUs (class 1 first) divided by 150;
 * - `pixelAccuracy = sum(pixel_correct) / sum(pixel_labeled)` (NaN when no pixel is labeled);
 * - `score = (pixelAccuracy + mIoU) / 2` (README "Evaluation routines").
 * Integer sums (intersections, unions, pixel counts) are exact in any order; only the eps sum needs the order.
 */
import { BINS, type ImageCounts } from './image-counts.js';
import { CLASS_COUNT } from './classes.js';

const EPS = Number.EPSILON; // MATLAB's eps = 2^-52

export interface Totals {
  /** Evaluated images (`cnt`). */
  images: number;
  pixelCorrect: number;
  pixelLabeled: number;
  /** Index c - 1 for class c. */
  intersection: Float64Array;
  union: Float64Array;
  /** The official IoU denominator: sum over images, in order, of (eps + union_i). */
  unionEpsSum: Float64Array;
  iou: Float64Array;
  /** The (ground-truth bin × prediction bin) pixel counts, BINS × BINS row-major. */
  confusion: Float64Array;
  pixelAccuracy: number;
  mIoU: number;
  score: number;
}

/** Folds the evaluated images' counts, in the official file order, into the totals and the summary. */
export function computeTotals(images: readonly ImageCounts[]): Totals {
  const intersection = new Float64Array(CLASS_COUNT);
  const union = new Float64Array(CLASS_COUNT);
  const unionEpsSum = new Float64Array(CLASS_COUNT);
  const confusion = new Float64Array(BINS * BINS);
  const unionOfImage = new Float64Array(CLASS_COUNT);
  let pixelCorrect = 0;
  let pixelLabeled = 0;
  for (const im of images) {
    pixelCorrect += im.pixelCorrect;
    pixelLabeled += im.pixelLabeled;
    unionOfImage.fill(0);
    for (let k = 0; k < im.classes.length; k++) {
      const c = im.classes[k] - 1;
      intersection[c] += im.intersection[k];
      union[c] += im.union[k];
      unionOfImage[c] = im.union[k];
    }
    for (let c = 0; c < CLASS_COUNT; c++) unionEpsSum[c] += EPS + unionOfImage[c];
    for (let k = 0; k < im.cells.length; k++) confusion[im.cells[k]] += im.cellCounts[k];
  }
  const iou = new Float64Array(CLASS_COUNT);
  let iouSum = 0;
  for (let c = 0; c < CLASS_COUNT; c++) {
    iou[c] = intersection[c] / unionEpsSum[c];
    iouSum += iou[c];
  }
  const mIoU = iouSum / CLASS_COUNT;
  const pixelAccuracy = pixelCorrect / pixelLabeled;
  return { images: images.length, pixelCorrect, pixelLabeled, intersection, union, unionEpsSum, iou, confusion, pixelAccuracy, mIoU, score: (pixelAccuracy + mIoU) / 2 };
}
