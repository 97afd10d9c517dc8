import { averagePrecisionArea } from '@cvdevkit/metrics';
import { normalizedAp } from './class-ap.js';
import { meanOf } from './input.js';
import { FP, TP, groupBy, type Prepared } from './prepare.js';
import type { CharacteristicResult } from '@cvdevkit/core';
export type { CharacteristicResult };

/** Hoiem's object characteristics and their five bins (cut at the 10/30/70/90 % quantiles). */
export const CHARACTERISTICS = {
  size: ['XS', 'S', 'M', 'L', 'XL'],
  height: ['XS', 'S', 'M', 'L', 'XL'],
  aspect: ['XT', 'T', 'M', 'W', 'XW'],
} as const;
export type Characteristic = keyof typeof CHARACTERISTICS;
const QUANTILES = [0.1, 0.3, 0.7, 0.9];
/** Bins with fewer objects are skipped (Hoiem et al.). */
export const MIN_BIN_OBJECTS = 5;


/** The characteristic's value for object j (+1-pixel box, or `[x, y, w, h]` when `xywh`). */
export function characteristicValue(boxes: Float64Array, j: number, ch: Characteristic, xywh = false): number {
  const w = xywh ? boxes[4 * j + 2] : boxes[4 * j + 2] - boxes[4 * j] + 1;
  const h = xywh ? boxes[4 * j + 3] : boxes[4 * j + 3] - boxes[4 * j + 1] + 1;
  return ch === 'size' ? w * h : ch === 'height' ? h : w / h;
}

/**
 * Bin of each value: with the values sorted ascending and q(p) the value at rank ⌊p·n⌋, bin = the number
 * of cut points q(0.1), q(0.3), q(0.7), q(0.9) at or below the value (distinct values: ranks
 * [0, ⌊0.1n⌋) → bin 0, …, [⌊0.9n⌋, n) → bin 4).
 */
export function quantileBins(values: readonly number[]): number[] {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  const cuts = QUANTILES.map((q) => sorted[Math.floor(q * n)]);
  return values.map((v) => cuts.reduce((b, c) => (v >= c ? b + 1 : b), 0));
}

function spread(apn: (number | null)[], overall: number): { sensitivity: number | null; impact: number | null } {
  const v = apn.filter((x): x is number => x !== null && !Number.isNaN(x));
  if (v.length === 0) return { sensitivity: null, impact: null };
  const max = Math.max(...v);
  return { sensitivity: max - Math.min(...v), impact: max - overall };
}

/**
 * APN per characteristic bin: per class, the positives sorted by the characteristic and binned; the APN of
 * a bin counts its own objects as positives and treats the true positives on other bins' objects as
 * "don't care" (left out); false positives stay.
 */
export function characteristicsAnalysis(p: Prepared, nbar: number): CharacteristicResult[] {
  const ap = p.input.ap ?? averagePrecisionArea;
  const obj = p.input.objects;
  const results: CharacteristicResult[] = [];
  const byClass = groupBy(obj.cls, p.nObj, p.nCls);
  // a class's overall APN (every bin) is the same for each characteristic: computed once
  const overallApn = new Float64Array(p.nCls).fill(NaN);
  const overallDone = new Uint8Array(p.nCls);
  for (const ch of Object.keys(CHARACTERISTICS) as Characteristic[]) {
    const bins = CHARACTERISTICS[ch];
    const perClass: CharacteristicResult['perClass'] = [];
    const binOf = new Int8Array(p.nObj).fill(-1);
    for (let c = 0; c < p.nCls; c++) {
      const objs: number[] = [];
      for (let r = byClass.start[c]; r < byClass.start[c + 1]; r++) if (p.positive[byClass.list[r]]) objs.push(byClass.list[r]);
      const b = quantileBins(objs.map((j) => characteristicValue(obj.boxes, j, ch, p.input.boxFormat === 'xywh')));
      const objects = [0, 0, 0, 0, 0];
      objs.forEach((j, k) => {
        binOf[j] = b[k];
        objects[b[k]]++;
      });
      const apn = bins.map((_, k) => (objects[k] < MIN_BIN_OBJECTS ? null : binApn(p, c, k, binOf, objects[k], nbar, ap)));
      if (!overallDone[c]) {
        overallApn[c] = binApn(p, c, -1, binOf, p.npos[c], nbar, ap);
        overallDone[c] = 1;
      }
      const overall = overallApn[c];
      perClass.push({ key: p.input.classes[c], apn, objects, overall, ...spread(apn, overall) });
    }
    const apn = bins.map((_, k) => {
      const v = perClass.map((c) => c.apn[k]).filter((x): x is number => x !== null);
      return v.length === 0 ? null : meanOf(v, 'numeric');
    });
    const overall = meanOf(perClass.map((c) => c.overall), p.input.meanRule);
    results.push({ characteristic: ch, bins, apn, overall, ...spread(apn, overall), perClass });
  }
  return results;
}

function binApn(p: Prepared, c: number, bin: number, binOf: Int8Array, npos: number, nbar: number, ap: (r: ArrayLike<number>, q: ArrayLike<number>) => number): number {
  const a = p.clsStart[c];
  const b = p.clsStart[c + 1];
  const tp = new Uint8Array(b - a);
  const fp = new Uint8Array(b - a);
  let n = 0;
  for (let r = a; r < b; r++) {
    const d = p.clsList[r];
    const o = p.outcome[d];
    if (o === TP && bin >= 0 && binOf[p.matchedObj[d]] !== bin) continue;
    tp[n] = o === TP ? 1 : 0;
    fp[n++] = o === FP ? 1 : 0;
  }
  return normalizedAp(tp.subarray(0, n), fp.subarray(0, n), npos, nbar, ap);
}
