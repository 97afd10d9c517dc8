import { ProblemCollector } from '@cvdevkit/core';
import { averagePrecisionArea, matchDetections, mean, median, precisionRecall, rankDescending } from '@cvdevkit/metrics';
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
 * The ILSVRC2015 detection evaluation (`eval_detection.m` / `eval_vid_detection.m`):
 * per image, detections in descending confidence (NaN first, stable) are greedily matched to the
 * best-IoU not-yet-detected object of their class with IoU ≥ the object's threshold (blacklisted
 * (image, class) detections are skipped but stay in the ranking); the per-image lists are
 * concatenated, stably sorted by confidence (NaN first), and each class's PR curve and VOCap AP
 * are computed; mean and median over classes 1..numClasses.
 */
/** A reusable plain array of exactly `n` elements. */
function pooled(pool: number[][], n: number): number[] {
  let a = pool[n];
  if (!a) {
    a = new Array<number>(n).fill(0);
    pool[n] = a;
  }
  return a;
}

/** True when confidence `a` ranks strictly after `b` in MATLAB's `sort(…, 'descend')` (NaN first). */
function after(a: number, b: number): boolean {
  if (Number.isNaN(b)) return !Number.isNaN(a);
  return a < b;
}

export function evaluateDetections(gt: GroundTruth, preds: Predictions, blacklist: Blacklist | undefined, options: DetectionEvalOptions): DetectionEvalResult {
  const nEntries = gt.imageIds.length;
  const numClasses = gt.numPos.length;
  const exclude = options.exclude;

  // Entry matched for each image index: the last list line with that index (DET: tp_cell{id} is
  // overwritten by later lines; VID: Octave's ismember returns the last occurrence).
  const entryOf = new Map<number, number>();
  let duplicateIds = 0;
  for (let i = 0; i < nEntries; i++) {
    if (exclude && exclude[i]) continue;
    if (entryOf.has(gt.imageIds[i])) duplicateIds++;
    entryOf.set(gt.imageIds[i], i);
  }

  // Group rank of each entry: image-index order (DET) or line order (VID).
  const groupOfEntry = new Int32Array(nEntries).fill(-1);
  let nGroups = 0;
  if (options.order === 'index') {
    const ids = Array.from(entryOf.keys()).sort((a, b) => a - b);
    for (const id of ids) groupOfEntry[entryOf.get(id)!] = nGroups++;
  } else {
    for (let i = 0; i < nEntries; i++) if (entryOf.get(gt.imageIds[i]) === i) groupOfEntry[i] = nGroups++;
  }
  const entryOfGroup = new Int32Array(nGroups);
  for (let i = 0; i < nEntries; i++) if (groupOfEntry[i] >= 0) entryOfGroup[groupOfEntry[i]] = i;

  // Assign detections to groups (counting sort: stable, file order within a group).
  const n = preds.count;
  const groupOfDet = new Int32Array(n);
  const problems = new ProblemCollector();
  let dropped = 0;
  const groupSize = new Int32Array(nGroups + 1);
  for (let d = 0; d < n; d++) {
    const e = entryOf.get(preds.imageIds[d]);
    if (e === undefined) {
      groupOfDet[d] = -1;
      dropped++;
      if (options.outside === 'error') {
        problems.add({
          code: 'input/unknown-image',
          file: preds.file,
          line: preds.lines[d],
          field: 'image index',
          expected: 'an image index of the image list',
          found: String(preds.imageIds[d]),
          hint: 'the official eval_detection.m fails on it',
        });
      }
      continue;
    }
    const g = groupOfEntry[e];
    groupOfDet[d] = g;
    groupSize[g + 1]++;
  }
  problems.throwIfAny();
  for (let g = 0; g < nGroups; g++) groupSize[g + 1] += groupSize[g];
  const kept = n - dropped;
  const grouped = new Uint32Array(kept);
  {
    const fill = groupSize.slice(0, nGroups);
    for (let d = 0; d < n; d++) if (groupOfDet[d] >= 0) grouped[fill[groupOfDet[d]]++] = d;
  }

  // Blacklist: (image index, label) pairs.
  const blByImage = new Map<number, number[]>();
  if (blacklist) {
    for (let k = 0; k < blacklist.imageIds.length; k++) {
      const id = blacklist.imageIds[k];
      let a = blByImage.get(id);
      if (!a) blByImage.set(id, (a = []));
      a.push(blacklist.labels[k]);
    }
  }

  // num_pos_per_class minus every blacklisted object, line by line (as the official loop).
  const numPos = Float64Array.from(gt.numPos);
  if (blByImage.size > 0) {
    for (let i = 0; i < nEntries; i++) {
      if (exclude && exclude[i]) continue;
      const bl = blByImage.get(gt.imageIds[i]);
      if (!bl) continue;
      for (let k = gt.objStart[i]; k < gt.objStart[i + 1]; k++) if (bl.includes(gt.labels[k])) numPos[gt.labels[k] - 1]--;
    }
  }
  if (exclude) {
    // Excluded entries contribute no positives.
    for (let i = 0; i < nEntries; i++) {
      if (!exclude[i]) continue;
      for (let k = gt.objStart[i]; k < gt.objStart[i + 1]; k++) numPos[gt.labels[k] - 1]--;
    }
  }

  // Objects of each entry ordered by label (stable), so one class's objects are a contiguous run
  // in their original order (the order the official loop scans them in).
  const nObj = gt.labels.length;
  const objOrder = new Int32Array(nObj);
  for (let i = 0; i < nEntries; i++) {
    const o0 = gt.objStart[i];
    const o1 = gt.objStart[i + 1];
    for (let k = o0; k < o1; k++) {
      let q = k;
      while (q > o0 && gt.labels[objOrder[q - 1]] > gt.labels[k]) {
        objOrder[q] = objOrder[q - 1];
        q--;
      }
      objOrder[q] = k;
    }
  }
  const sLabels = new Int32Array(nObj);
  const sBoxes = new Float64Array(4 * nObj);
  const sThr = new Float64Array(nObj);
  for (let q = 0; q < nObj; q++) {
    const k = objOrder[q];
    sLabels[q] = gt.labels[k];
    sThr[q] = gt.thr[k];
    sBoxes[4 * q] = gt.boxes[4 * k];
    sBoxes[4 * q + 1] = gt.boxes[4 * k + 1];
    sBoxes[4 * q + 2] = gt.boxes[4 * k + 2];
    sBoxes[4 * q + 3] = gt.boxes[4 * k + 3];
  }

  // Per image: sort by confidence (descending, NaN first, stable), then match class by class.
  const tp = new Uint8Array(n);
  const fp = new Uint8Array(n);
  const skip = new Uint8Array(n);
  const concat = new Uint32Array(kept);
  const byLabel = new Uint32Array(kept);
  const detected = new Uint8Array(Math.max(16, nObj));
  const conf = preds.confidences;
  const plabels = preds.labels;
  const detPool: number[][] = [];
  const boxPool: number[][] = [];
  const thrPool: number[][] = [];
  const runGt: { boxes: number[]; minOverlap: number[] } = { boxes: [], minOverlap: [] };
  const matchOptions = { rule: 'ilsvrc' as const, skip, detected };
  let blacklisted = 0;
  let outOfRange = 0;
  let firstOutOfRangeLine: number | undefined;
  let inverted = 0;
  let firstInvertedLine: number | undefined;
  for (let g = 0; g < nGroups; g++) {
    const a = groupSize[g];
    const b = groupSize[g + 1];
    if (a === b) continue;
    const e = entryOfGroup[g];
    // concat[a..b) = this image's detections in descending confidence
    if (b - a <= 32) {
      for (let k = a; k < b; k++) {
        const d = grouped[k];
        const c = conf[d];
        let q = k;
        while (q > a && after(conf[concat[q - 1]], c)) {
          concat[q] = concat[q - 1];
          q--;
        }
        concat[q] = d;
      }
    } else {
      const dets = grouped.subarray(a, b);
      const cs = new Float64Array(b - a);
      for (let k = 0; k < dets.length; k++) cs[k] = conf[dets[k]];
      const order = rankDescending(cs, { nan: 'first' });
      for (let k = 0; k < order.length; k++) concat[a + k] = dets[order[k]];
    }
    const bl = blByImage.get(gt.imageIds[e]);
    // byLabel[a..b) = the same detections stably ordered by label (processing order kept per label)
    for (let k = a; k < b; k++) {
      const d = concat[k];
      const label = plabels[d];
      if (bl && bl.includes(label)) {
        skip[d] = 1;
        blacklisted++;
      }
      if (!(label >= 1 && label <= numClasses)) {
        outOfRange++;
        firstOutOfRangeLine ??= preds.lines[d];
      }
      const bx = 4 * d;
      if (preds.boxes[bx + 2] < preds.boxes[bx] || preds.boxes[bx + 3] < preds.boxes[bx + 1]) {
        inverted++;
        firstInvertedLine ??= preds.lines[d];
      }
      let q = k;
      while (q > a && plabels[byLabel[q - 1]] > label) {
        byLabel[q] = byLabel[q - 1];
        q--;
      }
      byLabel[q] = d;
    }
    const o0 = gt.objStart[e];
    const o1 = gt.objStart[e + 1];
    let q0 = o0;
    for (let k = a; k < b; ) {
      const label = plabels[byLabel[k]];
      let k2 = k + 1;
      while (k2 < b && plabels[byLabel[k2]] === label) k2++;
      while (q0 < o1 && sLabels[q0] < label) q0++;
      let q1 = q0;
      while (q1 < o1 && sLabels[q1] === label) q1++;
      // reused plain arrays (one per length): typed-array views or length changes per
      // (image, class) cost more than the matching itself
      const runDets = pooled(detPool, k2 - k);
      for (let j = k; j < k2; j++) runDets[j - k] = byLabel[j];
      const runBoxes = pooled(boxPool, 4 * (q1 - q0));
      const runThr = pooled(thrPool, q1 - q0);
      for (let j = q0; j < q1; j++) {
        const r = j - q0;
        runThr[r] = sThr[j];
        runBoxes[4 * r] = sBoxes[4 * j];
        runBoxes[4 * r + 1] = sBoxes[4 * j + 1];
        runBoxes[4 * r + 2] = sBoxes[4 * j + 2];
        runBoxes[4 * r + 3] = sBoxes[4 * j + 3];
      }
      runGt.boxes = runBoxes;
      runGt.minOverlap = runThr;
      matchDetections(preds.boxes, runDets, runGt, tp, fp, matchOptions);
      k = k2;
    }
  }

  // Global ranking: stable sort of the concatenation by confidence, NaN first.
  const concatConf = new Float64Array(kept);
  for (let k = 0; k < kept; k++) concatConf[k] = preds.confidences[concat[k]];
  const rank = rankDescending(concatConf, { nan: 'first' });

  // Per class: the ranked detections of that class.
  const perClassCount = new Int32Array(numClasses + 1);
  for (let k = 0; k < kept; k++) {
    const label = preds.labels[concat[k]];
    if (label >= 1 && label <= numClasses) perClassCount[label]++;
  }
  const tpc: Uint8Array[] = [];
  const fpc: Uint8Array[] = [];
  for (let c = 1; c <= numClasses; c++) {
    tpc[c] = new Uint8Array(perClassCount[c]);
    fpc[c] = new Uint8Array(perClassCount[c]);
  }
  const fillc = new Int32Array(numClasses + 1);
  for (let k = 0; k < kept; k++) {
    const d = concat[rank[k]];
    const label = preds.labels[d];
    if (!(label >= 1 && label <= numClasses)) continue;
    const j = fillc[label]++;
    tpc[label][j] = tp[d];
    fpc[label][j] = fp[d];
  }
  const classes: ClassResult[] = [];
  const aps = new Float64Array(numClasses);
  for (let c = 1; c <= numClasses; c++) {
    const { recall, precision } = precisionRecall(tpc[c], fpc[c], numPos[c - 1]);
    const ap = averagePrecisionArea(recall, precision);
    aps[c - 1] = ap;
    classes.push({ label: c, npos: numPos[c - 1], ndet: perClassCount[c], ap, recall, precision });
  }
  return {
    classes,
    meanAP: mean(aps),
    medianAP: median(aps),
    stats: { detections: kept, dropped, outOfRange, firstOutOfRangeLine, inverted, firstInvertedLine, blacklisted, duplicateIds },
    ...(options.keepRanking
      ? { ranking: { dets: Uint32Array.from(rank, (k) => concat[k]), entryOfDet: Int32Array.from(groupOfDet, (g) => (g >= 0 ? entryOfGroup[g] : -1)), tp, fp } }
      : {}),
  };
}
