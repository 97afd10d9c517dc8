/**
 * pycocotools' matching of one detection (`evaluateImg`, E:272-296) as a `DetectionMatcher` of the diagnosis:
 * among the objects of the detection's category in its image (annotation order), regular objects first, then the
 * ignored ones (crowds, objects outside the area range): the one of largest IoU ≥ min(t, 1 − 1e-10), a later equal
 * IoU winning; a taken object is skipped unless it is a crowd (crowds are never taken); once a regular object
 * matched, ignored ones are not looked at. Crowd IoU (intersection over the detection's area) and mask IoU come
 * with the view's IoU cache (`DiagnoseInput.overlaps`).
 */
import type { DetectionMatcher, MatchView } from '@cvdevkit/core';

interface BestRecord {
  objClass: ArrayLike<number>;
  detClass: ArrayLike<number>;
  best: Float64Array;
}
const bestOf = new WeakMap<Float64Array, BestRecord>();

/**
 * Per detection, the largest IoU with an object of its class in its image (+Infinity when one is NaN), filled on the
 * first visit (NaN: not yet known); one record per IoU cache, shared by every threshold's matching.
 */
function bestSameClassIoU(view: MatchView): Float64Array {
  if (last !== undefined && last.iou === view.iou && last.objClass === view.objClass && last.detClass === view.detClass) return last.best;
  let r = bestOf.get(view.iou);
  if (!(r && r.objClass === view.objClass && r.detClass === view.detClass)) {
    r = { objClass: view.objClass, detClass: view.detClass, best: new Float64Array(view.iouOff.length - 1).fill(NaN) };
    bestOf.set(view.iou, r);
  }
  last = { iou: view.iou, ...r };
  return r.best;
}
/** The record of the last call (one per matching pass, so a map lookup per detection is avoided). */
let last: (BestRecord & { iou: Float64Array }) | undefined;

export const cocoMatcher: DetectionMatcher = {
  name: 'coco',
  bestSameObject: false,
  match(view: MatchView, d: number, image: number, t: number, matchedBy: Int32Array): number {
    const { objStart, objList, iouOff, iou, objClass } = view;
    const o0 = objStart[image];
    const n = objStart[image + 1] - o0;
    const base = iouOff[d];
    const c = view.detClass[d];
    const thr = Math.min(t, 1 - 1e-10);
    // no object of its class reaches the threshold (whatever is taken or ignored): nothing to walk
    const best = bestSameClassIoU(view);
    let b = best[d];
    if (b !== b) {
      b = -Infinity;
      for (let k = 0; k < n; k++) {
        if (objClass[objList[o0 + k]] !== c) continue;
        const v = iou[base + k];
        if (v !== v) b = Infinity; // pycocotools' `<` lets a NaN IoU match: never skip such a detection
        else if (v > b) b = v;
      }
      best[d] = b;
    }
    if (b < thr) return -1;
    const ignored = view.objIgnored;
    // one walk for both groups: the regular objects' match wins, else the ignored ones' (pycocotools' order)
    let bestRegular = thr;
    let regular = -1;
    let bestIgnored = thr;
    let ignoredMatch = -1;
    for (let k = 0; k < n; k++) {
      const j = objList[o0 + k];
      if (objClass[j] !== c || matchedBy[j] >= 0) continue;
      const v = iou[base + k];
      if (ignored !== undefined && ignored[j] !== 0) {
        if (v < bestIgnored) continue;
        bestIgnored = v;
        ignoredMatch = j;
      } else {
        if (v < bestRegular) continue;
        bestRegular = v;
        regular = j;
      }
    }
    return regular >= 0 ? regular : ignoredMatch;
  },
};
