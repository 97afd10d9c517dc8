import { groupBy } from './prepare.js';
import { TideApData, tideMap } from './tide-ap.js';

/**
 * TIDE v1.0.1's evaluation (`TIDEExample` + `TIDERun._eval_image`), reproduced from its source: the
 * input in TIDE's own form (`[x, y, w, h]` boxes, crowd = ignore region), one run at one
 * positive threshold, with or without the error analysis.
 */
export interface TideData {
  classCount: number;
  imageCount: number;
  /** Ground truth in annotation order; `crowd[j] = 1` makes it an ignore region of its class. */
  gt: { image: Int32Array; cls: Int32Array; box: Float64Array; crowd: Uint8Array };
  /** Detections in results order. */
  det: { image: Int32Array; cls: Int32Array; score: Float64Array; box: Float64Array };
  /** Detections kept per image (TIDE: 100). */
  maxDets: number;
  /**
   * The task's own IoU of detection d with object j of its image, crowd regions over the detection's area (masks,
   * for example): `values[off[d] + pos[j]]`. Absent: the box IoU of `tideBoxIou`.
   */
  iou?: { off: Uint32Array; values: Float64Array; pos: Uint32Array };
}

/** TIDE's main error types, in its order. */
export const TIDE_ERRORS = ['Cls', 'Loc', 'Both', 'Dupe', 'Bkg', 'Miss'] as const;
export type TideErrorName = (typeof TIDE_ERRORS)[number];
export const E_CLS = 0;
export const E_LOC = 1;
export const E_BOTH = 2;
export const E_DUPE = 3;
export const E_BKG = 4;
export const E_MISS = 5;

/** Background threshold of TIDE. */
export const TIDE_BG = 0.1;

export interface TideErrors {
  count: number;
  type: Int8Array;
  /** The detection (-1 for Miss) and the object (-1 when the error has none). */
  det: Int32Array;
  gt: Int32Array;
  /** Class of the original data point (-1: none, the detection was ignored or the error is a Miss). */
  origCls: Int32Array;
  /** Fixed version: class of the TP data point (-1: suppressed); for Miss the class whose npos drops. */
  fixCls: Int32Array;
}

export interface TideRunResult {
  threshold: number;
  /** mAP in percent. */
  ap: number;
  base: TideApData;
  /** Baseline points in insertion order. */
  pointDet: Int32Array;
  pointCorrect: Uint8Array;
  errors?: TideErrors;
  /** Per class: unmatched non-crowd objects (FalseNeg). */
  falseNeg?: Float64Array;
  /** Cls/Loc errors on an object whose candidates all score ≤ -1 (TIDE itself fails with KeyError 'best_id'). */
  unfixable: number;
  /** Per class AP in percent (NaN: empty class). */
  perClass: Float64Array;
  /** Detections typed while ignored by a crowd region. */
  ignoredErrors: number;
}

/** The reference mask API's `bbIou` for one pair of `[x, y, w, h]` boxes, no +1 (`crowd`: intersection over the detection's area). */
export function tideBoxIou(d: Float64Array, di: number, g: Float64Array, gi: number, crowd: boolean): number {
  const D0 = d[di], D1 = d[di + 1], D2 = d[di + 2], D3 = d[di + 3];
  const G0 = g[gi], G1 = g[gi + 1], G2 = g[gi + 2], G3 = g[gi + 3];
  const ga = G2 * G3;
  const da = D2 * D3;
  const w = Math.min(D2 + D0, G2 + G0) - Math.max(D0, G0);
  if (w <= 0) return 0;
  const h = Math.min(D3 + D1, G3 + G1) - Math.max(D1, G1);
  if (h <= 0) return 0;
  const i = w * h;
  const u = crowd ? da : da + ga - i;
  return i / u;
}

class ErrorList {
  type: number[] = [];
  det: number[] = [];
  gt: number[] = [];
  add(type: number, det: number, gt: number): void {
    this.type.push(type);
    this.det.push(det);
    this.gt.push(gt);
  }
}

/** What one run accumulates over the images (TIDERun's ap_data, errors, false negatives, and the temp fields TIDE stores on its dicts). */
class RunState {
  readonly base: TideApData;
  readonly pointDet: number[] = [];
  readonly pointCorrect: number[] = [];
  readonly errs = new ErrorList();
  /** Per error: the detection's `used` (0 false, 1 true, 2 None = ignored). */
  readonly predUsed: number[] = [];
  readonly falseNeg: Float64Array;
  readonly gtUsed: Uint8Array;
  readonly usable: Uint8Array;
  readonly bestScore: Float64Array;
  readonly bestId: Int32Array;
  readonly usedOfDet: Int8Array;
  ignoredErrors = 0;
  iou = new Float64Array(0);

