/**
 * The per-image counts of the official evaluation (`intersectionAndUnion.m`, `pixelAccuracy.m`), one pass
 * over the pixels. With `l` the ground truth and `p` the prediction (both as stored, uint16):
 * - a pixel is labeled when `l > 0`; the prediction is masked to 0 at unlabeled pixels (`p .* (l > 0)`);
 * - `hist(x, 0:150)` puts an integer value v in bin `min(v, 150)`: every value above 150 counts as class 150;
 * - intersection(c): labeled pixels with `p == l` whose bin is c; pred area(c), label area(c): the bins of
 *   the masked prediction and of the ground truth; union = pred + label - intersection; bin 0 is dropped;
 * - `pixel_correct = sum(p == l & l > 0)`, `pixel_labeled = sum(l > 0)`.
 * A prediction of 0 at a labeled pixel is wrong and in no class's prediction area. `pred === null` is an
 * image scored as if every pixel were predicted 0 (`--missing-as-wrong`).
 */
import { CLASS_COUNT } from './classes.js';

/** Rows and columns of the confusion matrix: bin 0 (unlabeled / predicted 0) and the classes 1..150. */
export const BINS = CLASS_COUNT + 1;

/** One image's counts, sparse: the classes with a non-zero union, in ascending order. */
export interface ImageCounts {
  pixelCorrect: number;
  pixelLabeled: number;
  /** Classes (1..150) whose union is non-zero in this image (a non-zero intersection implies one). */
  classes: number[];
  intersection: number[];
  union: number[];
  /** Non-zero cells of the (ground-truth bin × masked prediction bin) matrix: `gtBin * BINS + predBin`. */
  cells: number[];
  cellCounts: number[];
}

/** Counts one image; `gt` and `pred` are row-major, of the same length (the caller checks the sizes). */
export function countImage(gt: ArrayLike<number>, pred: ArrayLike<number> | null): ImageCounts {
  const n = gt.length;
  const inter = new Float64Array(BINS);
  const predArea = new Float64Array(BINS);
  const labArea = new Float64Array(BINS);
  const matrix = new Float64Array(BINS * BINS);
  let correct = 0;
  let labeled = 0;
  for (let i = 0; i < n; i++) {
    const l = gt[i];
    if (l === 0) {
      matrix[0]++;
      continue;
    }
    labeled++;
    const gb = l > CLASS_COUNT ? CLASS_COUNT : l;
    const p = pred === null ? 0 : pred[i];
    const pb = p > CLASS_COUNT ? CLASS_COUNT : p;
    if (p === l) {
      correct++;
      inter[gb]++;
    }
    predArea[pb]++;
    labArea[gb]++;
    matrix[gb * BINS + pb]++;
  }
  const classes: number[] = [];
  const intersection: number[] = [];
  const union: number[] = [];
  for (let c = 1; c < BINS; c++) {
    const u = predArea[c] + labArea[c] - inter[c];
    if (u === 0) continue;
    classes.push(c);
    intersection.push(inter[c]);
    union.push(u);
  }
  const cells: number[] = [];
  const cellCounts: number[] = [];
  for (let k = 0; k < matrix.length; k++) {
    if (matrix[k] === 0) continue;
    cells.push(k);
    cellCounts.push(matrix[k]);
  }
  return { pixelCorrect: correct, pixelLabeled: labeled, classes, intersection, union, cells, cellCounts };
}
