import { mean, median } from '@cvdevkit/metrics';
import { classCurves } from './evaluate-curves.js';
import { groupDetections, groupEntries, type ImageGroups } from './evaluate-groups.js';
import { matchImages, objectsByLabel, type MatchOutcome } from './evaluate-matching.js';
import { blacklistByImage, positivesPerClass } from './evaluate-positives.js';
import type { GroundTruth } from './ground-truth.js';
import type { Blacklist, Predictions } from './inputs.js';

export interface DetectionEvalOptions {
  /**
   * How the per-image lists are concatenated before the global sort (this only decides ties in
   * confidence across images):
   * - `'index'`: image-index order (`eval_detection.m`, DET);
   * - `'line'`: list-line order (the STMN `eval_vid_detection.m`, VID).
   */
  order: 'index' | 'line';
  /**
   * A detection on an image index that is not in the list:
   * - `'error'`: an input error naming the line (DET: the official code fails);
   * - `'drop'`: removed before evaluation (VID: the STMN copy prunes them).
   */
  outside: 'error' | 'drop';
  /** Extra entries to leave out (VID `excludeGenerated`): entry i is dropped when `exclude[i]` is 1. */
  exclude?: Uint8Array;
  /** Keep the global ranking and each detection's outcome in the result (for per-image statistics). */
  keepRanking?: boolean;
}

/** The global ranking behind the curves: kept detections in ranked order, their list entry and outcome. */
export interface DetectionRanking {
  dets: Uint32Array;
  /** List entry (line) of each detection (indexed by detection), -1 when dropped. */
  entryOfDet: Int32Array;
  /** Outcome of each detection (indexed by detection): tp, fp (both 0 = blacklisted / skipped). */
  tp: Uint8Array;
  fp: Uint8Array;
}

export interface ClassResult {
  /** Class label (1-based position in the meta file's synsets). */
  label: number;
  /** Positives after the blacklist (`num_pos_per_class(c)`). */
  npos: number;
  /** Detections of this class in the ranking (blacklisted ones included). */
  ndet: number;
  ap: number;
  recall: Float64Array;
  precision: Float64Array;
}

export interface DetectionEvalResult {
  /** One entry per class 1..numClasses (numClasses = length of num_pos_per_class = largest GT label). */
  classes: ClassResult[];
  meanAP: number;
  medianAP: number;
  stats: {
    /** Detections considered (after dropping). */
    detections: number;
    /** Detections dropped because their image is not in the list (`outside: 'drop'`) or excluded. */
    dropped: number;
    /** Detections whose class id is outside 1..numClasses (false positives in no curve). */
    outOfRange: number;
    firstOutOfRangeLine?: number;
    /** Detections with xmax < xmin or ymax < ymin (never overlap anything). */
    inverted: number;
    firstInvertedLine?: number;
    /** Detections skipped by the blacklist. */
    blacklisted: number;
    /** List indices that occur on more than one line (the last line's ground truth is matched). */
    duplicateIds: number;
  };
  ranking?: DetectionRanking;
}

/**
 * The ILSVRC2015 detection evaluation (`eval_detection.m` / `eval_vid_detection.m`), in named phases:
 * 1. group: each image index is matched to the last list line with it, and the detections are grouped
 *    by image (`evaluate-groups.ts`);
 * 2. positives: `num_pos_per_class` minus blacklisted and excluded objects (`evaluate-positives.ts`);
 * 3. match: per image, detections in descending confidence (NaN first, stable) are greedily matched to
 *    the best-IoU not-yet-detected object of their class with IoU ≥ the object's threshold (blacklisted
 *    (image, class) detections are skipped but stay in the ranking) (`evaluate-matching.ts`);
 * 4. accumulate: the per-image lists are concatenated, stably sorted by confidence (NaN first), and
 *    each class's PR curve and VOCap AP are computed (`evaluate-curves.ts`);
 * 5. report: mean and median over classes 1..numClasses.
 */
export function evaluateDetections(gt: GroundTruth, preds: Predictions, blacklist: Blacklist | undefined, options: DetectionEvalOptions): DetectionEvalResult {
  const exclude = options.exclude;
  const groups = groupEntries(gt, options.order, exclude);
  const blByImage = blacklistByImage(blacklist);
  const numPos = positivesPerClass(gt, blByImage, exclude);
  const { matched, kept, dropped, entryOfDet } = groupAndMatch(gt, preds, groups, blByImage, options);
  const { tp, fp, concat } = matched;
  const { classes, aps, rank } = classCurves(preds, concat, tp, fp, numPos);
  const { blacklisted, outOfRange, firstOutOfRangeLine, inverted, firstInvertedLine } = matched;
  return {
    classes,
    meanAP: mean(aps),
    medianAP: median(aps),
    stats: { detections: kept, dropped, outOfRange, firstOutOfRangeLine, inverted, firstInvertedLine, blacklisted, duplicateIds: groups.duplicateIds },
    ...(entryOfDet ? { ranking: { dets: Uint32Array.from(rank, (k) => concat[k]), entryOfDet, tp, fp } } : {}),
  };
}

/**
 * Groups the detections by image and matches them. The grouping (8 bytes a detection) is let go on
 * return, before the global ranking allocates: the peak memory of a 5 M-line run is ~8 bytes a line lower.
 */
function groupAndMatch(gt: GroundTruth, preds: Predictions, groups: ImageGroups, blByImage: Map<number, number[]>, options: DetectionEvalOptions): { matched: MatchOutcome; kept: number; dropped: number; entryOfDet?: Int32Array } {
  const dets = groupDetections(preds, groups, options.outside);
  const matched = matchImages(gt, preds, objectsByLabel(gt), groups, dets, blByImage);
  const entryOfDet = options.keepRanking ? Int32Array.from(dets.groupOfDet, (g) => (g >= 0 ? groups.entryOfGroup[g] : -1)) : undefined;
  return { matched, kept: dets.kept, dropped: dets.dropped, entryOfDet };
}
