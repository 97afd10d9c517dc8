/**
 * Phase 3 of `evaluateDetections`: per image, detections in descending confidence (NaN first, stable)
 * are greedily matched to the best-IoU not-yet-detected object of their class with IoU ≥ the object's
 * threshold; blacklisted (image, class) detections are skipped but stay in the ranking.
 *
 * This is the hot kernel of the ILSVRC evaluation (84,100 detections on 5,000 images in det_large):
 * scratch arrays are allocated once per evaluation and reused for every image, and the small per-image
 * sorts are insertion sorts on typed arrays.
 */
import { matchDetections, rankDescending } from '@cvdevkit/metrics';
import type { GroundTruth } from './ground-truth.js';
import type { Predictions } from './inputs.js';

/** The ground-truth objects of each entry stably ordered by label (one class is a contiguous run). */
export interface ObjectsByLabel {
  labels: Int32Array;
  boxes: Float64Array;
  thr: Float64Array;
}

/**
 * Objects of each entry ordered by label (stable), so one class's objects are a contiguous run in
 * their original order (the order the official loop scans them in).
 */
export function objectsByLabel(gt: GroundTruth): ObjectsByLabel {
  const nEntries = gt.imageIds.length;
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
  const labels = new Int32Array(nObj);
  const boxes = new Float64Array(4 * nObj);
  const thr = new Float64Array(nObj);
  for (let q = 0; q < nObj; q++) {
    const k = objOrder[q];
    labels[q] = gt.labels[k];
    thr[q] = gt.thr[k];
    boxes[4 * q] = gt.boxes[4 * k];
    boxes[4 * q + 1] = gt.boxes[4 * k + 1];
    boxes[4 * q + 2] = gt.boxes[4 * k + 2];
    boxes[4 * q + 3] = gt.boxes[4 * k + 3];
  }
  return { labels, boxes, thr };
}

/** The outcome of matching every image: per detection tp/fp, the per-image orders and counters. */
export interface MatchOutcome {
  tp: Uint8Array;
  fp: Uint8Array;
  /** Kept detections image by image (group order), each image's in descending confidence. */
  concat: Uint32Array;
  blacklisted: number;
  outOfRange: number;
  firstOutOfRangeLine?: number;
  inverted: number;
  firstInvertedLine?: number;
}

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

/** Writes `out[a..b)` = `grouped[a..b)` in descending confidence (NaN first, stable). */
function sortByConfidence(out: Uint32Array, grouped: Uint32Array, a: number, b: number, conf: Float64Array): void {
  if (b - a <= 32) {
    for (let k = a; k < b; k++) {
      const d = grouped[k];
      const c = conf[d];
      let q = k;
      while (q > a && after(conf[out[q - 1]], c)) {
        out[q] = out[q - 1];
        q--;
      }
      out[q] = d;
    }
    return;
  }
  const dets = grouped.subarray(a, b);
  const cs = new Float64Array(b - a);
  for (let k = 0; k < dets.length; k++) cs[k] = conf[dets[k]];
  const order = rankDescending(cs, { nan: 'first' });
  for (let k = 0; k < order.length; k++) out[a + k] = dets[order[k]];
}

/** Matches every image's detections (see the file header); scratch state lives for one evaluation. */
class ImageMatcher {
  readonly tp: Uint8Array;
  readonly fp: Uint8Array;
  readonly skip: Uint8Array;
  readonly concat: Uint32Array;
  private readonly byLabel: Uint32Array;
  private readonly matchOptions: { rule: 'ilsvrc'; skip: Uint8Array; detected: Uint8Array };
  private readonly detPool: number[][] = [];
  private readonly boxPool: number[][] = [];
  private readonly thrPool: number[][] = [];
  private readonly runGt: { boxes: number[]; minOverlap: number[] } = { boxes: [], minOverlap: [] };
  blacklisted = 0;
  outOfRange = 0;
  firstOutOfRangeLine: number | undefined;
  inverted = 0;
  firstInvertedLine: number | undefined;

