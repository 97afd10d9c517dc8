import { averagePrecisionArea, precisionRecall } from '@cvdevkit/metrics';
import { FP, TP, type Prepared } from './prepare.js';
import { rowsAp } from './sampled-ap.js';

/** An AP function of the task (`VOCap` by default). */
export type ApFunction = (recall: ArrayLike<number>, precision: ArrayLike<number>) => number;

/**
 * The official AP of class `c` from per-detection outcomes: one row per ranked detection of the class
 * (ignored and skipped detections are rows with tp = fp = 0, as in the official curves); rows with
 * `drop[d] = 1` are left out. Bit-identical to the official evaluation when `outcome` is the official one.
 */
export function classAp(p: Prepared, c: number, outcome: Uint8Array, npos: number, ap: ApFunction = averagePrecisionArea, drop?: Uint8Array): number {
  const { tp, fp } = classRows(p, c, outcome, drop);
  if (p.input.sampledAp) return rowsAp(p.input, tp, fp, npos).ap;
  const { recall, precision } = precisionRecall(tp, fp, npos);
  return ap(recall, precision);
}

/** The class's tp/fp rows in rank order. */
export function classRows(p: Prepared, c: number, outcome: Uint8Array, drop?: Uint8Array): { tp: Uint8Array; fp: Uint8Array; dets: Uint32Array } {
  const a = p.clsStart[c];
  const b = p.clsStart[c + 1];
  let n = b - a;
  if (drop) {
    n = 0;
    for (let r = a; r < b; r++) if (!drop[p.clsList[r]]) n++;
  }
  const tp = new Uint8Array(n);
  const fp = new Uint8Array(n);
  const dets = new Uint32Array(n);
  let k = 0;
  for (let r = a; r < b; r++) {
    const d = p.clsList[r];
    if (drop && drop[d]) continue;
    const o = outcome[d];
    tp[k] = o === TP ? 1 : 0;
    fp[k] = o === FP ? 1 : 0;
    dets[k++] = d;
  }
  return { tp, fp, dets };
}

/**
 * Hoiem's normalised AP: `p_N = R·N̄ / (R·N̄ + F)` with R the recall and F the false positives so far,
 * then the task's AP on (R, p_N).
 */
export function normalizedAp(tp: ArrayLike<number>, fp: ArrayLike<number>, npos: number, nbar: number, ap: ApFunction = averagePrecisionArea): number {
  const n = tp.length;
  const recall = new Float64Array(n);
  const precision = new Float64Array(n);
  let ctp = 0;
  let cfp = 0;
  for (let i = 0; i < n; i++) {
    ctp += tp[i];
    cfp += fp[i];
    const r = ctp / npos;
    recall[i] = r;
    precision[i] = (r * nbar) / (r * nbar + cfp);
  }
  return ap(recall, precision);
}
