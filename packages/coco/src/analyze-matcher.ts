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
    let best = Math.min(t, 1 - 1e-10);
    let m = -1;
    // pass 0: regular objects; pass 1: ignored ones (reached only without a regular match)
    for (let pass = 0; pass < 2 && m < 0; pass++) {
      for (let k = 0; k < n; k++) {
        const j = objList[o0 + k];
        if (objClass[j] !== c) continue;
        const ig = ignored ? ignored[j] : 0;
        if ((pass === 0) !== (ig === 0)) continue;
        if (matchedBy[j] >= 0) continue;
        const v = iou[base + k];
        if (v < best) continue;
        best = v;
        m = j;
      }
    }
    return m;
  },
};
