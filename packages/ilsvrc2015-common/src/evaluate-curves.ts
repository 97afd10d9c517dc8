/**
 * Phase 4 of `evaluateDetections`: the global ranking (a stable sort of the per-image concatenation by
 * confidence, NaN first) and, per class, the PR curve and VOCap AP of its ranked detections.
 */
import { averagePrecisionArea, precisionRecall, rankDescending } from '@cvdevkit/metrics';
import type { ClassResult } from './evaluate.js';
import type { Predictions } from './inputs.js';

export interface ClassCurves {
  classes: ClassResult[];
  /** AP of classes 1..numClasses. */
  aps: Float64Array;
  /** The global ranking: positions into `concat`. */
  rank: Uint32Array;
}

/** Ranks the kept detections `concat` and accumulates each class's PR curve and AP. */
export function classCurves(preds: Predictions, concat: Uint32Array, tp: Uint8Array, fp: Uint8Array, numPos: Float64Array): ClassCurves {
  const numClasses = numPos.length;
  const kept = concat.length;
  const concatConf = new Float64Array(kept);
  for (let k = 0; k < kept; k++) concatConf[k] = preds.confidences[concat[k]];
  const rank = rankDescending(concatConf, { nan: 'first' });

  // Per class: the ranked detections of that class.
  const perClassCount = new Int32Array(numClasses + 1);
  for (let k = 0; k < kept; k++) {
    const label = preds.labels[concat[k]];
    if (label >= 1 && label <= numClasses) perClassCount[label]++;
  }
  const tpc: Uint8Array[] = [];
  const fpc: Uint8Array[] = [];
  for (let c = 1; c <= numClasses; c++) {
    tpc[c] = new Uint8Array(perClassCount[c]);
    fpc[c] = new Uint8Array(perClassCount[c]);
  }
  const fillc = new Int32Array(numClasses + 1);
  for (let k = 0; k < kept; k++) {
    const d = concat[rank[k]];
    const label = preds.labels[d];
    if (!(label >= 1 && label <= numClasses)) continue;
    const j = fillc[label]++;
    tpc[label][j] = tp[d];
    fpc[label][j] = fp[d];
  }
  const classes: ClassResult[] = [];
  const aps = new Float64Array(numClasses);
  for (let c = 1; c <= numClasses; c++) {
    const { recall, precision } = precisionRecall(tpc[c], fpc[c], numPos[c - 1]);
    const ap = averagePrecisionArea(recall, precision);
    aps[c - 1] = ap;
    classes.push({ label: c, npos: numPos[c - 1], ndet: perClassCount[c], ap, recall, precision });
  }
  return { classes, aps, rank };
}
