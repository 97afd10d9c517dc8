import type { GroundTruth, Results } from './dataset.js';
import { accumulateCategory, emptyAccumulated, reserveAccumulate, type Accumulated } from './accumulate.js';
import { evaluateImg, makeScratch, type Unit } from './evaluate-img.js';
import type { CocoParams } from './params.js';
import { CategoryRecords } from './records.js';
import { scoreOrderRange } from './score-order.js';
import { FP, IGNORED } from './records.js';

/** The pycocotools behaviours `--fix` can switch off. */
export interface CocoFixes {
  /** AP (and the keypoint stats) read at the largest maxDets instead of the hard-coded 100 (20). */
  maxdets?: boolean;
  /** The annotation's own `ignore` field honoured (ignore = ignore or iscrowd), not overwritten by iscrowd. */
  ignore?: boolean;
  /** segm results carrying a bbox take the mask's area, not the box's. */
  maskArea?: boolean;
}

/**
 * Computes `ious[d * ng + g]` for a unit: `gts` are GT annotation indices in unit order, `dts` result
 * indices in score order (already cut). Returns null where pycocotools' computeIoU returns `[]`. The
 * array may be longer than nd·ng and may be reused by the next call (the caller reads it before).
 */
export interface IouComputer {
  compute(gts: Int32Array, dts: Int32Array, imageId: number): Float64Array | null;
  /** The same for `gIdx[g0, g1)` and `dIdx[d0, d1)`, where the computer needs no image (no view allocated per unit). */
  computeRange?(gIdx: Int32Array, g0: number, g1: number, dIdx: Int32Array, d0: number, d1: number): Float64Array | null;
}

/** The evaluation's resolved id lists (what `evaluate()` leaves in `params`). */
export interface EvalSetup {
  /** Sorted unique image ids. */
  imgIds: Float64Array;
  /** Category ids in `params.catIds` order (sorted unique when useCats). */
  catIds: number[];
  /** K: catIds.length with useCats, else 1. */
  K: number;
  /** Category id of each K index ([-1] without useCats). */
  kCatIds: number[];
}

export interface EvaluateOutput {
  setup: EvalSetup;
  /** records[k]: per category (K index); empty when accumulated as a stream */
  records: CategoryRecords[];
  /** Per K index: GT annotations (all, before any ignore) and detections on the evaluated images. */
  gtCount: Float64Array;
  dtCount: Float64Array;
  /** Non-ignored GTs per K index and area range: npig[k * A + a]. */
  npig: Float64Array;
  /** With `stream`: the accumulated arrays (records is then empty), and the wall time spent accumulating. */
  acc?: Accumulated;
  accumulateMs?: number;
}

/**
 * Accumulate each category as soon as its records are complete, instead of keeping every category's records
 * (what --shard and the per-image statistics need): one category's columns in memory, reused. The arguments of
 * `emptyAccumulated`.
 */
export interface StreamAccumulate {
  cells?: readonly boolean[];
  withScores: boolean;
}

export function resolveSetup(gt: GroundTruth, params: CocoParams): EvalSetup {
  const imgIds = Float64Array.from(new Set(params.imgIds ?? Array.from(gt.imageIds))).sort();
  let catIds: number[];
  if (params.useCats) catIds = [...new Set(params.catIds ?? Array.from(gt.categoryIds))].sort((a, b) => a - b);
  else catIds = params.catIds ? [...params.catIds] : Array.from(gt.categoryIds).sort((a, b) => a - b);
  return { imgIds, catIds, K: params.useCats ? catIds.length : 1, kCatIds: params.useCats ? catIds : [-1] };
}

const sharedUnit: Unit = { image: 0, gtIds: new Float64Array(16), gtAreas: new Float64Array(16), gtIgnore: new Uint8Array(16), gtCrowd: new Uint8Array(16), ng: 0, dtScores: new Float64Array(128), dtAreas: new Float64Array(128), nd: 0, ious: null };