  constructor(
    readonly data: TideData,
    readonly t: number,
    readonly runErrors: boolean,
  ) {
    const nGt = data.gt.image.length;
    this.base = new TideApData(data.classCount);
    this.falseNeg = new Float64Array(data.classCount);
    this.gtUsed = new Uint8Array(nGt);
    this.usable = new Uint8Array(nGt);
    this.bestScore = new Float64Array(nGt).fill(-1);
    this.bestId = new Int32Array(nGt).fill(-1);
    this.usedOfDet = new Int8Array(data.det.image.length);
  }

  addError(type: number, det: number, gt: number, used: number): void {
    this.errs.add(type, det, gt);
    this.predUsed.push(used);
  }
}

/** One TIDE run at positive threshold `t` (`TIDERun`): the images in order, each as `_eval_image`. */
export function tideRun(data: TideData, t: number, runErrors: boolean): TideRunResult {
  const { gt, det } = data;
  const gtBy = groupBy(gt.image, gt.image.length, data.imageCount);
  const detBy = groupBy(det.image, det.image.length, data.imageCount);
  const s = new RunState(data, t, runErrors);
  const gts: number[] = [];
  const crowds: number[] = [];
  for (let img = 0; img < data.imageCount; img++) {
    gts.length = 0;
    crowds.length = 0;
    for (let r = gtBy.start[img]; r < gtBy.start[img + 1]; r++) {
      const j = gtBy.list[r];
      (gt.crowd[j] ? crowds : gts).push(j);
    }
    for (const j of gts) {
      s.base.touch(gt.cls[j]);
      s.base.npos[gt.cls[j]] += 1;
    }
    const a = detBy.start[img];
    const b = detBy.start[img + 1];
    if (a === b) {
      for (const j of gts) {
        s.base.touch(gt.cls[j]);
        if (runErrors) {
          s.addError(E_MISS, -1, j, 0);
          s.falseNeg[gt.cls[j]]++;
        }
      }
      continue;
    }
    const preds = Array.from(detBy.list.subarray(a, b));
    // Python's list.sort(key=-score) is stable.
    preds.sort((x, y) => (det.score[y] > det.score[x] ? 1 : det.score[y] < det.score[x] ? -1 : 0));
    if (preds.length > data.maxDets) preds.length = data.maxDets;
    matchImage(s, preds, gts, crowds);
    for (let p = 0; p < preds.length; p++) pushAndType(s, preds, p, gts);
    for (const j of gts) {
      if (s.gtUsed[j]) continue;
      s.base.touch(gt.cls[j]);
      if (runErrors) {
        s.falseNeg[gt.cls[j]]++;
        if (!s.usable[j]) s.addError(E_MISS, -1, j, 0);
      }
    }
  }
  const pd = Int32Array.from(s.pointDet);
  const pc = Uint8Array.from(s.pointCorrect);
  const perClass = new Float64Array(data.classCount).fill(NaN);
  const ap = tideMap(s.base, ...sortedFlags(s.base, pd, pc, det.score, det.cls), perClass);
  const result: TideRunResult = { threshold: t, ap, base: s.base, pointDet: pd, pointCorrect: pc, unfixable: 0, perClass, ignoredErrors: s.ignoredErrors };
  if (runErrors) {
    const { errors, unfixable } = finishErrors(s.errs, s.predUsed, det.cls, gt.cls, s.gtUsed, s.bestId);
    result.errors = errors;
    result.unfixable = unfixable;
    result.falseNeg = s.falseNeg;
  }
  return result;
}

/**
 * `TIDEExample._run`: the IoU matrix, greedy matching (the unused same-class object of largest IoU, first on
 * ties, TP at IoU ≥ t), then the ignore regions (an unmatched detection with crowd IoU > t against a
 * same-class crowd region becomes `used = None`).
 */
function matchImage(s: RunState, preds: number[], gts: number[], crowds: number[]): void {
  const { gt, det } = s.data;
  const m = preds.length;
  const n = gts.length;
  if (s.iou.length < m * n) s.iou = new Float64Array(m * n * 2);
  const iou = s.iou;
  const own = s.data.iou;
  const pairIou = (d: number, j: number, crowd: boolean): number => (own ? own.values[own.off[d] + own.pos[j]] : tideBoxIou(det.box, 4 * d, gt.box, 4 * j, crowd));
  for (let p = 0; p < m; p++) for (let g = 0; g < n; g++) iou[p * n + g] = pairIou(preds[p], gts[g], false);
  for (let p = 0; p < m; p++) s.usedOfDet[preds[p]] = 0;
  for (let g = 0; g < n; g++) s.gtUsed[gts[g]] = 0;
  for (let p = 0; p < m; p++) {
    const c = det.cls[preds[p]];
    let bv = 0;
    let bg = -1;
    for (let g = 0; g < n; g++) {
      if (gt.cls[gts[g]] !== c || s.gtUsed[gts[g]]) continue;
      if (iou[p * n + g] > bv) {
        bv = iou[p * n + g];
        bg = g;
      }
    }
    if (bg >= 0 && bv >= s.t) {
      s.usedOfDet[preds[p]] = 1;
      s.gtUsed[gts[bg]] = 1;
    }
  }
  for (const r of crowds) {
    for (let p = 0; p < m; p++) {
      const d = preds[p];
      if (s.usedOfDet[d] !== 1 && det.cls[d] === gt.cls[r] && pairIou(d, r, true) > s.t) s.usedOfDet[d] = 2;
    }
  }
}

