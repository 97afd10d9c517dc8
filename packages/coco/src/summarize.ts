import { precisionIndex, type Accumulated } from './accumulate.js';
import { pairwiseSum } from './pairwise-sum.js';
import type { CocoParams } from './params.js';

let scratch = new Float64Array(0);

export interface SummarizeQuery {
  ap: boolean;
  iouThr?: number;
  areaLabel: string;
  maxDets: number;
  /** Restrict to one K index (the per-category rows); all categories when undefined. */
  k?: number;
}

/**
 * `_summarize` (E:427-457): the cells of `precision[t, :, :, aind, mind]` (or `recall[t, :, aind, mind]`)
 * that are > -1, in C order (threshold, recall point, category), averaged with numpy's pairwise sum; -1
 * when there is none. `t` is every threshold, or those equal to `iouThr` (exact double comparison).
 */
export function summarizeOne(acc: Accumulated, params: CocoParams, q: SummarizeQuery): number {
  return summarizeResolved(acc, resolveQuery(acc, params, q), q.k);
}

/**
 * A query's cells, whichever category: the thresholds it reads and each (area range, maxDet) pair's offset in
 * the last axes (the precision cells' slot, see Accumulated, or the recall's a * M + m). Null where numpy's
 * indexing selects nothing (no such area label or maxDets, or lists that do not broadcast): the mean is -1.
 */
export interface ResolvedQuery {
  ap: boolean;
  ts: Int32Array;
  offsets: Int32Array;
}

export function resolveQuery(acc: Accumulated, params: CocoParams, q: SummarizeQuery): ResolvedQuery | null {
  const { T, M } = acc;
  const aind: number[] = [];
  params.areaRanges.forEach((r, i) => {
    if (r.label === q.areaLabel) aind.push(i);
  });
  const mind: number[] = [];
  params.maxDets.forEach((m, i) => {
    if (m === q.maxDets) mind.push(i);
  });
  // numpy fancy indexing with the two lists: broadcast together (pairs), empty if either is empty
  if (aind.length === 0 || mind.length === 0) return null;
  const n = Math.max(aind.length, mind.length);
  if (aind.length !== n && aind.length !== 1) return null;
  if (mind.length !== n && mind.length !== 1) return null;
  const offsets = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const a = aind[aind.length === 1 ? 0 : i];
    const m = mind[mind.length === 1 ? 0 : i];
    offsets[i] = q.ap ? precisionIndex(acc, 0, 0, 0, a, m) : a * M + m;
  }
  let nt = 0;
  for (let t = 0; t < T; t++) if (q.iouThr === undefined || params.iouThrs[t] === q.iouThr) nt++;
  const ts = new Int32Array(nt);
  nt = 0;
  for (let t = 0; t < T; t++) if (q.iouThr === undefined || params.iouThrs[t] === q.iouThr) ts[nt++] = t;
  return { ap: q.ap, ts, offsets };
}

/** The mean of a resolved query's cells over every category, or category `k` alone (-1 when there is none). */
export function summarizeResolved(acc: Accumulated, rq: ResolvedQuery | null, k?: number): number {
  if (rq === null) return -1;
  const { R, K, A, M, S } = acc;
  const k0 = k ?? 0;
  const k1 = k === undefined ? K : k + 1;
  const { ts, offsets } = rq;
  const cap = ts.length * (rq.ap ? R : 1) * (k1 - k0) * offsets.length;
  if (scratch.length < cap) scratch = new Float64Array(cap);
  const values = scratch;
  let nv = 0;
  for (let i = 0; i < ts.length; i++) {
    const t = ts[i];
    if (rq.ap) nv = gather(acc.precision, values, nv, (t * R * K + k0) * S, R, K * S, k1 - k0, S, offsets);
    else nv = gather(acc.recall, values, nv, (t * K + k0) * A * M, 1, 0, k1 - k0, A * M, offsets);
  }
  if (nv === 0) return -1;
  return pairwiseSum(values, 0, nv) / nv;
}

/**
 * Appends to `out` (from `nv` on) the cells `src[base + i * stride1 + j * stride2 + offsets[p]]` that are > -1,
 * i < n1, j < n2, p < offsets.length, in that (C) order; returns the new count. One small loop for every query,
 * so it is optimised after the first ones.
 */
function gather(src: Float64Array, out: Float64Array, nv: number, base: number, n1: number, stride1: number, n2: number, stride2: number, offsets: Int32Array): number {
  const no = offsets.length;
  for (let i = 0; i < n1; i++) {
    for (let j = 0; j < n2; j++) {
      const b = base + i * stride1 + j * stride2;
      for (let p = 0; p < no; p++) {
        const v = src[b + offsets[p]];
        if (v > -1) out[nv++] = v;
      }
    }
  }
  return nv;
}