/** The one Unit, its arrays grown to hold ng GTs and nd detections. */
function unitBuffers(ng: number, nd: number): Unit {
  const u = sharedUnit;
  if (u.gtIds.length < ng) {
    const n = Math.max(ng, u.gtIds.length * 2);
    u.gtIds = new Float64Array(n);
    u.gtAreas = new Float64Array(n);
    u.gtIgnore = new Uint8Array(n);
    u.gtCrowd = new Uint8Array(n);
  }
  if (u.dtScores.length < nd) {
    const n = Math.max(nd, u.dtScores.length * 2);
    u.dtScores = new Float64Array(n);
    u.dtAreas = new Float64Array(n);
  }
  u.ng = ng;
  u.nd = nd;
  return u;
}

/**
 * Where each image's annotations are in a file, without a per-annotation array: the file's runs of
 * consecutive annotations of one image (files list an image's annotations together: one run per image),
 * linked per image position in file order. Annotations of images outside the evaluated ones are in no run.
 */
interface ImageRuns {
  /** first run of each image position, -1 for none */
  first: Int32Array;
  last: Int32Array;
  next: Int32Array;
  start: Int32Array;
  end: Int32Array;
}

function imageRuns(n: number, imageOf: Float64Array, imgPos: Map<number, number>, nImg: number): ImageRuns {
  const first = new Int32Array(nImg).fill(-1);
  const last = new Int32Array(nImg).fill(-1);
  let cap = Math.min(Math.max(16, nImg), Math.max(16, n));
  let next = new Int32Array(cap);
  let start = new Int32Array(cap);
  let end = new Int32Array(cap);
  let runs = 0;
  let i = 0;
  while (i < n) {
    const im = imageOf[i];
    let e = i + 1;
    while (e < n && imageOf[e] === im) e++;
    const p = imgPos.get(im);
    if (p !== undefined) {
      if (runs === cap) {
        cap *= 2;
        const grow = (a: Int32Array) => {
          const b = new Int32Array(cap);
          b.set(a);
          return b;
        };
        next = grow(next);
        start = grow(start);
        end = grow(end);
      }
      start[runs] = i;
      end[runs] = e;
      next[runs] = -1;
      if (first[p] < 0) first[p] = runs;
      else next[last[p]] = runs;
      last[p] = runs;
      runs++;
    }
    i = e;
  }
  return { first, last, next, start, end };
}

/** One image's annotations stably sorted by category position, and the categories present with their bounds. */
interface ImageSort {
  /** annotation indices, [0, count) */
  idx: Int32Array;
  count: number;
  /** category positions present, ascending, [0, ncats) */
  cats: Int32Array;
  /** bounds of cats[j]'s annotations in idx: [catStart[j], catStart[j + 1]) */
  catStart: Int32Array;
  ncats: number;
  /** work space: category position of each annotation in file order, and per category position a count */
  pos: Int32Array;
  perCat: Int32Array;
}

function makeImageSort(C: number): ImageSort {
  return { idx: new Int32Array(256), count: 0, cats: new Int32Array(16), catStart: new Int32Array(17), ncats: 0, pos: new Int32Array(256), perCat: new Int32Array(C) };
}

/**
 * Sorts the annotations of image position `p` (its runs in file order) by category position, stably
 * (a counting sort over the categories present): pycocotools' `_gts[img, cat]` lists in `catIds` order.
 * Annotations of a category not evaluated are left out.
 */
