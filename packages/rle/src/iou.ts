/**
 * Intersection over union of boxes and of RLE masks, with COCO's crowd rule (pycocotools `bbIou`,
 * `rleIou`). Results are row-major detections × ground truths: out[d * gts + g].
 */
import { countsBboxInto, toBboxInto } from './bbox.js';
import { RleError } from './errors.js';
import type { MaskList } from './mask-list.js';
import type { Rle } from './rle.js';

/** C `fmin`: a NaN operand is ignored; on equal values the second operand (x86 `minsd`). */
function fmin(a: number, b: number): number {
  if (a !== a) return b;
  if (b !== b) return a;
  return a < b ? a : b;
}
function fmax(a: number, b: number): number {
  if (a !== a) return b;
  if (b !== b) return a;
  return a > b ? a : b;
}

function crowdFlags(isCrowd: ArrayLike<number | boolean>, n: number): Uint8Array {
  if (isCrowd.length !== n) {
    throw new RleError('crowd-length', 'one crowd flag per ground truth is needed', { expected: `${n} flags`, found: `${isCrowd.length}` });
  }
  const f = new Uint8Array(n);
  for (let g = 0; g < n; g++) f[g] = Number(isCrowd[g]) !== 0 ? 1 : 0;
  return f;
}

/**
 * pycocotools' `bbIou` (maskApi.c) of one pair: the detection box at `dt[d … d+3]` and the ground-truth box
 * at `gt[g … g+3]`, both `[x, y, w, h]`; for a crowd ground truth the union is the detection's area. No +1
 * pixel convention. The one box IoU kernel: `boxIou` and COCO's per-pair evaluation both call it.
 */
export function boxPairIou(dt: ArrayLike<number>, d: number, gt: ArrayLike<number>, g: number, crowd: boolean): number {
  const d0 = dt[d], d1 = dt[d + 1], d2 = dt[d + 2], d3 = dt[d + 3];
  const g0 = gt[g], g1 = gt[g + 1], g2 = gt[g + 2], g3 = gt[g + 3];
  const w = fmin(d2 + d0, g2 + g0) - fmax(d0, g0);
  if (w <= 0) return 0;
  const h = fmin(d3 + d1, g3 + g1) - fmax(d1, g1);
  if (h <= 0) return 0;
  const i = w * h;
  const da = d2 * d3;
  const u = crowd ? da : da + g2 * g3 - i;
  return i / u;
}

/** bbIou into out (row-major m×n); dt, gt are flattened [x, y, w, h] rows. */
function boxIouInto(dt: ArrayLike<number>, gt: ArrayLike<number>, m: number, n: number, crowd: Uint8Array, out: Float64Array): void {
  for (let g = 0; g < n; g++) {
    const isCrowd = crowd[g] === 1;
    for (let d = 0; d < m; d++) out[d * n + g] = boxPairIou(dt, 4 * d, gt, 4 * g, isCrowd);
  }
}

/**
 * IoU of m detection boxes and n ground-truth boxes, flattened [x, y, w, h] rows (pycocotools `iou` on
 * boxes): for a crowd ground truth the union is the detection's area. No +1 pixel convention.
 */
export function boxIou(dts: ArrayLike<number>, gts: ArrayLike<number>, isCrowd: ArrayLike<number | boolean>): Float64Array {
  const m = Math.floor(dts.length / 4);
  const n = Math.floor(gts.length / 4);
  const crowd = crowdFlags(isCrowd, n);
  const out = new Float64Array(m * n);
  if (m > 0 && n > 0) boxIouInto(dts, gts, m, n, crowd, out);
  return out;
}

/**
 * The 1-runs of each mask as [start, end) pixel positions, all in one array: runs of mask k at
 * pos[2·off[k] …], count off[k+1] − off[k]; areas (uint32 sums of the 1-runs) in area[k]. Reused between calls
 * (grown when needed): one IoU call per image and category must not allocate per mask, or per call.
 */
interface Runs {
  pos: Uint32Array;
  off: Uint32Array;
  area: Float64Array;
}

const dtRuns: Runs = { pos: new Uint32Array(1 << 14), off: new Uint32Array(64), area: new Float64Array(64) };
const gtRuns: Runs = { pos: new Uint32Array(1 << 14), off: new Uint32Array(64), area: new Float64Array(64) };