export const DETECTION_STAT_NAMES = ['AP', 'AP50', 'AP75', 'APs', 'APm', 'APl', 'AR1', 'AR10', 'AR100', 'ARs', 'ARm', 'ARl'] as const;
export const KEYPOINT_STAT_NAMES = ['AP', 'AP50', 'AP75', 'APm', 'APl', 'AR', 'AR50', 'AR75', 'ARm', 'ARl'] as const;

/** The queries of `_summarizeDets` (E:458-472) / `_summarizeKps` (E:473-485), in `stats` order. */
export function statQueries(params: CocoParams, fixMaxDets: boolean, k?: number): SummarizeQuery[] {
  const md = params.maxDets;
  const last = md[md.length - 1];
  if (params.iouType === 'keypoints') {
    const m = fixMaxDets ? last : 20;
    return [
      { ap: true, areaLabel: 'all', maxDets: m },
      { ap: true, areaLabel: 'all', maxDets: m, iouThr: 0.5 },
      { ap: true, areaLabel: 'all', maxDets: m, iouThr: 0.75 },
      { ap: true, areaLabel: 'medium', maxDets: m },
      { ap: true, areaLabel: 'large', maxDets: m },
      { ap: false, areaLabel: 'all', maxDets: m },
      { ap: false, areaLabel: 'all', maxDets: m, iouThr: 0.5 },
      { ap: false, areaLabel: 'all', maxDets: m, iouThr: 0.75 },
      { ap: false, areaLabel: 'medium', maxDets: m },
      { ap: false, areaLabel: 'large', maxDets: m },
    ].map((q) => ({ ...q, k }));
  }
  const m2 = md[2];
  return [
    { ap: true, areaLabel: 'all', maxDets: fixMaxDets ? last : 100 },
    { ap: true, areaLabel: 'all', maxDets: m2, iouThr: 0.5 },
    { ap: true, areaLabel: 'all', maxDets: m2, iouThr: 0.75 },
    { ap: true, areaLabel: 'small', maxDets: m2 },
    { ap: true, areaLabel: 'medium', maxDets: m2 },
    { ap: true, areaLabel: 'large', maxDets: m2 },
    { ap: false, areaLabel: 'all', maxDets: md[0] },
    { ap: false, areaLabel: 'all', maxDets: md[1] },
    { ap: false, areaLabel: 'all', maxDets: m2 },
    { ap: false, areaLabel: 'small', maxDets: m2 },
    { ap: false, areaLabel: 'medium', maxDets: m2 },
    { ap: false, areaLabel: 'large', maxDets: m2 },
  ].map((q) => ({ ...q, k }));
}

/**
 * The (area range, maxDet) pairs whose precision the report reads, as `cells[a * M + m]`: the AP queries'
 * (overall and per category: the same queries) and the PR curves' (area "all" at the AP's maxDets). The other
 * pairs need only their recall (`--arrays` asks for every pair).
 */
export function reportCells(params: CocoParams, fixMaxDets: boolean): boolean[] {
  const A = params.areaRanges.length;
  const M = params.maxDets.length;
  const cells = new Array<boolean>(A * M).fill(false);
  for (const q of statQueries(params, fixMaxDets)) {
    if (!q.ap) continue;
    for (let a = 0; a < A; a++) {
      if (params.areaRanges[a].label !== q.areaLabel) continue;
      for (let m = 0; m < M; m++) if (params.maxDets[m] === q.maxDets) cells[a * M + m] = true;
    }
  }
  const c = curveCell(params, fixMaxDets);
  if (c) cells[c.a * M + c.m] = true;
  return cells;
}

/** The cell column of the report's PR curves: the first area range "all", the first maxDets equal to the AP's; none without one. */
export function curveCell(params: CocoParams, fixMaxDets: boolean): { a: number; m: number } | undefined {
  const a = params.areaRanges.findIndex((r) => r.label === 'all');
  const md = params.maxDets;
  const wantM = params.iouType === 'keypoints' ? (fixMaxDets ? md[md.length - 1] : 20) : fixMaxDets ? md[md.length - 1] : 100;
  const m = md.indexOf(wantM);
  return a < 0 || m < 0 ? undefined : { a, m };
}

/** `COCOeval.stats` (12 detection or 10 keypoint numbers). Detection stats need at least 3 maxDets. */
export function summarize(acc: Accumulated, params: CocoParams, fixMaxDets = false, k?: number): number[] {
  return statQueries(params, fixMaxDets, k).map((q) => summarizeOne(acc, params, q));
}
