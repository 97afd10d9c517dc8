/**
 * pycocotools' matching of one detection (`evaluateImg`, E:272-296) as a `DetectionMatcher` of the diagnosis:
 * among the objects of the detection's category in its image (annotation order), regular objects first, then the
 * ignored ones (crowds, objects outside the area range): the one of largest IoU ≥ min(t, 1 − 1e-10), a later equal
 * IoU winning; a taken object is skipped unless it is a crowd (crowds are never taken); once a regular object
 * matched, ignored ones are not looked at. Crowd IoU (intersection over the detection's area) and mask IoU come
 * with the view's IoU cache (`DiagnoseInput.overlaps`).
 */
import type { DetectionMatcher, MatchView } from '@cvdevkit/core';

export const cocoMatcher: DetectionMatcher = {
  name: 'coco',
  bestSameObject: false,
  match(view: MatchView, d: number, image: number, t: number, matchedBy: Int32Array): number {
    const { objStart, objList, iouOff, iou, objClass } = view;
    const ignored = view.objIgnored;
    const o0 = objStart[image];
    const n = objStart[image + 1] - o0;
    const base = iouOff[d];
    const c = view.detClass[d];
    // one walk for both groups: the regular objects' match wins, else the ignored ones' (pycocotools' order)
    const thr = Math.min(t, 1 - 1e-10);
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
