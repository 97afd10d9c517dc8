/**
 * The official greedy matchings of the common devkits as `DetectionMatcher`s, the form a task passes to the
 * detection diagnosis (`DiagnoseInput.match`); the same rules as `matchDetections` (`rule: 'voc' | 'ilsvrc'`).
 */
import type { DetectionMatcher, MatchView } from '@cvdevkit/core';

/**
 * VOCevaldet.m: the detection's best same-class object over every object of its image (taken or not, first wins
 * ties), if its IoU reaches the threshold; taken → a false positive (a duplicate).
 */
export const vocMatcher: DetectionMatcher = {
  name: 'voc',
  bestSameObject: true,
  match(view: MatchView, d: number, _image: number, t: number): number {
    const j = view.bestSame[d];
    return j >= 0 && view.bestSameIoU[d] >= t ? j : -1;
  },
};

/**
 * eval_detection.m (ILSVRC): the best not-yet-taken same-class object whose IoU reaches its own threshold (the
 * small-object rule `min(0.5, wh/((w+10)(h+10)))` at the official 0.5; at another threshold t an object keeps
 * its smaller threshold: `min(t, thr)` when `thr < 0.5`).
 */
export const ilsvrcMatcher: DetectionMatcher = {
  name: 'ilsvrc',
  bestSameObject: false,
  match(view: MatchView, d: number, image: number, t: number, matchedBy: Int32Array): number {
    const { objStart, objList, iouOff, iou, objThr, objClass } = view;
    const o0 = objStart[image];
    const base = iouOff[d];
    const c = view.detClass[d];
    let best = -Infinity;
    let jb = -1;
    for (let k = 0; k < objStart[image + 1] - o0; k++) {
      const j = objList[o0 + k];
      if (objClass[j] !== c || matchedBy[j] >= 0) continue;
      const thr = t === 0.5 ? objThr[j] : objThr[j] < 0.5 ? Math.min(t, objThr[j]) : t;
      const ov = iou[base + k];
      if (ov >= thr && ov > best) {
        best = ov;
        jb = j;
      }
    }
    return jb;
  },
};