function sortImage(s: ImageSort, runs: ImageRuns, p: number, catOf: Float64Array, catPos: Map<number, number>): void {
  let m = 0;
  for (let r = runs.first[p]; r >= 0; r = runs.next[r]) m += runs.end[r] - runs.start[r];
  if (s.idx.length < m) {
    const n = Math.max(m, 2 * s.idx.length);
    s.idx = new Int32Array(n);
    s.pos = new Int32Array(n);
  }
  const { pos, perCat } = s;
  let cats = s.cats;
  let nc = 0;
  let j = 0;
  let lastCat = NaN;
  let lastPos = -1;
  for (let r = runs.first[p]; r >= 0; r = runs.next[r]) {
    for (let i = runs.start[r], e = runs.end[r]; i < e; i++) {
      const ct = catOf[i];
      if (ct !== lastCat) {
        lastCat = ct;
        lastPos = catPos.get(ct) ?? -1;
      }
      pos[j++] = lastPos;
      if (lastPos < 0) continue;
      if (perCat[lastPos]++ === 0) {
        if (nc === cats.length) {
          const b = new Int32Array(2 * nc);
          b.set(cats);
          cats = s.cats = b;
          s.catStart = new Int32Array(2 * nc + 1);
        }
        // insertion into the ascending list of categories present (a few per image)
        let q = nc++;
        while (q > 0 && cats[q - 1] > lastPos) {
          cats[q] = cats[q - 1];
          q--;
        }
        cats[q] = lastPos;
      }
    }
  }
  const catStart = s.catStart;
  let at = 0;
  for (let c = 0; c < nc; c++) {
    const k = cats[c];
    catStart[c] = at;
    const n = perCat[k];
    perCat[k] = at; // now the next free slot of the category
    at += n;
  }
  catStart[nc] = at;
  const idx = s.idx;
  j = 0;
  for (let r = runs.first[p]; r >= 0; r = runs.next[r]) {
    for (let i = runs.start[r], e = runs.end[r]; i < e; i++) {
      const k = pos[j++];
      if (k >= 0) idx[perCat[k]++] = i;
    }
  }
  for (let c = 0; c < nc; c++) perCat[cats[c]] = 0;
  s.count = at;
  s.ncats = nc;
}

/**
 * The annotations of the evaluated images grouped by category position (a counting sort), each category's in
 * image order (then file order): `order[start[c], start[c + 1])`, and each one's image position in `image` (read in
 * sequence by the walk over a category, where the annotations' own columns would be read at random). Annotations of
 * other categories are left out.
 */
function byCategory(runs: ImageRuns, iStart: number, iEnd: number, catOf: Float64Array, catPos: Map<number, number>, C: number): { order: Int32Array; start: Int32Array; image: Int32Array } {
  const start = new Int32Array(C + 1);
  let lastCat = NaN;
  let lastPos = -1;
  for (let p = iStart; p < iEnd; p++) {
    for (let r = runs.first[p]; r >= 0; r = runs.next[r]) {
      for (let i = runs.start[r], e = runs.end[r]; i < e; i++) {
        const ct = catOf[i];
        if (ct !== lastCat) {
          lastCat = ct;
          lastPos = catPos.get(ct) ?? -1;
        }
        if (lastPos >= 0) start[lastPos + 1]++;
      }
    }
  }
  for (let c = 0; c < C; c++) start[c + 1] += start[c];
  const fill = start.slice(0, C);
  const order = new Int32Array(start[C]);
  const image = new Int32Array(start[C]);
  for (let p = iStart; p < iEnd; p++) {
    for (let r = runs.first[p]; r >= 0; r = runs.next[r]) {
      for (let i = runs.start[r], e = runs.end[r]; i < e; i++) {
        const ct = catOf[i];
        if (ct !== lastCat) {
          lastCat = ct;
          lastPos = catPos.get(ct) ?? -1;
        }
        if (lastPos < 0) continue;
        const at = fill[lastPos]++;
        order[at] = i;
        image[at] = p;
      }
    }
  }
  return { order, start, image };
}

/**
 * `evaluate()` (E:128-161): `_prepare`, computeIoU / computeOks per (image, category) and `evaluateImg` per
 * area range, recording per (category, area range) what `accumulate` needs; with `stream`, each category
 * accumulated as soon as it is recorded (see StreamAccumulate).
 */
