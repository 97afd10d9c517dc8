import type { ConfusionClass, ConfusionResult } from '@cvdevkit/core';
import { groupBy, type Prepared } from './prepare.js';
import { scoreOrder } from './score-order.js';
export type { ConfusionClass, ConfusionResult };

/** The default score threshold of the confusion matrix (`--conf`). */
export const DEFAULT_CONF = 0.25;

/**
 * The detection confusion matrix at score threshold `conf` (analysis README, "confusion"). Only detections with a
 * score ≥ conf take part (NaN scores and the task's skipped detections never do). A match needs an IoU (the task's
 * own, `Prepared.iou`, never recomputed here) that reaches the object's threshold (the task's IoU at the official
 * 0.5). Image by image, in two rounds, each visiting the detections by descending score (ties in input order):
 * 1. same class: a detection takes the not yet matched counted object of its class with the highest IoU →
 *    (class, class); without one, when an ignored object (difficult, crowd, uncounted) of its class is that close,
 *    the detection is left out;
 * 2. the detections left: each takes the not yet matched counted object of any class with the highest IoU →
 *    (object's class, detection's class); without one, when any ignored object is that close, it is left out;
 *    else → (background, detection's class).
 * So a detection of the right class always wins its object over one of another class, and a duplicate is
 * background unless another object is free. Ties in IoU go to the first object in annotation order; an ignored
 * object is never used up. The counted objects no detection took are (their class, background).
 */
export function confusionAnalysis(p: Prepared, conf: number = DEFAULT_CONF): ConfusionResult {
  const { input, objStart, objList, iouOff, iou, objThr, positive } = p;
  const det = input.detections;
  const objCls = input.objects.cls;
  const C = p.nCls;
  const side = C + 1;
  const cells = new Float64Array(side * side);
  let unscored = 0;
  let skipped = 0;
  let ignoredDetections = 0;
  let kept = 0;
  const order = scoreOrder(p);
  const take = new Uint32Array(p.nDet);
  for (let r = 0; r < p.nDet; r++) {
    const d = order[r];
    const s = det.score[d];
    if (Number.isNaN(s)) unscored++;
    else if (det.skip && det.skip[d]) {
      if (s >= conf) skipped++;
    } else if (s >= conf) take[kept++] = d;
  }
  const byImage = groupBy(det.image, kept, p.nImg, take.subarray(0, kept));
  const taken = new Uint8Array(p.nObj);
  /** The best free counted object of detection d (of its class only, or of any class), or -1; -2: none, but an ignored one is close. */
  const bestObject = (d: number, o0: number, nk: number, sameOnly: boolean): number => {
    const c = det.cls[d];
    const base = iouOff[d];
    let best = -1;
    let bestIoU = -Infinity;
    let ignored = false;
    for (let k = 0; k < nk; k++) {
      const j = objList[o0 + k];
      const v = iou[base + k];
      if (!(v >= objThr[j]) || (sameOnly && objCls[j] !== c)) continue;
      if (!positive[j]) ignored = true;
      else if (!taken[j] && v > bestIoU) {
        bestIoU = v;
        best = j;
      }
    }
    return best >= 0 ? best : ignored ? -2 : -1;
  };
  const left = new Uint8Array(p.nDet);
  for (let i = 0; i < p.nImg; i++) {
    const o0 = objStart[i];
    const nk = objStart[i + 1] - o0;
    for (let r = byImage.start[i]; r < byImage.start[i + 1]; r++) {
      const d = byImage.list[r];
      const j = bestObject(d, o0, nk, true);
      if (j >= 0) {
        taken[j] = 1;
        cells[det.cls[d] * side + det.cls[d]]++;
      } else if (j === -2) ignoredDetections++;
      else left[d] = 1;
    }
    for (let r = byImage.start[i]; r < byImage.start[i + 1]; r++) {
      const d = byImage.list[r];
      if (!left[d]) continue;
      const j = bestObject(d, o0, nk, false);
      if (j >= 0) {
        taken[j] = 1;
        cells[objCls[j] * side + det.cls[d]]++;
      } else if (j === -2) ignoredDetections++;
      else cells[C * side + det.cls[d]]++;
    }
  }
  let ignoredObjects = 0;
  for (let j = 0; j < p.nObj; j++) {
    if (!positive[j]) ignoredObjects++;
    else if (!taken[j]) cells[objCls[j] * side + C]++;
  }
  const counts = Array.from({ length: side }, (_, g) => Array.from(cells.subarray(g * side, (g + 1) * side)));
  return {
    conf,
    iouThreshold: 0.5,
    labels: [...input.classes, 'background'],
    counts,
    perClass: input.classes.map((key, c) => classCells(counts, c, input.classes)),
    ignoredObjects,
    detections: kept - ignoredDetections,
    ignoredDetections,
    unscoredDetections: unscored,
    skippedDetections: skipped,
  };
}

/** What a reader of the matrix should know: detections no threshold keeps, or none above the threshold. */
export function confusionNotes(r: ConfusionResult, p: Prepared): string[] {
  const notes: string[] = [];
  if (r.unscoredDetections > 0) notes.push(`confusion: ${r.unscoredDetections} detections with a NaN score are left out (no threshold keeps them)`);
  if (r.ignoredDetections > 0)
    notes.push(
      `confusion: ${r.ignoredDetections} detections with a score ≥ ${r.conf} on an ignored object (difficult, crowd or uncounted: ${r.ignoredObjects} objects, no rows of the matrix) are left out, not counted as background, as the official metric ignores them`,
    );
  if (r.detections + r.ignoredDetections + r.skippedDetections === 0 && p.nDet > r.unscoredDetections) {
    let lo = Infinity;
    let hi = -Infinity;
    for (const s of p.input.detections.score) {
      if (s < lo) lo = s;
      if (s > hi) hi = s;
    }
    notes.push(`confusion: no detection has a score ≥ ${r.conf} (the scores run from ${lo} to ${hi}), so every object is missed: choose the threshold with --conf`);
  }
  return notes;
}

/** The table's view of class c: its row and column of the matrix. */
function classCells(counts: number[][], c: number, classes: readonly string[]): ConfusionClass {
  const C = classes.length;
  let objects = 0;
  let detections = 0;
  let top = -1;
  for (let k = 0; k <= C; k++) {
    objects += counts[c][k];
    detections += counts[k][c];
    if (k < C && k !== c && counts[c][k] > 0 && (top < 0 || counts[c][k] > counts[c][top])) top = k;
  }
  const correct = counts[c][c];
  const missed = counts[c][C];
  const background = counts[C][c];
  return {
    key: classes[c],
    objects,
    detections,
    correct,
    asOtherClass: objects - correct - missed,
    missed,
    onOtherClass: detections - correct - background,
    background,
    confusedWith: top >= 0 ? classes[top] : null,
  };
}
