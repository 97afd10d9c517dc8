import { averagePrecisionArea, precisionRecall } from '@cvdevkit/metrics';
import { meanOf, type DiagnoseInput } from './input.js';
import { FP, TP, type Prepared } from './prepare.js';

/**
 * The task's AP of one class from its rows in rank order (`tp`, `fp` flags; a row with neither is ignored) and its
 * positive count: the sampled AP when the task declares one (`DiagnoseInput.sampledAp`), else its `ap` on the
 * precision–recall curve. `sample` is the class's precision samples (sampled AP only; undefined: left out).
 */
export function rowsAp(input: DiagnoseInput, tp: ArrayLike<number>, fp: ArrayLike<number>, npos: number): { ap: number; sample?: Float64Array } {
  const rule = input.sampledAp;
  if (rule) {
    const sample = rule.sample(tp, fp, npos);
    return sample ? { ap: rule.mean([[sample]]), sample } : { ap: NaN };
  }
  const { recall, precision } = precisionRecall(tp, fp, npos);
  return { ap: (input.ap ?? averagePrecisionArea)(recall, precision) };
}

/** Per-class APs and, for a sampled AP, each class's samples (what the mean needs). */
export interface ClassAps {
  aps: Float64Array;
  samples?: (Float64Array | undefined)[];
}

/** An empty `ClassAps` for `n` classes, with room for samples when the task's AP is sampled. */
export function classAps(input: DiagnoseInput, n: number): ClassAps {
  return input.sampledAp ? { aps: new Float64Array(n), samples: new Array<Float64Array | undefined>(n) } : { aps: new Float64Array(n) };
}

/** Stores class c's AP (and samples) from its rows. */
export function setClassAp(input: DiagnoseInput, out: ClassAps, c: number, tp: ArrayLike<number>, fp: ArrayLike<number>, npos: number): number {
  const r = rowsAp(input, tp, fp, npos);
  out.aps[c] = r.ap;
  if (out.samples) out.samples[c] = r.sample;
  return r.ap;
}

/** The task's mean over classes: the sampled AP's own mean of all samples, else the mean rule on the APs. */
export function meanAps(input: DiagnoseInput, a: ClassAps): number {
  if (input.sampledAp && a.samples) return input.sampledAp.mean([a.samples]);
  return meanOf(a.aps, input.meanRule);
}

/** The mean over several thresholds' classes (the task's averaged AP); the mean of the means without a sampled AP. */
export function meanApsOverThresholds(input: DiagnoseInput, list: readonly ClassAps[]): number {
  if (input.sampledAp) return input.sampledAp.mean(list.map((a) => a.samples ?? []));
  return meanOf(list.map((a) => meanOf(a.aps, input.meanRule)), 'all');
}

/** One class's AP averaged over several thresholds (sampled: all its samples together). */
export function classApOverThresholds(input: DiagnoseInput, list: readonly ClassAps[], c: number): number {
  if (input.sampledAp) return input.sampledAp.mean(list.map((a) => [a.samples?.[c]]));
  return meanOf(list.map((a) => a.aps[c]), 'all');
}

let tpScratch = new Uint8Array(0);
let fpScratch = new Uint8Array(0);

/**
 * `setClassAp` on class c's rows under `outcome` (rank order; ignored and skipped detections are rows with
 * neither flag), read into scratch buffers: the per-threshold sweeps call it once per class and pass.
 */
export function setClassApOf(p: Prepared, out: ClassAps, c: number, outcome: Uint8Array, npos: number): number {
  const a = p.clsStart[c];
  const n = p.clsStart[c + 1] - a;
  if (tpScratch.length < n) {
    tpScratch = new Uint8Array(Math.max(n, 2 * tpScratch.length));
    fpScratch = new Uint8Array(tpScratch.length);
  }
  const tp = tpScratch.subarray(0, n);
  const fp = fpScratch.subarray(0, n);
  const list = p.clsList;
  for (let k = 0; k < n; k++) {
    const o = outcome[list[a + k]];
    tp[k] = o === TP ? 1 : 0;
    fp[k] = o === FP ? 1 : 0;
  }
  return setClassAp(p.input, out, c, tp, fp, npos);
}