/**
 * `_eval_image`'s loop body for prediction p: its AP point (unless ignored), then, for a non-TP, its error type
 * (first that applies: no object → Bkg; best same-class IoU in [0.1, t] → Loc; IoU ≥ t with another class →
 * Cls; IoU ≥ t with a used same-class object → Dupe; max IoU ≤ 0.1 → Bkg; else Both) and `BestGTMatch`.
 */
function pushAndType(s: RunState, preds: number[], p: number, gts: number[]): void {
  const { gt, det } = s.data;
  const d = preds[p];
  const used = s.usedOfDet[d];
  const c = det.cls[d];
  if (used !== 2) {
    s.base.touch(c);
    s.pointDet.push(d);
    s.pointCorrect.push(used);
  }
  if (!s.runErrors || used === 1) return;
  if (used === 2) s.ignoredErrors++;
  const n = gts.length;
  if (n === 0) {
    s.addError(E_BKG, d, -1, used);
    return;
  }
  let locV = 0, locG = 0, clsV = 0, clsG = 0, dupV = 0, allV = 0;
  for (let g = 0; g < n; g++) {
    const v = s.iou[p * n + g];
    const j = gts[g];
    if (v > allV) allV = v;
    if (gt.cls[j] === c) {
      if (v > locV) {
        locV = v;
        locG = g;
      }
      if (s.gtUsed[j] && v > dupV) dupV = v;
    } else if (v > clsV) {
      clsV = v;
      clsG = g;
    }
  }
  let type: number;
  let target = -1;
  if (TIDE_BG <= locV && locV <= s.t) {
    type = E_LOC;
    target = gts[locG];
  } else if (clsV >= s.t) {
    type = E_CLS;
    target = gts[clsG];
  } else if (dupV >= s.t) type = E_DUPE;
  else if (allV <= TIDE_BG) type = E_BKG;
  else type = E_BOTH;
  s.addError(type, d, target, used);
  if (target >= 0 && !s.gtUsed[target]) {
    s.usable[target] = 1;
    if (s.bestScore[target] < det.score[d]) {
      s.bestScore[target] = det.score[d];
      s.bestId[target] = d;
    }
  }
}

/** Per class: the correct flags of its points sorted by descending score, ties in insertion order. */
function sortedFlags(data: TideApData, pointDet: Int32Array, correct: Uint8Array, score: Float64Array, cls: Int32Array): [Uint8Array[]] {
  const n = pointDet.length;
  const order = Array.from({ length: n }, (_, i) => i);
  order.sort((x, y) => {
    const sx = score[pointDet[x]];
    const sy = score[pointDet[y]];
    return sy > sx ? 1 : sy < sx ? -1 : x - y;
  });
  const flags: Uint8Array[] = [];
  data.count.fill(0);
  for (let i = 0; i < n; i++) data.count[cls[pointDet[i]]]++;
  const fill = new Int32Array(data.count.length);
  for (let c = 0; c < data.count.length; c++) flags[c] = new Uint8Array(data.count[c]);
  for (const i of order) {
    const c = cls[pointDet[i]];
    flags[c][fill[c]++] = correct[i];
  }
  return [flags];
}

/** `error.original` and `error.fixed` of every error, once all images are done (as TIDERun._run). */
function finishErrors(
  errs: ErrorList,
  predUsed: number[],
  detCls: Int32Array,
  gtCls: Int32Array,
  gtUsed: Uint8Array,
  bestId: Int32Array,
): { errors: TideErrors; unfixable: number } {
  const count = errs.type.length;
  const e: TideErrors = {
    count,
    type: Int8Array.from(errs.type),
    det: Int32Array.from(errs.det),
    gt: Int32Array.from(errs.gt),
    origCls: new Int32Array(count).fill(-1),
    fixCls: new Int32Array(count).fill(-1),
  };
  let unfixable = 0;
  for (let k = 0; k < count; k++) {
    const type = e.type[k];
    const d = e.det[k];
    const j = e.gt[k];
    if (type === E_MISS) {
      e.fixCls[k] = gtCls[j];
      continue;
    }
    if (predUsed[k] !== 2) e.origCls[k] = detCls[d];
    if ((type === E_CLS || type === E_LOC) && !gtUsed[j]) {
      if (bestId[j] < 0) unfixable++;
      else if (bestId[j] === d) e.fixCls[k] = type === E_CLS ? gtCls[j] : detCls[d];
    }
  }
  return { errors: e, unfixable };
}
