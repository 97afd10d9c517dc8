/**
 * Per-image statistics of the COCO tasks (`cvdevkit.per-image/1`, kind `coco-ap`): what pycocotools'
 * `accumulate` reads for the cells behind each category's AP (area "all", the AP's maxDets), kept per image
 * so that `cvdevkit compare --bootstrap` can recompute the AP on a replicate of the images (replicate.ts).
 *
 * Per category (a report row), the `evaluateImg` records of every image, in accumulate's order (descending
 * score, stable: ties in image order, then each image's own order), cut to the AP's maxDets:
 * - `image` (u32): the image's position among the sorted evaluated image ids;
 * - `block` (u8): 1 where a block starts. A block is a run of consecutive entries of one image with one
 *   score: a replicate that lists the image w times (its copies next to each other, as sorted image ids
 *   put them) repeats the block w times in place, so the replicate's order is found without sorting;
 * - `outcome` (u8, T per entry): at each IoU threshold 1 = true positive, 0 = false positive, 2 = ignored;
 * - the non-ignored ground truths (`npig`) per image, sparse: `posImage` (u32), `posCount` (u32).
 * Scores are not stored (only their order matters for the AP).
 */
import type { PerImageStatistics } from '@cvdevkit/core';
import { PER_IMAGE_SCHEMA, fingerprint, packArray, type PackedArray } from '@cvdevkit/metrics';
import type { GroundTruth } from './dataset.js';
import type { CocoFixes, EvalSetup } from './evaluate.js';
import { fixNames } from './options.js';
import type { CocoParams } from './params.js';
import type { CategoryRecords } from './records.js';
import { compareScoreDesc, scoreOrder } from './score-order.js';
import { statQueries } from './summarize.js';

export const PER_IMAGE_KIND = 'coco-ap';

export interface CocoCategoryPerImage {
  key: string;
  image: PackedArray;
  block: PackedArray;
  outcome: PackedArray;
  posImage: PackedArray;
  posCount: PackedArray;
}

export interface CocoPerImage extends PerImageStatistics {
  kind: typeof PER_IMAGE_KIND;
  /** IoU thresholds (T) and recall thresholds (R) of the cells. */
  iouThrs: number[];
  recThrs: number[];
  /** The area range and maxDets of the AP (for the reader; the entries are already cut). */
  areaRng: [number, number];
  maxDets: number;
  categories: CocoCategoryPerImage[];
}

/**
 * The (area range, maxDets) indices of the rows' AP query: null unless exactly one pair (duplicated area
 * labels or maxDets, or none, are left to pycocotools' fancy indexing; no statistics then).
 */
export function apCell(params: CocoParams, fixes: CocoFixes): { a: number; m: number } | null {
  const q = statQueries(params, fixes.maxdets === true, 0)[0];
  const aind = params.areaRanges.flatMap((r, i) => (r.label === q.areaLabel ? [i] : []));
  const mind = params.maxDets.flatMap((m, i) => (m === q.maxDets ? [i] : []));
  return aind.length === 1 && mind.length === 1 ? { a: aind[0], m: mind[0] } : null;
}

/**
 * Non-ignored GTs per (K index, image position) in area range a: `_prepare`'s ignore flag (iscrowd; with
 * `--fix ignore` the file's ignore too; keypoints: num_keypoints 0), then the range, both ends inclusive.
 * With `range` ([start, end) of the sorted image ids: a shard), only the images of that block.
 */
export function npigPerImage(gt: GroundTruth, params: CocoParams, fixes: CocoFixes, setup: EvalSetup, a: number, range?: readonly [number, number]): Map<number, number>[] {
  const { lo, hi } = params.areaRanges[a];
  const imgPos = new Map<number, number>();
  const [start, end] = range ?? [0, setup.imgIds.length];
  for (let i = start; i < end; i++) imgPos.set(setup.imgIds[i], i);
  const catK = new Map<number, number>();
  setup.catIds.forEach((c, i) => catK.set(c, params.useCats ? i : 0));
  const out = Array.from({ length: setup.K }, () => new Map<number, number>());
  const g = gt.anns;
  for (let i = 0; i < g.count; i++) {
    const im = imgPos.get(g.imageId[i]);
    const k = catK.get(g.categoryId[i]);
    if (im === undefined || k === undefined) continue;
    let ig = g.iscrowd[i] !== 0;
    if (fixes.ignore) ig = ig || (g.ignore[i] === g.ignore[i] && g.ignore[i] !== 0);
    if (params.iouType === 'keypoints') ig = g.numKeypoints[i] === 0 || ig;
    const area = g.area[i];
    if (ig || area < lo || area > hi) continue;
    out[k].set(im, (out[k].get(im) ?? 0) + 1);
  }
  return out;
}