  constructor(
    private readonly preds: Predictions,
    private readonly gt: GroundTruth,
    private readonly objects: ObjectsByLabel,
    private readonly numClasses: number,
    kept: number,
  ) {
    const n = preds.count;
    this.tp = new Uint8Array(n);
    this.fp = new Uint8Array(n);
    this.skip = new Uint8Array(n);
    this.concat = new Uint32Array(kept);
    this.byLabel = new Uint32Array(kept);
    this.matchOptions = { rule: 'ilsvrc', skip: this.skip, detected: new Uint8Array(Math.max(16, gt.labels.length)) };
  }

  /**
   * `byLabel[a..b)` = `concat[a..b)` stably ordered by label (processing order kept per label); marks
   * blacklisted detections as skipped and counts out-of-range labels and inverted boxes.
   */
  orderByLabel(a: number, b: number, bl: number[] | undefined): void {
    const { concat, byLabel, skip, numClasses } = this;
    const plabels = this.preds.labels;
    const boxes = this.preds.boxes;
    const lines = this.preds.lines;
    // counters in locals inside the loop (written back once per image)
    let blacklisted = 0;
    let outOfRange = 0;
    let inverted = 0;
    for (let k = a; k < b; k++) {
      const d = concat[k];
      const label = plabels[d];
      if (bl && bl.includes(label)) {
        skip[d] = 1;
        blacklisted++;
      }
      if (!(label >= 1 && label <= numClasses)) {
        outOfRange++;
        this.firstOutOfRangeLine ??= lines[d];
      }
      const bx = 4 * d;
      if (boxes[bx + 2] < boxes[bx] || boxes[bx + 3] < boxes[bx + 1]) {
        inverted++;
        this.firstInvertedLine ??= lines[d];
      }
      let q = k;
      while (q > a && plabels[byLabel[q - 1]] > label) {
        byLabel[q] = byLabel[q - 1];
        q--;
      }
      byLabel[q] = d;
    }
    this.blacklisted += blacklisted;
    this.outOfRange += outOfRange;
    this.inverted += inverted;
  }

  /** Matches each class run of `byLabel[a..b)` against the same class's objects of entry `e`. */
  matchClassRuns(e: number, a: number, b: number): void {
    const { byLabel, runGt } = this;
    const plabels = this.preds.labels;
    const { labels: sLabels, boxes: sBoxes, thr: sThr } = this.objects;
    const o1 = this.gt.objStart[e + 1];
    let q0 = this.gt.objStart[e];
    for (let k = a; k < b; ) {
      const label = plabels[byLabel[k]];
      let k2 = k + 1;
      while (k2 < b && plabels[byLabel[k2]] === label) k2++;
      while (q0 < o1 && sLabels[q0] < label) q0++;
      let q1 = q0;
      while (q1 < o1 && sLabels[q1] === label) q1++;
      // reused plain arrays (one per length): typed-array views or length changes per
      // (image, class) cost more than the matching itself
      const runDets = pooled(this.detPool, k2 - k);
      for (let j = k; j < k2; j++) runDets[j - k] = byLabel[j];
      const runBoxes = pooled(this.boxPool, 4 * (q1 - q0));
      const runThr = pooled(this.thrPool, q1 - q0);
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
      matchDetections(this.preds.boxes, runDets, runGt, this.tp, this.fp, this.matchOptions);
      k = k2;
    }
  }
}

/** Matches the detections of every image group (`groupStart`, `grouped` from `groupDetections`). */
export function matchImages(
  gt: GroundTruth,
  preds: Predictions,
  objects: ObjectsByLabel,
  groups: { entryOfGroup: Int32Array; nGroups: number },
  dets: { groupStart: Int32Array; grouped: Uint32Array; kept: number },
  blByImage: Map<number, number[]>,
): MatchOutcome {
  const m = new ImageMatcher(preds, gt, objects, gt.numPos.length, dets.kept);
  for (let g = 0; g < groups.nGroups; g++) {
    const a = dets.groupStart[g];
    const b = dets.groupStart[g + 1];
    if (a === b) continue;
    const e = groups.entryOfGroup[g];
    sortByConfidence(m.concat, dets.grouped, a, b, preds.confidences);
    m.orderByLabel(a, b, blByImage.get(gt.imageIds[e]));
    m.matchClassRuns(e, a, b);
  }
  const { tp, fp, concat, blacklisted, outOfRange, firstOutOfRangeLine, inverted, firstInvertedLine } = m;
  return { tp, fp, concat, blacklisted, outOfRange, firstOutOfRangeLine, inverted, firstInvertedLine };
}