export function evaluateCoco(gt: GroundTruth, dt: Results, params: CocoParams, fixes: CocoFixes, iou: IouComputer, imageRange?: [number, number], stream?: StreamAccumulate): EvaluateOutput {
  const setup = resolveSetup(gt, params);
  const { imgIds, catIds, K } = setup;
  const A = params.areaRanges.length;
  const T = params.iouThrs.length;
  const maxDet = params.maxDets[params.maxDets.length - 1];
  const C = catIds.length;
  const imgPos = new Map<number, number>();
  const [iStart, iEnd] = imageRange ?? [0, imgIds.length];
  for (let i = iStart; i < iEnd; i++) imgPos.set(imgIds[i], i);
  const catPos = new Map<number, number>();
  catIds.forEach((c, i) => catPos.set(c, i));

  const gtCount = new Float64Array(K);
  const dtCount = new Float64Array(K);

  // _prepare's ignore flag (E:107-111)
  const ga = gt.anns;
  const ignoreFlag = new Uint8Array(ga.count);
  for (let i = 0; i < ga.count; i++) {
    let ig = ga.iscrowd[i] !== 0;
    if (fixes.ignore) ig = ig || (ga.ignore[i] === ga.ignore[i] && ga.ignore[i] !== 0);
    if (params.iouType === 'keypoints') ig = ga.numKeypoints[i] === 0 || ig;
    ignoreFlag[i] = ig ? 1 : 0;
  }

  const nImg = imgIds.length;
  const gRuns = imageRuns(ga.count, ga.imageId, imgPos, nImg);
  const dRuns = imageRuns(dt.count, dt.imageId, imgPos, nImg);
  const scratch = makeScratch();
  const keypointsNoCats = params.iouType === 'keypoints' && !params.useCats;
  const gs = makeImageSort(C);
  const ds = makeImageSort(C);
  const areaLo = new Float64Array(A);
  const areaHi = new Float64Array(A);
  for (let a = 0; a < A; a++) {
    areaLo[a] = params.areaRanges[a].lo;
    areaHi[a] = params.areaRanges[a].hi;
  }

  /** One (image, category) unit: GTs gIdx[g0, g1), detections dIdx[d0, d1) (sorted here by score). */
  const unit = (rec: CategoryRecords, k: number, image: number, gIdx: Int32Array, g0: number, g1: number, dIdx: Int32Array, d0: number, d1: number): void => {
    scoreOrderRange(dt.score, dIdx, d0, d1);
    const ng = g1 - g0;
    const nAll = d1 - d0;
    const nd = nAll > maxDet ? maxDet : nAll;
    gtCount[k] += ng;
    dtCount[k] += nAll;
    rec.imagesWithRecord++;
    // the columns written in place (a push per value would box each score as a heap number)
    const sc = rec.scores;
    const rk = rec.ranks;
    const im = rec.images;
    const n0 = sc.length;
    if (n0 + nd > sc.data.length) sc.grow(n0 + nd);
    if (n0 + nd > rk.data.length) rk.grow(n0 + nd);
    if (n0 + nd > im.data.length) im.grow(n0 + nd);
    const scData = sc.data;
    const rkData = rk.data;
    const imData = im.data;
    for (let j = 0; j < nd; j++) {
      scData[n0 + j] = dt.score[dIdx[d0 + j]];
      rkData[n0 + j] = j;
      imData[n0 + j] = image;
    }
    sc.length = rk.length = im.length = n0 + nd;
    if (ng === 0) {
      // no ground truth (most units): each detection a false positive at every threshold, or ignored
      // outside the area range: evaluateImg's outcome without its set-up
      for (let a = 0; a < A; a++) {
        const lo = areaLo[a];
        const hi = areaHi[a];
        const col = rec.outcomes[a];
        const at = col.reserve(nd * T);
        const outcomes = col.data;
        for (let j = 0; j < nd; j++) {
          const ar = dt.area[dIdx[d0 + j]];
          const o = ar < lo || ar > hi ? IGNORED : FP;
          for (let i = at + j * T, e = i + T; i < e; i++) outcomes[i] = o;
        }
      }
      return;
    }
    const u = unitBuffers(ng, nd);
    u.image = image;
    if (nd === 0 || keypointsNoCats) u.ious = null;
    else if (iou.computeRange) u.ious = iou.computeRange(gIdx, g0, g1, dIdx, d0, d0 + nd);
    else u.ious = iou.compute(gIdx.subarray(g0, g1), dIdx.subarray(d0, d0 + nd), imgIds[image]);
    for (let j = 0; j < ng; j++) {
      const a = gIdx[g0 + j];
      u.gtIds[j] = ga.id[a];
      u.gtAreas[j] = ga.area[a];
      u.gtIgnore[j] = ignoreFlag[a];
      u.gtCrowd[j] = Math.trunc(ga.iscrowd[a]) !== 0 ? 1 : 0;
    }
    for (let j = 0; j < nd; j++) {
      u.dtScores[j] = dt.score[dIdx[d0 + j]];
      u.dtAreas[j] = dt.area[dIdx[d0 + j]];
    }
    for (let a = 0; a < A; a++) evaluateImg(u, a, areaLo, areaHi, params.iouThrs, rec, scratch);
  };

  const R = params.recThrs.length;
  const M = params.maxDets.length;
  const acc = stream ? emptyAccumulated(T, R, K, A, M, stream.cells, stream.withScores) : undefined;
  const records: CategoryRecords[] = [];
  const npig = new Float64Array(K * A);
  const timing = { accumulateMs: 0 };
  /** A category's records are complete: kept, or accumulated (then its columns are reused by the next). */
  const finish = (k: number, rec: CategoryRecords): void => {
    npig.set(rec.npig, k * A);
    if (!acc) {
      records[k] = rec;
      return;
    }
    // wall time only: process.cpuUsage (getrusage over every thread) twice per category cost more than the
    // accumulate of a small category (20–35 ms of the segm bench's match phase)
    const t0 = performance.now();
    accumulateCategory(acc, k, rec, params.recThrs, params.maxDets);
    timing.accumulateMs += performance.now() - t0;
  };

  if (!params.useCats) {
    // one pooled category: the units are the images, each image's annotations in catIds order
    let count = 0;
    for (let p = iStart; p < iEnd; p++) {
      if (dRuns.first[p] < 0) continue;
      sortImage(ds, dRuns, p, dt.categoryId, catPos);
      count += ds.count;
    }
    const rec = new CategoryRecords(T, A, count);
    for (let p = iStart; p < iEnd; p++) {
      if (gRuns.first[p] < 0 && dRuns.first[p] < 0) continue;
      sortImage(gs, gRuns, p, ga.categoryId, catPos);
      sortImage(ds, dRuns, p, dt.categoryId, catPos);
      if (gs.count > 0 || ds.count > 0) unit(rec, 0, p, gs.idx, 0, gs.count, ds.idx, 0, ds.count);
    }
    finish(0, rec);
    return { setup, records, gtCount, dtCount, npig, ...(acc ? { acc, ...timing } : {}) };
  }

  // category by category (pycocotools' evaluateImg order is per category, then image: the records of a category
  // are the same whichever order the categories are done in), each category's units in image order
  const g = byCategory(gRuns, iStart, iEnd, ga.categoryId, catPos, C);
  const d = byCategory(dRuns, iStart, iEnd, dt.categoryId, catPos, C);
  let largest = 0;
  for (let k = 0; k < C; k++) largest = Math.max(largest, d.start[k + 1] - d.start[k]);
  // streamed: one set of columns, sized for the largest category, reused (fresh memory costs page faults)
  const shared = acc ? new CategoryRecords(T, A, largest) : undefined;
  if (acc) reserveAccumulate(largest, T, R);
  /**
   * Category k's units in image order (both lists are in image order). A function of its own: the walk over the
   * units is what runs long, and compiled here it is compiled once; inline in the loop over the categories it made
   * the optimising compiler compile evaluateCoco whole, on stack, with everything it calls.
   */
  const matchCategory = (k: number, rec: CategoryRecords): void => {
    let x = g.start[k];
    const xe = g.start[k + 1];
    let y = d.start[k];
    const ye = d.start[k + 1];
    while (x < xe || y < ye) {
      // the next image of either list (both in image order)
      const pg = x < xe ? g.image[x] : iEnd;
      const pd = y < ye ? d.image[y] : iEnd;
      const p = pg < pd ? pg : pd;
      const x0 = x;
      const y0 = y;
      while (x < xe && g.image[x] === p) x++;
      while (y < ye && d.image[y] === p) y++;
      unit(rec, k, p, g.order, x0, x, d.order, y0, y);
    }
  };
  for (let k = 0; k < C; k++) {
    const rec = shared ? shared.clear() : new CategoryRecords(T, A, d.start[k + 1] - d.start[k]);
    matchCategory(k, rec);
    finish(k, rec);
  }
  return { setup, records, gtCount, dtCount, npig, ...(acc ? { acc, ...timing } : {}) };
}
