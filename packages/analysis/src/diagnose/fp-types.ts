import { similarityMatrix } from './input.js';
import { FP, type Prepared } from './prepare.js';

/** Hoiem's false-positive types (0 = not a false positive). */
export const HOIEM_TYPES = ['Loc', 'Sim', 'Oth', 'BG'] as const;
export type HoiemType = (typeof HOIEM_TYPES)[number];
export const LOC = 1;
export const SIM = 2;
export const OTH = 3;
export const BG = 4;

/** Weak-matching threshold of Hoiem et al. */
export const WEAK_IOU = 0.1;

/**
 * The Hoiem type of every official false positive, checked in order: Loc (IoU ≥ 0.1 with an object of
 * its class: a poor box or a duplicate), Sim (IoU ≥ 0.1 with an object of a similar class), Oth (with an
 * object of any other class), BG (the rest). Other detections get 0.
 */
export function hoiemTypes(p: Prepared): Uint8Array {
  const { input, objStart, objList, iouOff, iou } = p;
  const sim = similarityMatrix(p.nCls, input.similarGroups);
  const det = input.detections;
  const ocls = input.objects.cls;
  const types = new Uint8Array(p.nDet);
  for (let d = 0; d < p.nDet; d++) {
    if (p.outcome[d] !== FP) continue;
    if (p.bestSameIoU[d] >= WEAK_IOU) {
      types[d] = LOC;
      continue;
    }
    const c = det.cls[d];
    const i = det.image[d];
    const o0 = objStart[i];
    let simMax = -Infinity;
    let othMax = -Infinity;
    for (let k = 0; k < objStart[i + 1] - o0; k++) {
      const oc = ocls[objList[o0 + k]];
      if (oc === c) continue;
      const ov = iou[iouOff[d] + k];
      if (sim[c * p.nCls + oc]) {
        if (ov > simMax) simMax = ov;
      } else if (ov > othMax) othMax = ov;
    }
    types[d] = simMax >= WEAK_IOU ? SIM : othMax >= WEAK_IOU ? OTH : BG;
  }
  return types;
}
