import type { GroundTruth, Results } from './dataset.js';
import { evaluateImg, makeScratch, type Unit } from './evaluate-img.js';
import type { CocoParams } from './params.js';
import { CellRecords } from './records.js';
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
 * indices in score order (already cut). Returns null where pycocotools' computeIoU returns `[]`.
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
  /** records[k * A + a] */
  records: CellRecords[];
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

/** Annotation indices sorted by (image position, category position, file order); -1 positions dropped. */
function groupOrder(n: number, imageOf: Float64Array, catOf: Float64Array, imgPos: Map<number, number>, catPos: Map<number, number>, C: number): { order: Int32Array; keys: Float64Array } {
  const keys = new Float64Array(n);
  let kept = 0;
  const idx = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const ip = imgPos.get(imageOf[i]);
    const cp = catPos.get(catOf[i]);
    if (ip === undefined || cp === undefined) continue;
    keys[i] = ip * C + cp;
    idx[kept++] = i;
  }
  const order = idx.subarray(0, kept).sort((a, b) => keys[a] - keys[b] || a - b);
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

  const records: CellRecords[] = [];
  for (let i = 0; i < K * A; i++) records.push(new CellRecords(T));
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

    const gts = gOrder.slice(gi, ge);
    const allDts = scoreOrder(dt.score, dOrder.slice(di, de));
    const dts = allDts.length > maxDet ? allDts.subarray(0, maxDet) : allDts;
    gtCount[k] += gts.length;
    dtCount[k] += allDts.length;
    const ng = gts.length;
    const nd = dts.length;
    const u: Unit = {
      image,
      gtIds: new Float64Array(ng),
      gtAreas: new Float64Array(ng),
      gtIgnore: new Uint8Array(ng),
      gtCrowd: new Uint8Array(ng),
      ng,
      dtScores: new Float64Array(nd),
      dtAreas: new Float64Array(nd),
      nd,
      ious: ng > 0 && nd > 0 && !keypointsNoCats ? iou.compute(gts, dts, imgIds[image]) : null,
    };
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
      evaluateImg(u, r.lo, r.hi, params.iouThrs, records[k * A + a], scratch);
    }
    gi = ge;
    di = de;
  }
  return { setup, records, gtCount, dtCount };
}
