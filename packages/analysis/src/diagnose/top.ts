import { HOIEM_TYPES } from './fp-types.js';
import { FP, TP, type Prepared } from './prepare.js';
import type { TopEntry, TopClass } from '@cvdevkit/core';
export type { TopEntry, TopClass };



function box(b: Float64Array, k: number): [number, number, number, number] {
  return [b[4 * k], b[4 * k + 1], b[4 * k + 2], b[4 * k + 3]];
}

/** The object of d's image with the largest IoU (the matched one for a TP). */
function nearestObject(p: Prepared, d: number): TopEntry['object'] {
  const { input, objStart, objList, iouOff, iou } = p;
  const j0 = p.matchedObj[d];
  const i = input.detections.image[d];
  let best = -Infinity;
  let jb = -1;
  for (let k = 0; k < objStart[i + 1] - objStart[i]; k++) {
    const j = objList[objStart[i] + k];
    const v = iou[iouOff[d] + k];
    if (j === j0 || (j0 < 0 && v > best)) {
      best = v;
      jb = j;
      if (j === j0) break;
    }
  }
  if (jb < 0 || !(best > 0)) return undefined;
  return { box: box(input.objects.boxes, jb), class: input.classes[input.objects.cls[jb]], iou: best };
}

/** Per class the top-n true positives, false positives (with their type) and near misses (VOC paper Figs. 20–25). */
export function topAnalysis(p: Prepared, types: Uint8Array, n = 10): TopClass[] {
  const { input } = p;
  const hasClass = new Uint8Array(p.nImg * p.nCls);
  for (let j = 0; j < p.nObj; j++) hasClass[input.objects.image[j] * p.nCls + input.objects.cls[j]] = 1;
  return input.classes.map((key, c) => {
    const out: TopClass = { key, truePositives: [], falsePositives: [], nearMisses: [] };
    for (let r = p.clsStart[c]; r < p.clsStart[c + 1]; r++) {
      const d = p.clsList[r];
      const o = p.outcome[d];
      const entry = (): TopEntry => {
        const i = input.detections.image[d];
        const e: TopEntry = { image: input.images[i], ...(input.imageFiles ? { file: input.imageFiles[i] } : {}), box: box(input.detections.boxes, d), score: input.detections.score[d], rank: r - p.clsStart[c] + 1 };
        if (o === FP && types[d] > 0) e.type = HOIEM_TYPES[types[d] - 1];
        const obj = nearestObject(p, d);
        if (obj) e.object = obj;
        return e;
      };
      if (o === TP && out.truePositives.length < n) out.truePositives.push(entry());
      if (o === FP) {
        const near = hasClass[input.detections.image[d] * p.nCls + c] === 1;
        if (out.falsePositives.length < n) out.falsePositives.push(entry());
        if (near && out.nearMisses.length < n) out.nearMisses.push(entry());
      }
      if (out.truePositives.length >= n && out.falsePositives.length >= n && out.nearMisses.length >= n) break;
    }
    return out;
  });
}