/** `runs` with room for `n` masks and `total` runs. */
function reserveRuns(runs: Runs, n: number, total: number): void {
  if (runs.pos.length < 2 * total) runs.pos = new Uint32Array(Math.max(2 * total, 2 * runs.pos.length));
  if (runs.off.length < n + 1) {
    runs.off = new Uint32Array(Math.max(n + 1, 2 * runs.off.length));
    runs.area = new Float64Array(runs.off.length);
  }
}

/** Appends the 1-runs of the h×w mask with counts c[at … at+len) as mask q of `runs` (from run k on); returns the new run count. */
function maskRuns(runs: Runs, q: number, k: number, c: Uint32Array, at: number, len: number, h: number, w: number, what: string): number {
  const pos = runs.pos;
  runs.off[q] = k;
  let p = 0;
  let a = 0;
  for (let j = 0; j < len; j++) {
    const n = c[at + j];
    if (j & 1 && n > 0) {
      pos[2 * k] = p;
      pos[2 * k + 1] = p + n;
      k++;
      a += n;
    }
    p += n;
  }
  if (p !== h * w) {
    // pycocotools would walk such an RLE forever against a valid one
    throw new RleError('counts-sum', `iou: ${what} ${q} does not cover its mask`, {
      expected: `counts summing to h*w = ${h}*${w} = ${h * w}`,
      found: `sum ${p}`,
      position: q,
    });
  }
  runs.area[q] = a;
  return k;
}

function runsOf(rles: readonly Rle[], what: string, runs: Runs): Runs {
  let total = 0;
  for (const r of rles) total += r.counts.length >> 1;
  reserveRuns(runs, rles.length, total);
  let k = 0;
  for (let q = 0; q < rles.length; q++) {
    const { h, w, counts } = rles[q];
    k = maskRuns(runs, q, k, counts, 0, counts.length, h, w, what);
  }
  runs.off[rles.length] = k;
  return runs;
}

function runsOfList(list: MaskList, what: string, runs: Runs): Runs {
  const n = list.size;
  let total = 0;
  for (let q = 0; q < n; q++) total += list.length[q] >> 1;
  reserveRuns(runs, n, total);
  const c = list.counts.data;
  let k = 0;
  for (let q = 0; q < n; q++) k = maskRuns(runs, q, k, c, list.start[q], list.length[q], list.h[q], list.w[q], what);
  runs.off[n] = k;
  return runs;
}

/** Number of pixels in both run lists A = pos[a0 … a1), B = pos[b0 … b1) (run indices). */
function intersection(pos: Uint32Array, a: number, a1: number, gpos: Uint32Array, b: number, b1: number): number {
  if (a === a1 || b === b1) return 0;
  // skip the runs of one list that end before the other's first run starts (binary search)
  const bStart = gpos[2 * b];
  if (pos[2 * a + 1] <= bStart) a = firstEndingAfter(pos, a, a1, bStart);
  const aStart = a < a1 ? pos[2 * a] : 0;
  if (a < a1 && gpos[2 * b + 1] <= aStart) b = firstEndingAfter(gpos, b, b1, aStart);
  let i = 0;
  while (a < a1 && b < b1) {
    const as = pos[2 * a];
    const ae = pos[2 * a + 1];
    const bs = gpos[2 * b];
    const be = gpos[2 * b + 1];
    const lo = as > bs ? as : bs;
    const hi = ae < be ? ae : be;
    if (hi > lo) i += hi - lo;
    if (ae < be) a++;
    else b++;
  }
  return i;
}

