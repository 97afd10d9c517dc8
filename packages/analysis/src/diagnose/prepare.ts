import { boxIoU, rankDescending } from '@cvdevkit/metrics';
import type { DiagnoseInput, MatchView } from './input.js';

/** Official outcome of a detection at the task's own threshold. */
export const FP = 0;
export const TP = 1;
/** Best object is difficult (VOC): neither TP nor FP, but a row of the curve. */
export const IGNORED = 2;
/** Skipped by the blacklist (ILSVRC): neither TP nor FP, but a row of the curve. */
export const SKIPPED = 3;

/**
 * What every section shares: one ranking, the objects and detections grouped by image, one IoU per
 * (detection, object of its image), and the official matching at the task's threshold.
 */
export interface Prepared {
  input: DiagnoseInput;
  nDet: number;
  nObj: number;
  nImg: number;
  nCls: number;
  /** Detection indices, best first (the official ranking). */
  rank: Uint32Array;
  /** Objects of image i: `objList[objStart[i] .. objStart[i+1])`, annotation order. */
  objStart: Uint32Array;
  objList: Uint32Array;
  /** Detections of class c in rank order: `clsList[clsStart[c] .. clsStart[c+1])`. */
  clsStart: Uint32Array;
  clsList: Uint32Array;
  /** IoU of detection d with the k-th object of its image: `iou[iouOff[d] + k]` (-Infinity: no overlap). */
  iouOff: Uint32Array;
  iou: Float64Array;
  /** Best same-class object (VOC argmax over all of them, first wins ties; -1 if none) and its IoU. */
  bestSame: Int32Array;
  bestSameIoU: Float64Array;
  /** Official outcome (FP, TP, IGNORED, SKIPPED) and, for a TP, its object (else -1). */
  outcome: Uint8Array;
  matchedObj: Int32Array;
  /** Per object: the detection that matched it officially (-1 if none). */
  matchedBy: Int32Array;
  /** Per object: 1 when it counts as a positive (not difficult, not uncounted). */
  positive: Uint8Array;
  /** Per class: the official positive count. */
  npos: Float64Array;
  /** Per object: its IoU threshold at the official 0.5 (ILSVRC small-object rule). */
  objThr: Float64Array;
}

/** Stable counting sort by `key[i]` in `0..m-1` of the items `0..n-1`, or of the `n` items `order[0..n)` (any of them, in that order): returns start offsets and the ordered list. */
export function groupBy(key: ArrayLike<number>, n: number, m: number, order?: ArrayLike<number>): { start: Uint32Array; list: Uint32Array } {
  const start = new Uint32Array(m + 1);
  for (let r = 0; r < n; r++) start[key[order ? order[r] : r] + 1]++;
  for (let k = 0; k < m; k++) start[k + 1] += start[k];
  const fill = start.slice(0, m);
  const list = new Uint32Array(n);
  for (let r = 0; r < n; r++) {
    const i = order ? order[r] : r;
    list[fill[key[i]]++] = i;
  }
  return { start, list };
}

/** Builds the shared structures and runs the official matching once. */
export function prepare(input: DiagnoseInput): Prepared {
  const det = input.detections;
  const obj = input.objects;
  const nDet = det.score.length;
  const nObj = obj.image.length;
  const nImg = input.images.length;
  const nCls = input.classes.length;
  const rank = det.rank ?? rankDescending(det.score, { nan: 'last' });
  const { start: objStart, list: objList } = groupBy(obj.image, nObj, nImg);
  const { start: clsStart, list: clsList } = groupBy(det.cls, nDet, nCls, rank);
  const { start: imgStart, list: imgList } = groupBy(det.image, nDet, nImg, rank);

  // One IoU per (detection, object of its image).
  const iouOff = new Uint32Array(nDet + 1);
  for (let d = 0; d < nDet; d++) {
    const i = det.image[d];
    iouOff[d + 1] = iouOff[d] + (objStart[i + 1] - objStart[i]);
  }
  const iou = new Float64Array(iouOff[nDet]);
  if (input.overlaps) taskOverlaps(input.overlaps, nImg, imgStart, imgList, objStart, objList, iouOff, iou);
  else {
    const pairIoU = input.boxFormat === 'xywh' ? xywhIoU : boxIoU;
    for (let d = 0; d < nDet; d++) {
      const i = det.image[d];
      const o0 = objStart[i];
      const base = iouOff[d];
      for (let k = 0; k < objStart[i + 1] - o0; k++) iou[base + k] = pairIoU(det.boxes, 4 * d, obj.boxes, 4 * objList[o0 + k]);
    }
  }

  const positive = new Uint8Array(nObj);
  const npos = new Float64Array(nCls);
  const objThr = new Float64Array(nObj);
  for (let j = 0; j < nObj; j++) {
    objThr[j] = obj.minOverlap ? obj.minOverlap[j] : 0.5;
    if (!obj.difficult[j] && !(obj.uncounted && obj.uncounted[j]) && !(obj.ignoredTaken && obj.ignoredTaken[j])) {
      positive[j] = 1;
      npos[obj.cls[j]]++;
    }
  }

  const bestSame = new Int32Array(nDet).fill(-1);
  const bestSameIoU = new Float64Array(nDet).fill(-Infinity);
  for (let d = 0; d < nDet; d++) {
    const i = det.image[d];
    const o0 = objStart[i];
    const base = iouOff[d];
    const c = det.cls[d];
    let best = -Infinity;
    let jb = -1;
    for (let k = 0; k < objStart[i + 1] - o0; k++) {
      const j = objList[o0 + k];
      if (obj.cls[j] !== c) continue;
      if (iou[base + k] > best) {
        best = iou[base + k];
        jb = j;
      }
    }
    bestSame[d] = jb;
    bestSameIoU[d] = best;
  }

  const outcome = new Uint8Array(nDet);
  const matchedObj = new Int32Array(nDet).fill(-1);
  const matchedBy = new Int32Array(nObj).fill(-1);
  const p: Prepared = {
    input, nDet, nObj, nImg, nCls, rank, objStart, objList, clsStart, clsList, iouOff, iou,
    bestSame, bestSameIoU, outcome, matchedObj, matchedBy, positive, npos, objThr,
  };
  const byImage = { start: imgStart, list: imgList };
  matchAll(p, byImage, 0.5, outcome, matchedObj, matchedBy);
  imageDetections.set(p, byImage);
  return p;
}

