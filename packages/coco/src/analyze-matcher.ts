/**
 * pycocotools' matching of one detection (`evaluateImg`, E:272-296) as a `DetectionMatcher` of the diagnosis:
 * among the objects of the detection's category in its image (annotation order), regular objects first, then the
 * ignored ones (crowds, objects outside the area range): the one of largest IoU ≥ min(t, 1 − 1e-10), a later equal
 * IoU winning; a taken object is skipped unless it is a crowd (crowds are never taken); once a regular object
 * matched, ignored ones are not looked at. Crowd IoU (intersection over the detection's area) and mask IoU come
 * with the view's IoU cache (`DiagnoseInput.overlaps`).
 */
import type { DetectionMatcher, MatchView } from '@cvdevkit/core';

/**
 * Per IoU cache, what each detection's walk needs, filled on its first visit and shared by every threshold's
 * matching: the largest IoU with an object of its class (+Infinity when one is NaN; NaN: not visited yet) and the
 * objects of its class that overlap it (IoU > 0 or NaN), in annotation order, with their IoU:
 * `candObj/candIoU[candStart[d] .. candStart[d] + candLen[d])`. An object of IoU ≤ 0 never reaches a threshold > 0.
 */
interface SameClassRecord {
  iou: Float64Array;
  objClass: ArrayLike<number>;
  detClass: ArrayLike<number>;
  best: Float64Array;
  candStart: Uint32Array;
  candLen: Uint32Array;
  candObj: Int32Array;
  candIoU: Float64Array;
  used: number;
}
const records = new WeakMap<Float64Array, SameClassRecord>();
/** The record of the last call (one per matching pass, so a map lookup per detection is avoided). */
let last: SameClassRecord | undefined;

function recordOf(view: MatchView): SameClassRecord {
  if (last !== undefined && last.iou === view.iou && last.objClass === view.objClass && last.detClass === view.detClass) return last;
  let r = records.get(view.iou);
  if (!(r && r.objClass === view.objClass && r.detClass === view.detClass)) {
    const nDet = view.iouOff.length - 1;
    r = {
      iou: view.iou,
      objClass: view.objClass,
      detClass: view.detClass,
      best: new Float64Array(nDet).fill(NaN),
      candStart: new Uint32Array(nDet),
      candLen: new Uint32Array(nDet),
      candObj: new Int32Array(Math.max(16, nDet)),
      candIoU: new Float64Array(Math.max(16, nDet)),
      used: 0,
    };
    records.set(view.iou, r);
  }
  last = r;
  return r;
}

/** First visit of detection d: its best same-class IoU and its overlapping same-class objects. */
function visit(r: SameClassRecord, view: MatchView, d: number, o0: number, n: number): number {
  const { objList, objClass, iou } = view;
  const base = view.iouOff[d];
  const c = view.detClass[d];
  if (r.candObj.length < r.used + n) {
    const size = Math.max(r.used + n, 2 * r.candObj.length);
    const obj = new Int32Array(size);
    obj.set(r.candObj.subarray(0, r.used));
    const v = new Float64Array(size);
    v.set(r.candIoU.subarray(0, r.used));
    r.candObj = obj;
    r.candIoU = v;
  }
  const { candObj, candIoU } = r;
  const s = r.used;
  let m = 0;
  let b = -Infinity;
  for (let k = 0; k < n; k++) {
    const j = objList[o0 + k];
    if (objClass[j] !== c) continue;
    const v = iou[base + k];
    if (v !== v) b = Infinity; // pycocotools' `<` lets a NaN IoU match: never skip such a detection
    else if (v > b) b = v;
    if (v > 0 || v !== v) {
      candObj[s + m] = j;
      candIoU[s + m++] = v;
    }
  }
  r.candStart[d] = s;
  r.candLen[d] = m;
  r.used = s + m;
  r.best[d] = b;
  return b;
}

/** The walk of every object of the detection's class (a threshold ≤ 0 lets an object of IoU 0 match). */
function walkAll(view: MatchView, d: number, image: number, thr: number, matchedBy: Int32Array): number {
  const { objStart, objList, iouOff, iou, objClass } = view;
  const ignored = view.objIgnored;
  const o0 = objStart[image];
  const n = objStart[image + 1] - o0;
  const base = iouOff[d];
  const c = view.detClass[d];
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
}

export const cocoMatcher: DetectionMatcher = {
  name: 'coco',
  bestSameObject: false,
  match(view: MatchView, d: number, image: number, t: number, matchedBy: Int32Array): number {
    const thr = Math.min(t, 1 - 1e-10);
    if (!(thr > 0)) return walkAll(view, d, image, thr, matchedBy);
    // no object of its class reaches the threshold (whatever is taken or ignored): nothing to walk
    const r = recordOf(view);
    let b = r.best[d];
    if (b !== b) {
      const o0 = view.objStart[image];
      b = visit(r, view, d, o0, view.objStart[image + 1] - o0);
    }
    if (b < thr) return -1;
    const ignored = view.objIgnored;
    const { candObj, candIoU } = r;
    const s = r.candStart[d];
    const e = s + r.candLen[d];
    // one walk for both groups: the regular objects' match wins, else the ignored ones' (pycocotools' order)
    let bestRegular = thr;
    let regular = -1;
    let bestIgnored = thr;
    let ignoredMatch = -1;
    for (let q = s; q < e; q++) {
      const j = candObj[q];
      if (matchedBy[j] >= 0) continue;
      const v = candIoU[q];
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