export interface CocoPerImageInput {
  task: string;
  /** The ground truth: the non-ignored ground truths per image are counted there (npigPerImage)... */
  gt?: GroundTruth;
  /** ...or given: per K index, image position → count in the AP's area range (a merge of shards: shard-per-image.ts). */
  npig?: Map<number, number>[];
  params: CocoParams;
  fixes: CocoFixes;
  setup: EvalSetup;
  records: CategoryRecords[];
}

/** The statistics of a whole run (one process, or the merge of its shards), or null when the rows' AP is no single cell column (see apCell). */
export function cocoPerImage(input: CocoPerImageInput): CocoPerImage | null {
  const { params, fixes, setup, records } = input;
  const cell = apCell(params, fixes);
  if (cell === null) return null;
  const { a, m } = cell;
  const maxDet = params.maxDets[m];
  const T = params.iouThrs.length;
  const npig = input.npig ?? (input.gt ? npigPerImage(input.gt, params, fixes, setup, a) : undefined);
  if (npig === undefined) throw new Error('cocoPerImage: needs the ground truth or the per-image counts');
  const posAll: number[] = [];
  const categories = records.map((rec, k): CocoCategoryPerImage => {
    const pos = [...npig[k]].sort((x, y) => x[0] - y[0]);
    let total = 0;
    for (const [, n] of pos) total += n;
    // the same ground truths evaluateImg counted: anything else is a bug here, never a silent wrong number
    if (total !== rec.npig[a]) throw new Error(`coco per-image statistics: category ${setup.kCatIds[k]} has ${total} non-ignored ground truths per image, ${rec.npig[a]} in the records`);
    const n = rec.count;
    const order = new Int32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    scoreOrder(rec.scores.data, order);
    const kept: number[] = [];
    for (let i = 0; i < n; i++) if (rec.ranks.data[order[i]] < maxDet) kept.push(order[i]);
    const image = new Uint32Array(kept.length);
    const block = new Uint8Array(kept.length);
    const outcome = new Uint8Array(kept.length * T);
    const scores = rec.scores.data;
    const outcomes = rec.outcomes[a].data;
    kept.forEach((e, j) => {
      image[j] = rec.images.data[e];
      const prev = j > 0 ? kept[j - 1] : -1;
      block[j] = prev < 0 || image[j - 1] !== image[j] || compareScoreDesc(scores[prev], scores[e]) !== 0 ? 1 : 0;
      for (let t = 0; t < T; t++) outcome[j * T + t] = outcomes[e * T + t];
    });
    for (const [im, c] of pos) posAll.push(k, im, c);
    return {
      key: String(setup.kCatIds[k]),
      image: packArray(image),
      block: packArray(block),
      outcome: packArray(outcome),
      posImage: packArray(Uint32Array.from(pos, (p) => p[0])),
      posCount: packArray(Uint32Array.from(pos, (p) => p[1])),
    };
  });
  const range = params.areaRanges[a];
  return {
    schema: PER_IMAGE_SCHEMA,
    kind: PER_IMAGE_KIND,
    images: setup.imgIds.length,
    // the images, categories, cells and every image's non-ignored ground truths: reports compare only when all agree
    fingerprint: fingerprint([input.task, setup.imgIds, setup.kCatIds, params.iouThrs, params.recThrs, [range.lo, range.hi, maxDet], fixNames(fixes).join(','), posAll]),
    summaryKey: 'AP',
    summary: 'mean-numeric',
    valueField: 'AP',
    higherIsBetter: true,
    iouThrs: Array.from(params.iouThrs),
    recThrs: Array.from(params.recThrs),
    areaRng: [range.lo, range.hi],
    maxDets: maxDet,
    categories,
  };
}
