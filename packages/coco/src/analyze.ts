/**
 * `cvdevkit analyze coco/bbox|segm`: the ground truth and results read as `eval` reads them, turned into the
 * diagnosis's neutral input (core's `DiagnoseInput`) with pycocotools' matching (`cocoMatcher`), IoU (boxes or
 * masks, crowds over the detection's area), ranking, AP and means. The diagnosis itself runs in @cvdevkit/analysis.
 */
import { existsSync } from 'node:fs';
import { usageError, type AnalyzeOptionValues, type DetectionAnalysisRequest, type DiagnoseInput, type RunContext } from '@cvdevkit/core';
import { cocoCurveAp, cocoSampledAp } from './analyze-ap.js';
import { cocoMatcher } from './analyze-matcher.js';
import type { CocoOptions } from './options.js';
import type { IouType } from './params.js';
import { iouComputerFor, loadRun, PACKAGE_VERSION, type LoadedRun } from './run.js';
import { scoreOrder } from './score-order.js';

/** Options of `eval` that `analyze` does not take (it diagnoses the default evaluation). */
const NOT_FOR_ANALYZE: readonly (keyof CocoOptions)[] = ['iouThrs', 'recThrs', 'useCats', 'imgIds', 'catIds', 'fix', 'arrays', 'shard', 'recordsOut'];

