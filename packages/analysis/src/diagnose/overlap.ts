import { FP, IGNORED, SKIPPED, TP, detectionsByImage, matchAll, type Prepared } from './prepare.js';
import { classApOverThresholds, classAps, meanAps, meanApsOverThresholds, setClassApOf, type ClassAps } from './sampled-ap.js';
import type { OverlapResult } from '@cvdevkit/core';
export type { OverlapResult };

/** The IoU thresholds of the VOC paper's Fig. 19: 0.05, 0.10, …, 0.95 (0.5 is the official one). */
export const OVERLAP_THRESHOLDS: readonly number[] = Array.from({ length: 19 }, (_, k) => (5 * (k + 1)) / 100);


/**
 * VOC rule, one pass: a detection's best same-class object does not depend on the threshold, and at
 * threshold t it is a TP iff its IoU ≥ t and no earlier detection with the same best object reached t.
 * So it is enough to record, per detection, the largest IoU of the earlier detections on its object.
 */
export function earlierBestIoU(p: Prepared): Float64Array {
  const prev = new Float64Array(p.nDet).fill(-Infinity);
  const objMax = new Float64Array(p.nObj).fill(-Infinity);
  const difficult = p.input.objects.difficult;
  const skip = p.input.detections.skip;
  for (let r = 0; r < p.nDet; r++) {
    const d = p.clsList[r];
    if (skip && skip[d]) continue;
    const j = p.bestSame[d];
    if (j < 0 || difficult[j]) continue;
    prev[d] = objMax[j];
    if (p.bestSameIoU[d] > objMax[j]) objMax[j] = p.bestSameIoU[d];
  }
  return prev;
}

/** Outcomes at threshold t from the one-pass record (VOC rule). */
export function outcomesAt(p: Prepared, prev: Float64Array, t: number, out: Uint8Array, small?: Uint8Array): void {
  const difficult = p.input.objects.difficult;
  const skip = p.input.detections.skip;
  for (let d = 0; d < p.nDet; d++) {
    if (skip && skip[d]) {
      out[d] = SKIPPED;
      continue;
    }
    const j = p.bestSame[d];
    const ov = p.bestSameIoU[d];
    if (j >= 0 && ov >= t) {
      if (difficult[j] || (small && small[j])) out[d] = IGNORED;
      else out[d] = prev[d] < t ? TP : FP;
    } else out[d] = FP;
  }
}

const officialAps = new WeakMap<Prepared, Map<number, ClassAps>>();

/** Per-class APs of the official matching at a threshold, shared by the sections that need the same one. */
export function officialApsCache(p: Prepared): Map<number, ClassAps> {
  let m = officialAps.get(p);
  if (!m) officialAps.set(p, (m = new Map()));
  return m;
}

/** AP and mAP against the IoU threshold (VOC paper §6.1.5, Fig. 19). */
export function overlapAnalysis(p: Prepared, thresholds: readonly number[] = OVERLAP_THRESHOLDS): OverlapResult {
  const out = new Uint8Array(p.nDet);
  const perClass = p.input.classes.map((key) => ({ key, ap: [] as number[] }));
  const mAP: number[] = [];
  const prev = p.input.match.bestSameObject ? earlierBestIoU(p) : undefined;
  const scratchObj = new Int32Array(p.nDet);
  const scratchBy = new Int32Array(p.nObj);
  const cache = officialApsCache(p);
  const at = (t: number): ClassAps => {
    const hit = cache.get(t);
    if (hit) return hit;
    if (prev) outcomesAt(p, prev, t, out);
    else matchAll(p, detectionsByImage(p), t, out, scratchObj, scratchBy);
    const aps = classAps(p.input, p.nCls);
    for (let c = 0; c < p.nCls; c++) setClassApOf(p, aps, c, out, p.npos[c]);
    cache.set(t, aps);
    return aps;
  };
  for (const t of thresholds) {
    const aps = at(t);
    for (let c = 0; c < p.nCls; c++) perClass[c].ap.push(aps.aps[c]);
    mAP.push(meanAps(p.input, aps));
  }
  const result: OverlapResult = { thresholds: [...thresholds], mAP, perClass };
  const own = p.input.thresholds;
  if (own && own.length > 0) {
    const list = own.map(at);
    result.averaged = { thresholds: [...own], mAP: meanApsOverThresholds(p.input, list), perClass: p.input.classes.map((_, c) => classApOverThresholds(p.input, list, c)) };
  }
  return result;
}