/** The task's own IoU (`DiagnoseInput.overlaps`), one call per image with detections and objects. */
function taskOverlaps(
  overlaps: NonNullable<DiagnoseInput['overlaps']>,
  nImg: number,
  imgStart: Uint32Array,
  imgList: Uint32Array,
  objStart: Uint32Array,
  objList: Uint32Array,
  iouOff: Uint32Array,
  iou: Float64Array,
): void {
  for (let i = 0; i < nImg; i++) {
    const dets = imgList.subarray(imgStart[i], imgStart[i + 1]);
    const objs = objList.subarray(objStart[i], objStart[i + 1]);
    const n = objs.length;
    if (dets.length === 0 || n === 0) continue;
    const m = overlaps(i, dets, objs);
    // element by element: a subarray per detection costs more than the copy of its few values
    for (let r = 0; r < dets.length; r++) {
      const off = iouOff[dets[r]];
      const from = r * n;
      for (let k = 0; k < n; k++) iou[off + k] = m[from + k];
    }
  }
}

/** IoU of two `[x, y, w, h]` boxes (no +1 pixel). */
export function xywhIoU(a: ArrayLike<number>, i: number, b: ArrayLike<number>, j: number): number {
  const w = Math.min(a[i] + a[i + 2], b[j] + b[j + 2]) - Math.max(a[i], b[j]);
  if (!(w > 0)) return 0;
  const h = Math.min(a[i + 1] + a[i + 3], b[j + 1] + b[j + 3]) - Math.max(a[i + 1], b[j + 1]);
  if (!(h > 0)) return 0;
  const inter = w * h;
  return inter / (a[i + 2] * a[i + 3] + b[j + 2] * b[j + 3] - inter);
}

/** Width and height of box k in the input's box convention. */
export function boxSize(input: DiagnoseInput, boxes: Float64Array, k: number): [number, number] {
  if (input.boxFormat === 'xywh') return [boxes[4 * k + 2], boxes[4 * k + 3]];
  return [boxes[4 * k + 2] - boxes[4 * k] + 1, boxes[4 * k + 3] - boxes[4 * k + 1] + 1];
}

const imageDetections = new WeakMap<Prepared, { start: Uint32Array; list: Uint32Array }>();

/** Detections of each image in rank order. */
export function detectionsByImage(p: Prepared): { start: Uint32Array; list: Uint32Array } {
  return imageDetections.get(p)!;
}

/**
 * The official matching over the cached IoUs at threshold `t` (0.5 = the official one), by the task's
 * matcher (`input.match`). `difficultOverride` replaces the objects' difficult flags (the size analysis). An area
 * range pass gives `takenIgnored` (objects ignored but taken by the detection they match) and `detIgnored`
 * (detections ignored when unmatched).
 */
export function matchAll(
  p: Prepared,
  byImage: { start: Uint32Array; list: Uint32Array },
  t: number,
  outcome: Uint8Array,
  matchedObj: Int32Array,
  matchedBy: Int32Array,
  difficultOverride?: Uint8Array,
  takenIgnored?: Uint8Array,
  detIgnored?: Uint8Array,
): void {
  const { input, objStart, objList, iouOff, iou, bestSame, bestSameIoU, objThr } = p;
  const det = input.detections;
  const obj = input.objects;
  const difficult = difficultOverride ?? obj.difficult;
  const falseMatch = obj.falseMatch;
  // an area-range pass brings its own; otherwise the evaluated range's, if the task gives one
  takenIgnored ??= obj.ignoredTaken;
  detIgnored ??= det.ignoreUnmatched;
  let objIgnored = difficult;
  if (takenIgnored) {
    objIgnored = new Uint8Array(p.nObj);
    for (let j = 0; j < p.nObj; j++) objIgnored[j] = difficult[j] | takenIgnored[j];
  }
  const view: MatchView = { objStart, objList, iouOff, iou, bestSame, bestSameIoU, objThr, detClass: det.cls, objClass: obj.cls, objIgnored };
  const unmatched = (d: number): number => (detIgnored && detIgnored[d] ? IGNORED : FP);
  matchedObj.fill(-1);
  matchedBy.fill(-1);
  for (let i = 0; i < p.nImg; i++) {
    for (let r = byImage.start[i]; r < byImage.start[i + 1]; r++) {
      const d = byImage.list[r];
      if (det.skip && det.skip[d]) {
        outcome[d] = SKIPPED;
        continue;
      }
      const j = input.match.match(view, d, i, t, matchedBy);
      if (j < 0) outcome[d] = unmatched(d);
      else if (difficult[j]) outcome[d] = IGNORED;
      else if (matchedBy[j] >= 0) outcome[d] = FP;
      else if (takenIgnored && takenIgnored[j]) {
        matchedBy[j] = d;
        outcome[d] = falseMatch && falseMatch[j] ? unmatched(d) : IGNORED;
      } else if (falseMatch && falseMatch[j]) {
        matchedBy[j] = d;
        outcome[d] = unmatched(d);
      } else {
        outcome[d] = TP;
        matchedObj[d] = j;
        matchedBy[j] = d;
      }
    }
  }
}