const kebab = (s: string) => s.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** Classes with a shared supercategory form one similar-class group (Hoiem's Sim). */
export function supercategoryGroups(supercategories: readonly (string | undefined)[]): number[][] {
  const groups = new Map<string, number[]>();
  supercategories.forEach((s, c) => {
    if (s === undefined || s === '') return;
    const g = groups.get(s);
    if (g) g.push(c);
    else groups.set(s, [c]);
  });
  return [...groups.values()].filter((g) => g.length > 1);
}

export interface CocoDiagnosis {
  input: DiagnoseInput;
  /** Results left out because their category is not one of the ground truth's (eval ignores them too). */
  unknownCategory: number;
  /** Category id and name of each class position. */
  categoryIds: number[];
  categoryNames: string[];
}

/**
 * The diagnosis input of a loaded run: classes = the categories in ascending id (pycocotools' `catIds`), images in
 * the ground truth's file order, objects in annotation order, detections in results order (those of unknown
 * categories left out), ranked as `accumulate` ranks them (score descending, ties by ascending image id, then file
 * order); detections past `maxDets` in their image and category are skipped (a row of no effect on AP).
 */
export function cocoDiagnoseInput(run: LoadedRun): CocoDiagnosis {
  const { gt, dt, params } = run;
  const catOrder = Array.from(gt.categoryIds.keys()).sort((a, b) => gt.categoryIds[a] - gt.categoryIds[b]);
  const catPos = new Map<number, number>();
  catOrder.forEach((i, c) => catPos.set(gt.categoryIds[i], c));
  const imgPos = new Map<number, number>();
  gt.imageIds.forEach((id, i) => imgPos.set(id, i));
  // Image position → rank of its id (ties across images go to the lower id).
  const byId = Array.from(gt.imageIds.keys()).sort((a, b) => gt.imageIds[a] - gt.imageIds[b]);
  const idRank = new Int32Array(gt.imageIds.length);
  byId.forEach((i, r) => (idRank[i] = r));

  const ga = gt.anns;
  const objIdx: number[] = [];
  for (let a = 0; a < ga.count; a++) if (imgPos.has(ga.imageId[a]) && catPos.has(ga.categoryId[a])) objIdx.push(a);
  const nObj = objIdx.length;
  const objects = {
    image: new Int32Array(nObj),
    cls: new Int32Array(nObj),
    boxes: new Float64Array(4 * nObj),
    difficult: new Uint8Array(nObj),
    falseMatch: new Uint8Array(nObj),
    area: new Float64Array(nObj),
  };
  objIdx.forEach((a, j) => {
    objects.image[j] = imgPos.get(ga.imageId[a])!;
    objects.cls[j] = catPos.get(ga.categoryId[a])!;
    objects.boxes.set(ga.bbox.subarray(4 * a, 4 * a + 4), 4 * j);
    objects.difficult[j] = ga.iscrowd[a] !== 0 ? 1 : 0;
    objects.falseMatch[j] = ga.id[a] === 0 ? 1 : 0;
    objects.area[j] = ga.area[a];
  });

  // Results come grouped by image and category: remember the last id looked up (the same position, fewer Map reads).
  const resultCls = new Int32Array(dt.count);
  const detIdx = new Int32Array(dt.count);
  let nDet = 0;
  let unknownCategory = 0;
  let lastCat = NaN;
  let lastCatPos: number | undefined;
  for (let i = 0; i < dt.count; i++) {
    const id = dt.categoryId[i];
    if (!Object.is(id, lastCat)) {
      lastCat = id;
      lastCatPos = catPos.get(id);
    }
    if (lastCatPos === undefined) unknownCategory++;
    else {
      resultCls[nDet] = lastCatPos;
      detIdx[nDet++] = i;
    }
  }
  const detections = {
    image: new Int32Array(nDet),
    cls: new Int32Array(nDet),
    score: new Float64Array(nDet),
    boxes: new Float64Array(4 * nDet),
    area: new Float64Array(nDet),
    rank: new Uint32Array(nDet),
    skip: new Uint8Array(nDet),
  };
  let lastImg = NaN;
  let lastImgPos = -1;
  for (let d = 0; d < nDet; d++) {
    const i = detIdx[d];
    const id = dt.imageId[i];
    if (!Object.is(id, lastImg)) {
      lastImg = id;
      lastImgPos = imgPos.get(id)!;
    }
    detections.image[d] = lastImgPos;
    detections.cls[d] = resultCls[d];
    detections.score[d] = dt.score[i];
    for (let k = 0; k < 4; k++) detections.boxes[4 * d + k] = dt.bbox[4 * i + k];
    detections.area[d] = dt.area[i];
  }
  // accumulate's order: image by image in ascending id (file order inside), then a stable sort by score.
  const byImage = counting(nDet, (d) => idRank[detections.image[d]], gt.imageIds.length);
  detections.rank.set(scoreOrder(detections.score, byImage));
  // maxDets: each (image, category) keeps its first maxDet detections in its own score order.
  const maxDet = params.maxDets[params.maxDets.length - 1];
  const K = catOrder.length;
  const kept = new Int32Array(gt.imageIds.length * K);
  for (let r = 0; r < nDet; r++) {
    const d = detections.rank[r];
    const key = detections.image[d] * K + detections.cls[d];
    if (kept[key]++ >= maxDet) detections.skip[d] = 1;
  }

  // Area range "all" (pycocotools' AP, AP50, AP75): objects outside it ignored but taken, unmatched detections outside it ignored.
  const all = params.areaRanges.find((r) => r.label === 'all');
  if (all) {
    const outside = (a: number) => (a < all.lo || a > all.hi ? 1 : 0);
    const objOut = new Uint8Array(nObj);
    let anyObj = 0;
    for (let j = 0; j < nObj; j++) anyObj |= objOut[j] = objects.difficult[j] ? 0 : outside(objects.area[j]);
    const detOut = new Uint8Array(nDet);
    let anyDet = 0;
    for (let d = 0; d < nDet; d++) anyDet |= detOut[d] = outside(detections.area[d]);
    if (anyObj !== 0) Object.assign(objects, { ignoredTaken: objOut });
    if (anyDet !== 0) Object.assign(detections, { ignoreUnmatched: detOut });
  }
  const iou = iouComputerFor(run);
  const overlaps = (image: number, dets: Uint32Array, objs: Uint32Array): Float64Array => {
    const g = Int32Array.from(objs, (j) => objIdx[j]);
    const d = Int32Array.from(dets, (k) => detIdx[k]);
    return iou.compute(g, d, gt.imageIds[image]) ?? new Float64Array(dets.length * objs.length);
  };

  const supers = gt.categorySupercategories ?? [];
  const input: DiagnoseInput = {
    classes: catOrder.map((i) => String(gt.categoryIds[i])),
    images: Array.from(gt.imageIds, (id) => String(id)),
    imageWidth: Float64Array.from(gt.imageWidths),
    imageHeight: Float64Array.from(gt.imageHeights),
    match: cocoMatcher,
    detections,
    objects,
    similarGroups: supercategoryGroups(catOrder.map((i) => supers[i])),
    meanRule: 'numeric',
    ap: cocoCurveAp(params.recThrs),
    sampledAp: cocoSampledAp(params.recThrs),
    boxFormat: 'xywh',
    overlaps,
    thresholds: Array.from(params.iouThrs),
    areaRanges: params.areaRanges.map((r) => ({ name: r.label, lo: r.lo, hi: r.hi })),
  };
  const files = gt.imageFileNames;
  if (files && files.every((f) => typeof f === 'string' && f !== '')) input.imageFiles = files as string[];
  return { input, unknownCategory, categoryIds: catOrder.map((i) => gt.categoryIds[i]), categoryNames: catOrder.map((i) => gt.categoryNames[i]) };
}

/** A stable counting sort of 0..n-1 by `key(i)` in 0..m-1. */
function counting(n: number, key: (i: number) => number, m: number): Int32Array {
  const start = new Int32Array(m + 1);
  for (let i = 0; i < n; i++) start[key(i) + 1]++;
  for (let k = 0; k < m; k++) start[k + 1] += start[k];
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) out[start[key(i)]++] = i;
  return out;
}

