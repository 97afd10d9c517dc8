import type { GroundTruth, Results } from './dataset.js';
import { evaluateImg, makeScratch, type Unit } from './evaluate-img.js';
import type { CocoParams } from './params.js';
import { CategoryRecords } from './records.js';
import { scoreOrder } from './score-order.js';

/** The pycocotools behaviours `--fix` can switch off. */
export interface CocoFixes {
  /** AP (and the keypoint stats) read at the largest maxDets instead of the hard-coded 100 (20). */
  maxdets?: boolean;
  /** The annotation's own `ignore` field honoured (ignore = ignore or iscrowd), not overwritten by iscrowd. */
  ignore?: boolean;
  /** segm results carrying a bbox take the mask's area, not the box's. */
  maskArea?: boolean;
}

/**
 * Computes `ious[d * ng + g]` for a unit: `gts` are GT annotation indices in unit order, `dts` result
 * indices in score order (already cut). Returns null where pycocotools' computeIoU returns `[]`. The
 * array may be longer than nd·ng and may be reused by the next call (the caller reads it before).
 */
export interface IouComputer {
  compute(gts: Int32Array, dts: Int32Array, imageId: number): Float64Array | null;
}

/** The evaluation's resolved id lists (what `evaluate()` leaves in `params`). */
export interface EvalSetup {
  /** Sorted unique image ids. */
  imgIds: Float64Array;
  /** Category ids in `params.catIds` order (sorted unique when useCats). */
  catIds: number[];
  /** K: catIds.length with useCats, else 1. */
  K: number;
  /** Category id of each K index ([-1] without useCats). */
  kCatIds: number[];
}

export interface EvaluateOutput {
  setup: EvalSetup;
  /** records[k]: per category (K index) */
  records: CategoryRecords[];
  /** Per K index: GT annotations (all, before any ignore) and detections on the evaluated images. */
  gtCount: Float64Array;
  dtCount: Float64Array;
}

export function resolveSetup(gt: GroundTruth, params: CocoParams): EvalSetup {
  const imgIds = Float64Array.from(new Set(params.imgIds ?? Array.from(gt.imageIds))).sort();
  let catIds: number[];
  if (params.useCats) catIds = [...new Set(params.catIds ?? Array.from(gt.categoryIds))].sort((a, b) => a - b);
  else catIds = params.catIds ? [...params.catIds] : Array.from(gt.categoryIds).sort((a, b) => a - b);
  return { imgIds, catIds, K: params.useCats ? catIds.length : 1, kCatIds: params.useCats ? catIds : [-1] };
}

const sharedUnit: Unit = { image: 0, gtIds: new Float64Array(16), gtAreas: new Float64Array(16), gtIgnore: new Uint8Array(16), gtCrowd: new Uint8Array(16), ng: 0, dtScores: new Float64Array(128), dtAreas: new Float64Array(128), nd: 0, ious: null };

/** The one Unit, its arrays grown to hold ng GTs and nd detections. */
function unitBuffers(ng: number, nd: number): Unit {
  const u = sharedUnit;
  if (u.gtIds.length < ng) {
    const n = Math.max(ng, u.gtIds.length * 2);
    u.gtIds = new Float64Array(n);
    u.gtAreas = new Float64Array(n);
    u.gtIgnore = new Uint8Array(n);
    u.gtCrowd = new Uint8Array(n);
  }
  if (u.dtScores.length < nd) {
    const n = Math.max(nd, u.dtScores.length * 2);
    u.dtScores = new Float64Array(n);
    u.dtAreas = new Float64Array(n);
  }
  u.ng = ng;
  u.nd = nd;
  return u;
}

/**
 * Annotation indices sorted by (image position, category position, file order), those outside the
 * evaluated images or categories dropped: a counting sort by image, then a stable sort by category
 * within each image.
 */
function groupOrder(n: number, imageOf: Float64Array, catOf: Float64Array, imgPos: Map<number, number>, catPos: Map<number, number>, C: number): { order: Int32Array; keys: Float64Array } {
  const keys = new Float64Array(n);
  const ip = new Int32Array(n);
  const cp = new Int32Array(n);
  let maxImage = -1;
  // files list an image's annotations together: the last lookups are reused while the ids repeat
  let lastImage = NaN;
  let lastA: number | undefined;
  let lastCat = NaN;
  let lastB: number | undefined;
  for (let i = 0; i < n; i++) {
    const im = imageOf[i];
    const ct = catOf[i];
    if (im !== lastImage) {
      lastImage = im;
      lastA = imgPos.get(im);
    }
    if (ct !== lastCat) {
      lastCat = ct;
      lastB = catPos.get(ct);
    }
    const a = lastA;
    const b = lastB;
    if (a === undefined || b === undefined) {
      ip[i] = -1;
      continue;
    }
    ip[i] = a;
    cp[i] = b;
    keys[i] = a * C + b;
    if (a > maxImage) maxImage = a;
  }
  const starts = new Int32Array(maxImage + 2);
  for (let i = 0; i < n; i++) if (ip[i] >= 0) starts[ip[i] + 1]++;
  for (let j = 1; j < starts.length; j++) starts[j] += starts[j - 1];
  const kept = starts[starts.length - 1];
  const order = new Int32Array(kept);
  const fill = starts.slice();
  for (let i = 0; i < n; i++) if (ip[i] >= 0) order[fill[ip[i]]++] = i;
  // within an image: stable insertion sort by category position (a few entries per image)
  for (let im = 0; im + 1 < starts.length; im++) {
    const lo = starts[im];
    const hi = starts[im + 1];
    if (hi - lo < 2) continue;
    if (hi - lo > 256) {
      const seg = order.subarray(lo, hi);
      const sorted = Array.from(seg).sort((x, y) => cp[x] - cp[y] || x - y);
      seg.set(sorted);
      continue;
    }
    for (let i = lo + 1; i < hi; i++) {
      const v = order[i];
      const c = cp[v];
      let j = i - 1;
      while (j >= lo && cp[order[j]] > c) {
        order[j + 1] = order[j];
        j--;
      }
      order[j + 1] = v;
    }
  }
  return { order, keys };
}

