import { TideApData, tideMap } from './tide-ap.js';
import { E_MISS, type TideRunResult } from './tide-run.js';

/**
 * TIDE v1.0.1's `TIDERun.fix_errors`: a new AP data object where the errors for which `fix(k)` is true
 * take their fixed form (Cls/Loc winners become TPs, the rest vanish; Miss lowers npos), re-inserting
 * every error-derived point first (in error order) and then every baseline TP, so that on equal scores
 * the error points come first.
 */
export interface FixOptions {
  /** Which errors to fix (by error index); none when absent. */
  fix?: (k: number) => boolean;
  /** FalsePos: TP scores become 1, FP scores 0. */
  perfectPrecision?: boolean;
  /** FalseNeg: every unmatched object leaves npos. */
  perfectRecall?: boolean;
}

export interface FixResult {
  ap: number;
  perClass: Float64Array;
}

/** Slots in TIDE's fixed order: error points (key: -score, 0, error index), then baseline TPs (-score, 1, insertion). */
export interface FixPlan {
  /** Slot → error index (≥ 0) or -(point index + 1) for a baseline TP. */
  slots: Int32Array;
}

/** The sorted slot order, computed once per run. */
export function fixPlan(run: TideRunResult, score: Float64Array): FixPlan {
  const errors = run.errors!;
  const list: number[] = [];
  for (let k = 0; k < errors.count; k++) if (errors.type[k] !== E_MISS) list.push(k);
  for (let i = 0; i < run.pointDet.length; i++) if (run.pointCorrect[i]) list.push(-(i + 1));
  const scoreOf = (s: number): number => score[s >= 0 ? errors.det[s] : run.pointDet[-s - 1]];
  list.sort((x, y) => {
    const sx = scoreOf(x);
    const sy = scoreOf(y);
    if (sx !== sy) return sy > sx ? 1 : -1;
    if (x >= 0 !== y >= 0) return x >= 0 ? -1 : 1;
    return x >= 0 ? x - y : y - x;
  });
  return { slots: Int32Array.from(list) };
}

// Long on purpose: mirrors fix_errors step by step (touch order, slots, npos).
export function fixErrors(run: TideRunResult, plan: FixPlan, cls: Int32Array, options: FixOptions): FixResult {
  const errors = run.errors!;
  const base = run.base;
  const C = base.npos.length;
  const fixed = (k: number): boolean => (options.fix ? options.fix(k) : false);
  const data = new TideApData(C);
  const gtPos = Float64Array.from(base.npos);
  // Class of each error's data point in the new object (-1: none).
  const pointCls = new Int32Array(errors.count).fill(-1);
  const pointTrue = new Uint8Array(errors.count);
  for (let k = 0; k < errors.count; k++) {
    if (errors.type[k] === E_MISS) {
      if (fixed(k)) gtPos[errors.fixCls[k]] -= 1;
      continue;
    }
    if (fixed(k)) {
      pointCls[k] = errors.fixCls[k];
      pointTrue[k] = 1;
    } else pointCls[k] = errors.origCls[k];
    if (pointCls[k] >= 0) data.touch(pointCls[k]);
  }
  const hasTp = new Uint8Array(C);
  for (let i = 0; i < run.pointDet.length; i++) if (run.pointCorrect[i]) hasTp[cls[run.pointDet[i]]] = 1;
  for (const c of base.order) if (hasTp[c]) data.touch(c);
  for (const c of base.order) data.touch(c);
  for (const c of base.order) data.npos[c] = gtPos[c] - (options.perfectRecall ? run.falseNeg![c] : 0);

  const flags: Uint8Array[] = [];
  for (let c = 0; c < C; c++) flags[c] = new Uint8Array(0);
  const count = data.count;
  count.fill(0);
  const clsOfSlot = (s: number): number => (s >= 0 ? pointCls[s] : cls[run.pointDet[-s - 1]]);
  for (const s of plan.slots) {
    const c = clsOfSlot(s);
    if (c >= 0) count[c]++;
  }
  for (let c = 0; c < C; c++) flags[c] = new Uint8Array(count[c]);
  const fill = new Int32Array(C);
  if (options.perfectPrecision) {
    // Scores become 1 (TP) / 0 (FP): per class all TPs first, then all FPs (ties keep insertion order).
    for (const s of plan.slots) {
      const c = clsOfSlot(s);
      if (c >= 0 && (s < 0 || pointTrue[s])) flags[c][fill[c]++] = 1;
    }
  } else {
    for (const s of plan.slots) {
      const c = clsOfSlot(s);
      if (c >= 0) flags[c][fill[c]++] = s < 0 || pointTrue[s] ? 1 : 0;
    }
  }
  const perClass = new Float64Array(C).fill(NaN);
  const ap = tideMap(data, flags, perClass);
  return { ap, perClass };
}