/** `cvdevkit analyze coco/<bbox|segm>`: the inputs read and checked as `eval` does, for the diagnosis. */
export async function analyzeCoco(iouType: IouType, options: CocoOptions & AnalyzeOptionValues, context: RunContext): Promise<DetectionAnalysisRequest> {
  void context;
  for (const name of NOT_FOR_ANALYZE) {
    if (options[name] !== undefined && !(name === 'arrays' && options[name] === false)) {
      throw usageError(`analyze coco/${iouType} diagnoses the default evaluation: --${kebab(name)} is for eval only`, 'usage/invalid', 'leave it out; analyze takes --max-dets and --area-rng');
    }
  }
  const t0 = performance.now();
  const run = loadRun(iouType, options);
  const t1 = performance.now();
  const diag = cocoDiagnoseInput(run);
  const t2 = performance.now();
  const diagnostics = [...run.diagnostics];
  const images = options.images;
  if (images !== undefined && !existsSync(images)) {
    diagnostics.push({ severity: 'info', code: 'analysis/image-unavailable', file: images, message: 'top detections: --images names no folder; shown as image ids and boxes' });
  }
  const sectionNotes: Record<string, string> = {
    overlap: 'overlap: the official matching at each IoU threshold (pycocotools evaluateImg: crowds, area range "all", maxDets per image and category); the 0.5 and 0.75 points are eval\'s AP50 and AP75, and mAP@[0.5:0.95] its AP',
    size: 'size: AP per COCO area range = eval\'s APs/APm/APl (averaged over the 10 IoU thresholds); the object-size sweep marks objects smaller than a share of the image (box w·h) as ignored',
    hoiem: 'hoiem: similar classes = categories of one supercategory (the ground truth\'s categories[].supercategory); APN uses the 101-point AP',
    tide: 'tide: official mode on pycocotools\' matching and AP (dAP in AP 0–1); --tide-mode tide reproduces TIDE v1.0.1 (dAP in AP points ×100): ties ordered by the ground truth\'s image order, 100 detections per image over all classes, crowds ignoring a detection only above the threshold, annotation id 0 matching',
  };
  if (diag.unknownCategory > 0) sectionNotes.tide += `; ${diag.unknownCategory} result(s) of categories not in the ground truth are left out (TIDE itself would count them as classes of AP 0)`;
  return {
    kind: 'detection',
    dataset: 'coco',
    task: `coco/${iouType}`,
    metric: 'ap-coco',
    input: diag.input,
    classNames: diag.categoryNames,
    sectionNotes,
    // eval's names for the numbers it also gives (bit for bit the same)
    summaryNames: { 'mAP@[0.5:0.95]': 'AP', mAP: 'AP50', 'mAP@0.75': 'AP75', 'mAP[area=small]': 'APs', 'mAP[area=medium]': 'APm', 'mAP[area=large]': 'APl', 'mAP[area=all]': 'AP' },
    versions: { '@cvdevkit/coco': PACKAGE_VERSION },
    timings: { ...run.timings, readMs: t1 - t0, prepareInputMs: t2 - t1, totalMs: t2 - t0 },
    extra: { gt: options.gt, results: options.results, images: run.gt.imageIds.length, ...(images !== undefined && existsSync(images) ? { imagesDir: images } : {}) },
    diagnostics,
  };
}