/**
 * `evaluate()` (E:128-161): `_prepare`, computeIoU / computeOks per (image, category) and `evaluateImg` per
 * area range, recording per (category, area range) what `accumulate` needs.
 */
export function evaluateCoco(gt: GroundTruth, dt: Results, params: CocoParams, fixes: CocoFixes, iou: IouComputer, imageRange?: [number, number]): EvaluateOutput {
  const setup = resolveSetup(gt, params);
  const { imgIds, catIds, K } = setup;
  const A = params.areaRanges.length;
  const T = params.iouThrs.length;
  const maxDet = params.maxDets[params.maxDets.length - 1];
  const C = catIds.length;
  const imgPos = new Map<number, number>();
  const [iStart, iEnd] = imageRange ?? [0, imgIds.length];
  for (let i = iStart; i < iEnd; i++) imgPos.set(imgIds[i], i);
  const catPos = new Map<number, number>();
  catIds.forEach((c, i) => catPos.set(c, i));

  const gtCount = new Float64Array(K);
  const dtCount = new Float64Array(K);

  // _prepare's ignore flag (E:107-111)
  const ga = gt.anns;
  const ignoreFlag = new Uint8Array(ga.count);
  for (let i = 0; i < ga.count; i++) {
    let ig = ga.iscrowd[i] !== 0;
    if (fixes.ignore) ig = ig || (ga.ignore[i] === ga.ignore[i] && ga.ignore[i] !== 0);
    if (params.iouType === 'keypoints') ig = ga.numKeypoints[i] === 0 || ig;
    ignoreFlag[i] = ig ? 1 : 0;
  }

  const g = groupOrder(ga.count, ga.imageId, ga.categoryId, imgPos, catPos, C);
  const d = groupOrder(dt.count, dt.imageId, dt.categoryId, imgPos, catPos, C);
  // each category's columns sized once: its detections on the evaluated images bound what it records
  const perK = new Float64Array(K);
  if (params.useCats) for (let i = 0; i < d.order.length; i++) perK[d.keys[d.order[i]] % C]++;
  else perK[0] = d.order.length;
  const records: CategoryRecords[] = [];
  for (let k = 0; k < K; k++) records.push(new CategoryRecords(T, A, perK[k]));
  const unitOf = (key: number) => (params.useCats ? key : Math.floor(key / C));
  const scratch = makeScratch();
  const keypointsNoCats = params.iouType === 'keypoints' && !params.useCats;

  let gi = 0;
  let di = 0;
  const gOrder = g.order;
  const dOrder = d.order;
  while (gi < gOrder.length || di < dOrder.length) {
    const gu = gi < gOrder.length ? unitOf(g.keys[gOrder[gi]]) : Infinity;
    const du = di < dOrder.length ? unitOf(d.keys[dOrder[di]]) : Infinity;
    const unit = Math.min(gu, du);
    let ge = gi;
    while (ge < gOrder.length && unitOf(g.keys[gOrder[ge]]) === unit) ge++;
    let de = di;
    while (de < dOrder.length && unitOf(d.keys[dOrder[de]]) === unit) de++;
    const k = params.useCats ? unit % C : 0;
    const image = params.useCats ? Math.floor(unit / C) : unit;

    const gts = gOrder.subarray(gi, ge);
    const allDts = scoreOrder(dt.score, dOrder.subarray(di, de));
    const dts = allDts.length > maxDet ? allDts.subarray(0, maxDet) : allDts;
    gtCount[k] += gts.length;
    dtCount[k] += allDts.length;
    const ng = gts.length;
    const nd = dts.length;
    const u = unitBuffers(ng, nd);
    u.image = image;
    u.ious = ng > 0 && nd > 0 && !keypointsNoCats ? iou.compute(gts, dts, imgIds[image]) : null;
    const rec = records[k];
    rec.imagesWithRecord++;
    for (let j = 0; j < nd; j++) {
      rec.scores.push(dt.score[dts[j]]);
      rec.ranks.push(j);
      rec.images.push(image);
    }
    for (let j = 0; j < ng; j++) {
      const a = gts[j];
      u.gtIds[j] = ga.id[a];
      u.gtAreas[j] = ga.area[a];
      u.gtIgnore[j] = ignoreFlag[a];
      u.gtCrowd[j] = Math.trunc(ga.iscrowd[a]) !== 0 ? 1 : 0;
    }
    for (let j = 0; j < nd; j++) {
      u.dtScores[j] = dt.score[dts[j]];
      u.dtAreas[j] = dt.area[dts[j]];
    }
    for (let a = 0; a < A; a++) {
      const r = params.areaRanges[a];
      evaluateImg(u, a, r.lo, r.hi, params.iouThrs, rec, scratch);
    }
    gi = ge;
    di = de;
  }
  return { setup, records, gtCount, dtCount };
}