/** First run index in [lo, hi) whose end is > x (hi if none). */
function firstEndingAfter(pos: Uint32Array, lo: number, hi: number, x: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (pos[2 * mid + 1] > x) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

export interface MaskIouOptions {
  /** toBboxes(dts), if the caller has them already (saves recomputing them per call). */
  dtBoxes?: Float64Array;
  /** toBboxes(gts), likewise. */
  gtBoxes?: Float64Array;
}

/**
 * Mask IoU of m detection RLEs and n ground-truth RLEs (pycocotools `iou` on RLEs), row-major m×n.
 * Pairs whose boxes do not overlap are 0 (pycocotools' box pre-filter); otherwise RLEs of different sizes
 * give −1, and the value is intersection / union, or intersection / area(detection) for a crowd ground
 * truth, with the same integer counts as pycocotools' run walk (union = |d| + |g| − intersection), so the
 * same doubles. Every RLE must have counts summing to h·w (RleError 'counts-sum'; pycocotools hangs).
 */
export function iou(dts: readonly Rle[], gts: readonly Rle[], isCrowd: ArrayLike<number | boolean>, options: MaskIouOptions = {}): Float64Array {
  const m = dts.length;
  const n = gts.length;
  const crowd = crowdFlags(isCrowd, n);
  const out = new Float64Array(m * n);
  if (m === 0 || n === 0) return out;
  let db = options.dtBoxes;
  if (!db) {
    db = new Float64Array(4 * m);
    for (let d = 0; d < m; d++) toBboxInto(dts[d], db, 4 * d);
  }
  let gb = options.gtBoxes;
  if (!gb) {
    gb = new Float64Array(4 * n);
    for (let g = 0; g < n; g++) toBboxInto(gts[g], gb, 4 * g);
  }
  boxIouInto(db, gb, m, n, crowd, out);
  const D = runsOf(dts, 'detection', dtRuns);
  const G = runsOf(gts, 'ground truth', gtRuns);
  for (let d = 0; d < m; d++) {
    const dt = dts[d];
    for (let g = 0; g < n; g++) {
      const gt = gts[g];
      if (dt.h !== gt.h || dt.w !== gt.w) {
        if (out[d * n + g] > 0) out[d * n + g] = -1;
      }
    }
  }
  masksIouInto(D, G, m, n, crowd, out);
  return out;
}

let listBoxes = new Float64Array(64);

/**
 * `iou` of masks held in MaskLists, written into out[0 … m·n) (grown by the caller; nothing else allocated):
 * the same numbers and errors. `crowd[g]` is 1 for a crowd ground truth; `dtBoxes`, if given, the detections'
 * boxes (as `MaskIouOptions.dtBoxes`).
 */
export function iouPacked(dts: MaskList, gts: MaskList, crowd: Uint8Array, dtBoxes: Float64Array | undefined, out: Float64Array): void {
  const m = dts.size;
  const n = gts.size;
  for (let i = 0; i < m * n; i++) out[i] = 0;
  if (m === 0 || n === 0) return;
  if (listBoxes.length < 4 * (m + n)) listBoxes = new Float64Array(Math.max(4 * (m + n), 2 * listBoxes.length));
  const boxes = listBoxes;
  // the ground truths' boxes at [0, 4n), the detections' (unless given) at [4n, 4(n + m))
  for (let g = 0; g < n; g++) countsBboxInto(gts.counts.data, gts.start[g], gts.length[g], gts.h[g], gts.w[g], boxes, 4 * g);
  let db: Float64Array;
  let d0: number;
  if (dtBoxes) {
    db = dtBoxes;
    d0 = 0;
  } else {
    for (let d = 0; d < m; d++) countsBboxInto(dts.counts.data, dts.start[d], dts.length[d], dts.h[d], dts.w[d], boxes, 4 * (n + d));
    db = boxes;
    d0 = 4 * n;
  }
  for (let g = 0; g < n; g++) {
    const isCrowd = crowd[g] === 1;
    for (let d = 0; d < m; d++) out[d * n + g] = boxPairIou(db, d0 + 4 * d, boxes, 4 * g, isCrowd);
  }
  const D = runsOfList(dts, 'detection', dtRuns);
  const G = runsOfList(gts, 'ground truth', gtRuns);
  for (let d = 0; d < m; d++) {
    for (let g = 0; g < n; g++) {
      if (dts.h[d] !== gts.h[g] || dts.w[d] !== gts.w[g]) {
        if (out[d * n + g] > 0) out[d * n + g] = -1;
      }
    }
  }
  masksIouInto(D, G, m, n, crowd, out);
}

/**
 * The mask IoU of every pair whose boxes overlap (out[d·n + g] > 0 after the box pass; a pair of different
 * sizes was set to −1 and is left so).
 */
function masksIouInto(D: Runs, G: Runs, m: number, n: number, crowd: Uint8Array, out: Float64Array): void {
  for (let d = 0; d < m; d++) {
    const a0 = D.off[d];
    const a1 = D.off[d + 1];
    const ad = D.area[d];
    for (let g = 0; g < n; g++) {
      const o = d * n + g;
      if (!(out[o] > 0)) continue;
      const i = intersection(D.pos, a0, a1, G.pos, G.off[g], G.off[g + 1]);
      out[o] = i === 0 ? 0 : i / (crowd[g] === 1 ? ad : ad + G.area[g] - i);
    }
  }
}
