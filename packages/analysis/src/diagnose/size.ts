import type { ClassificationSizeClass } from '@cvdevkit/core';
import { averagePrecisionArea, precisionRecall, rankDescending } from '@cvdevkit/metrics';
import { meanOf, type DiagnoseObjects } from './input.js';
import { earlierBestIoU, officialApsCache, outcomesAt } from './overlap.js';
import { detectionsByImage, matchAll, type Prepared } from './prepare.js';
import { areaRangeAnalysis } from './size-ranges.js';
import { classAps, meanAps, setClassApOf } from './sampled-ap.js';
import type { SizeResult } from '@cvdevkit/core';
export type { SizeResult };

/** Object-size thresholds (proportion of the image area); 0 is the official evaluation. */
export const SIZE_THRESHOLDS: readonly number[] = [0, 0.005, 0.01, 0.02, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5];


/** Box area (+1-pixel, or w·h for `xywh` boxes) over the image area (width × height from the annotation) of every object. */
export function objectAreaFraction(objects: DiagnoseObjects, width: ArrayLike<number>, height: ArrayLike<number>, boxFormat?: 'x1y1x2y2' | 'xywh'): Float64Array {
  const n = objects.image.length;
  const out = new Float64Array(n);
  const b = objects.boxes;
  for (let j = 0; j < n; j++) {
    const i = objects.image[j];
    const area = boxFormat === 'xywh' ? b[4 * j + 2] * b[4 * j + 3] : (b[4 * j + 2] - b[4 * j] + 1) * (b[4 * j + 3] - b[4 * j + 1] + 1);
    out[j] = area / (width[i] * height[i]);
  }
  return out;
}

/**
 * Detection AP against the object-size threshold (VOC paper Fig. 26): objects whose area is below s
 * of the image are marked difficult; at s = 0 nothing is marked, so the official AP comes back.
 */
export function detectionSizeAnalysis(p: Prepared, thresholds: readonly number[] = SIZE_THRESHOLDS): SizeResult {
  const { imageWidth, imageHeight } = p.input;
  if (!imageWidth || !imageHeight) throw new Error('the size analysis needs the image sizes');
  const frac = objectAreaFraction(p.input.objects, imageWidth, imageHeight, p.input.boxFormat);
  const perClass = p.input.classes.map((key) => ({ key, ap: [] as number[], npos: [] as number[] }));
  const mAP: number[] = [];
  const mAPWithPositives: number[] = [];
  const classesWithPositives: number[] = [];
  const out = new Uint8Array(p.nDet);
  const small = new Uint8Array(p.nObj);
  const prev = p.input.match.bestSameObject ? earlierBestIoU(p) : undefined;
  const difficult = new Uint8Array(p.nObj);
  const scratchObj = new Int32Array(p.nDet);
  const scratchBy = new Int32Array(p.nObj);
  for (const s of thresholds) {
    const npos = new Float64Array(p.nCls);
    for (let j = 0; j < p.nObj; j++) {
      small[j] = s > 0 && frac[j] < s ? 1 : 0;
      difficult[j] = p.input.objects.difficult[j] | small[j];
      if (p.positive[j] && !small[j]) npos[p.input.objects.cls[j]]++;
    }
    // s = 0 marks nothing: the official matching at 0.5, whose APs the overlap section may have computed
    let all = s > 0 ? undefined : officialApsCache(p).get(0.5);
    if (!all) {
      if (prev) outcomesAt(p, prev, 0.5, out, small);
      else matchAll(p, detectionsByImage(p), 0.5, out, scratchObj, scratchBy, difficult);
      all = classAps(p.input, p.nCls);
      for (let c = 0; c < p.nCls; c++) setClassApOf(p, all, c, out, npos[c]);
    }
    for (let c = 0; c < p.nCls; c++) {
      perClass[c].ap.push(all.aps[c]);
      perClass[c].npos.push(npos[c]);
    }
    const aps = all.aps;
    mAP.push(meanAps(p.input, all));
    const kept = Array.from(aps).filter((_, c) => npos[c] > 0);
    mAPWithPositives.push(meanOf(kept, 'numeric'));
    classesWithPositives.push(kept.length);
  }
  const result: SizeResult = { kind: 'detection', thresholds: [...thresholds], mAP, mAPWithPositives, classesWithPositives, perClass };
  const ranges = areaRangeAnalysis(p);
  if (ranges) result.areaRanges = ranges;
  return result;
}

/** One class of the classification task, in the official (image-set) order. */
/** One class of the classification size analysis (declared in core). */
export type ClsClassInput = ClassificationSizeClass;

/**
 * Classification AP against the object-size threshold (VOC paper Fig. 15): a positive image stays only
 * when the union of the class's boxes covers at least s of it; the others are removed from the test
 * set; negatives stay. One ranking per class; the thresholds filter it.
 */
export function classificationSizeAnalysis(
  classes: readonly ClsClassInput[],
  thresholds: readonly number[] = SIZE_THRESHOLDS,
  ap: (recall: ArrayLike<number>, precision: ArrayLike<number>) => number = averagePrecisionArea,
): SizeResult {
  const perClass = classes.map((c) => ({ key: c.key, ap: [] as number[], npos: [] as number[] }));
  const mAP: number[] = [];
  const ranked = classes.map((c) => rankDescending(c.score, { nan: 'last' }));
  for (const s of thresholds) {
    const aps = new Float64Array(classes.length);
    classes.forEach((c, k) => {
      const order = ranked[k];
      const tp: number[] = [];
      const fp: number[] = [];
      let npos = 0;
      for (let r = 0; r < order.length; r++) {
        const i = order[r];
        const g = c.gt[i];
        if (g > 0 && s > 0 && c.coverage[c.image[i]] < s) continue;
        tp.push(g > 0 ? 1 : 0);
        fp.push(g < 0 ? 1 : 0);
        if (g > 0) npos++;
      }
      const pr = precisionRecall(tp, fp, npos);
      aps[k] = ap(pr.recall, pr.precision);
      perClass[k].ap.push(aps[k]);
      perClass[k].npos.push(npos);
    });
    mAP.push(meanOf(aps, 'numeric'));
  }
  return { kind: 'classification', thresholds: [...thresholds], mAP, perClass };
}

