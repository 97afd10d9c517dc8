import type { SizeResult } from '@cvdevkit/core';
import { officialApsCache } from './overlap.js';
import { detectionsByImage, matchAll, type Prepared } from './prepare.js';
import { classApOverThresholds, classAps, meanApsOverThresholds, setClassApOf, type ClassAps } from './sampled-ap.js';

/**
 * AP per task-declared object-area range (`DiagnoseInput.areaRanges`), averaged over the task's IoU thresholds:
 * in each range, objects outside it are ignored but taken by the detection they match, and unmatched detections
 * outside it are ignored (both ends inclusive), on the task's own matching.
 */
export function areaRangeAnalysis(p: Prepared): SizeResult['areaRanges'] {
  const { input } = p;
  const ranges = input.areaRanges;
  const objArea = input.objects.area;
  const detArea = input.detections.area;
  if (!ranges || ranges.length === 0 || !objArea || !detArea) return undefined;
  const thresholds = input.thresholds && input.thresholds.length > 0 ? input.thresholds : [0.5];
  const out = new Uint8Array(p.nDet);
  const scratchObj = new Int32Array(p.nDet);
  const scratchBy = new Int32Array(p.nObj);
  const takenIgnored = new Uint8Array(p.nObj);
  const detIgnored = new Uint8Array(p.nDet);
  const perClass = input.classes.map((key) => ({ key, ap: [] as number[], npos: [] as number[] }));
  const mAP: number[] = [];
  for (const r of ranges) {
    const outside = (a: number): number => (a < r.lo || a > r.hi ? 1 : 0);
    const npos = new Float64Array(p.nCls);
    for (let j = 0; j < p.nObj; j++) {
      takenIgnored[j] = input.objects.difficult[j] ? 0 : outside(objArea[j]);
      if (p.positive[j] && !takenIgnored[j]) npos[input.objects.cls[j]]++;
    }
    let any = 0;
    for (let d = 0; d < p.nDet; d++) any |= detIgnored[d] = outside(detArea[d]);
    for (let j = 0; j < p.nObj; j++) any |= takenIgnored[j];
    // A range that holds every object and detection is the official matching itself (computed by overlap).
    const official = input.objects.ignoredTaken === undefined && input.detections.ignoreUnmatched === undefined;
    const cache = any === 0 && official ? officialApsCache(p) : undefined;
    const list: ClassAps[] = thresholds.map((t) => {
      const hit = cache?.get(t);
      if (hit) return hit;
      matchAll(p, detectionsByImage(p), t, out, scratchObj, scratchBy, undefined, takenIgnored, detIgnored);
      const aps = classAps(input, p.nCls);
      for (let c = 0; c < p.nCls; c++) setClassApOf(p, aps, c, out, npos[c]);
      return aps;
    });
    mAP.push(meanApsOverThresholds(input, list));
    for (let c = 0; c < p.nCls; c++) {
      perClass[c].ap.push(classApOverThresholds(input, list, c));
      perClass[c].npos.push(npos[c]);
    }
  }
  return { names: ranges.map((r) => r.name), lo: ranges.map((r) => r.lo), hi: ranges.map((r) => r.hi), thresholds: [...thresholds], mAP, perClass };
}
