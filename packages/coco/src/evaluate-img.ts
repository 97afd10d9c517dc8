import { FP, IGNORED, TP, type CategoryRecords } from './records.js';

/** One (image, category) unit after `computeIoU`: GTs in unit order, detections sorted and cut. */
export interface Unit {
  image: number;
  /** GT per-unit arrays (unit order). */
  gtIds: Float64Array;
  gtAreas: Float64Array;
  /** The `ignore` flag `_prepare` set (before the area range). */
  gtIgnore: Uint8Array;
  /** `int(iscrowd) != 0`. */
  gtCrowd: Uint8Array;
  ng: number;
  /** Detections in score order, cut to maxDets[-1]. */
  dtScores: Float64Array;
  dtAreas: Float64Array;
  nd: number;
  /** ious[d * ng + g], or null when computeIoU returned []. */
  ious: Float64Array | null;
}

export interface MatchScratch {
  gtOrder: Int32Array;
  gtIg: Uint8Array;
  gtm: Uint8Array;
}

export function makeScratch(): MatchScratch {
  return { gtOrder: new Int32Array(16), gtIg: new Uint8Array(16), gtm: new Uint8Array(16) };
}

function ensure(s: MatchScratch, ng: number): void {
  if (s.gtOrder.length < ng) {
    const n = Math.max(ng, s.gtOrder.length * 2);
    s.gtOrder = new Int32Array(n);
    s.gtIg = new Uint8Array(n);
    s.gtm = new Uint8Array(n);
  }
}

/**
 * `evaluateImg` (E:235-313) for one unit and area range a, `[areaLo[a], areaHi[a]]`, appending the record to `out`:
 * (the unit's detections are appended to `out` once, by the caller, for every area range). GTs stably sorted by `_ignore`, greedy matching per threshold exactly as pycocotools (best IoU ≥ t, the
 * last of equal IoUs, never from a regular match to an ignored GT, crowds never used up, a GT id 0 stored
 * as "no match"), then unmatched detections outside the range ignored.
 */
export function evaluateImg(u: Unit, a: number, areaLo: Float64Array, areaHi: Float64Array, iouThrs: Float64Array, out: CategoryRecords, s: MatchScratch): void {
  // the range's ends read here, not passed: a double argument is boxed on each call
  const lo = areaLo[a];
  const hi = areaHi[a];
  const { ng, nd } = u;
  if (ng === 0 && nd === 0) return;
  ensure(s, ng);
  const { gtOrder, gtIg, gtm } = s;
  // stable argsort of _ignore: the non-ignored first, then the ignored, each in unit order
  let p = 0;
  let npig = 0;
  for (let g = 0; g < ng; g++) {
    const a = u.gtAreas[g];
    if (!(u.gtIgnore[g] || a < lo || a > hi)) {
      gtOrder[p++] = g;
      npig++;
    }
  }
  for (let g = 0; g < ng; g++) {
    const a = u.gtAreas[g];
    if (u.gtIgnore[g] || a < lo || a > hi) gtOrder[p++] = g;
  }
  for (let j = 0; j < ng; j++) gtIg[j] = j < npig ? 0 : 1;
  out.npig[a] += npig;
  // a unit without detections adds its ground truths' count only (returned here: its own branch below was first
  // taken by the optimised code, late, and threw it away)
  if (nd === 0) return;
  const T = iouThrs.length;
  const at = out.outcomes[a].reserve(nd * T);
  const outcomes = out.outcomes[a].data;
  const ious = u.ious;
  if (ious === null || ng === 0) {
    // nothing to match: each detection is a false positive, or ignored outside the area range
    // (plain loops: TypedArray.prototype.fill is a call into the runtime, slow for a few entries)
    for (let d = 0; d < nd; d++) {
      const ar = u.dtAreas[d];
      const o = ar < lo || ar > hi ? IGNORED : FP;
      for (let i = at + d * T, e = i + T; i < e; i++) outcomes[i] = o;
    }
    return;
  }
  for (let t = 0; t < T; t++) {
    for (let j = 0; j < ng; j++) gtm[j] = 0;
    const thr = iouThrs[t];
    const start = thr > 1 - 1e-10 ? 1 - 1e-10 : thr;
    for (let d = 0; d < nd; d++) {
      let matchedId = 0;
      let matchedIg = 0;
      let m = -1;
      if (ious !== null) {
        let iou = start;
        const row = d * ng;
        for (let j = 0; j < ng; j++) {
          const g = gtOrder[j];
          if (gtm[j] && !u.gtCrowd[g]) continue;
          if (m > -1 && gtIg[m] === 0 && gtIg[j] === 1) break;
          const v = ious[row + g];
          if (v < iou) continue;
          iou = v;
          m = j;
        }
        if (m > -1) {
          matchedIg = gtIg[m];
          matchedId = u.gtIds[gtOrder[m]];
          gtm[m] = 1;
        }
      }
      let outcome: number;
      if (m > -1 && matchedIg) outcome = IGNORED;
      else if (matchedId !== 0) outcome = TP;
      else {
        const a = u.dtAreas[d];
        outcome = a < lo || a > hi ? IGNORED : FP;
      }
      outcomes[at + d * T + t] = outcome;
    }
  }
}
