/**
 * The replicator of the COCO per-image statistics (per-image.ts): each category's AP (pycocotools' row AP:
 * the mean of the precision cells over IoU thresholds × recall thresholds, area "all", the AP's maxDets) on
 * a bootstrap replicate in which image i is listed `w[i]` times, its copies next to each other.
 *
 * It gives what pycocotools' `accumulate` gives on the replicate's ranking (every stored block repeated
 * `w[image]` times in place: the order the stable score sort gives the copies): `pr = tp / (fp + tp + 2^-52)`,
 * its right-to-left envelope, sampled at `searchsorted(rc, recThrs, 'left')` with the cells after the first
 * miss left at 0, `npig` the sum of the images' counts times their multiplicity. The same doubles, computed at
 * the true positives only (see `Category`): the sampled position is the c-th true positive, c the smallest
 * count with `c / npig >= thr`. The AP is numpy's pairwise mean of the T × R cells: the identity replicate gives the
 * report's `AP` bit for bit. A category without non-ignored ground truth in the replicate has no AP (NaN;
 * pycocotools' −1). `evaluate` returns the replicate's summary AP computed as pycocotools does (the mean
 * over the pooled cells of the categories with ground truth), bit for bit the report's `AP` on the identity.
 */
import { inputError, type PerImageStatistics, type Replicator } from '@cvdevkit/core';
import { unpackArray, type PackedArray } from '@cvdevkit/metrics';
import { pairwiseSum } from './pairwise-sum.js';
import { PER_IMAGE_KIND, type CocoPerImage } from './per-image.js';
import { FP, TP } from './records.js';

const SPACING_1 = 2 ** -52;
const P = 'extra.perImage';

/**
 * A category's ranking as the replicator walks it, per IoU threshold t (t-major arrays of `blocks` entries):
 * each block's false positives (`fpCount`) and, for each of its true positives in rank order, the false
 * positives of the block ranked before it (`fpWithin`, from `tpStart[t * blocks + b]` on). Precision is only
 * ever sampled at a true positive (the envelope from a sampled position on is the best precision of the true
 * positives from there: a false positive lowers it, an ignored entry repeats it), so the walk visits blocks and
 * true positives, never the entries one by one.
 */
interface Category {
  posImage: Uint32Array;
  posCount: Uint32Array;
  blocks: number;
  blockImage: Uint32Array;
  fpCount: Uint32Array;
  tpStart: Uint32Array;
  fpWithin: Uint32Array;
}

function bad(field: string, expected: string, found: string): never {
  throw inputError({ code: 'input/report-field', field, expected, found });
}

const shown = (v: unknown): string => (v === null || v === undefined ? 'nothing' : Array.isArray(v) ? `an array of ${v.length}` : typeof v === 'object' ? 'an object' : JSON.stringify(v));

function unpacked(v: unknown, field: string, type: 'u8' | 'u32'): Uint8Array | Uint32Array {
  const p = v as PackedArray | null | undefined;
  if (p === null || typeof p !== 'object' || p.type !== type) bad(field, `a packed ${type} array {type, length, data}`, shown(p?.type ?? p));
  try {
    return unpackArray(p) as Uint8Array | Uint32Array;
  } catch (e) {
    return bad(field, 'a packed array whose data inflates to its declared length', (e as Error).message);
  }
}

const isNumberList = (v: unknown): v is number[] => Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'number' && Number.isFinite(x));

/** The layout read back from a report, every field checked (a hostile report is an input error naming the field, never a crash). */
function checked(stats: PerImageStatistics): { T: number; recThrs: Float64Array; keys: string[]; categories: Category[] } {
  if (stats.kind !== PER_IMAGE_KIND) {
    throw inputError({ code: 'input/not-comparable', field: `${P}.kind`, expected: `per-image statistics of kind "${PER_IMAGE_KIND}" (what the coco tasks write)`, found: JSON.stringify(stats.kind) });
  }
  const s = stats as CocoPerImage;
  if (!isNumberList(s.iouThrs)) bad(`${P}.iouThrs`, 'a list of IoU thresholds', shown(s.iouThrs));
  if (!isNumberList(s.recThrs)) bad(`${P}.recThrs`, 'a list of recall thresholds', shown(s.recThrs));
  if (!Array.isArray(s.categories)) bad(`${P}.categories`, 'a list of categories', shown(s.categories));
  const T = s.iouThrs.length;
  const keys: string[] = [];
  const categories = s.categories.map((c: CocoPerImage['categories'][number], k: number): Category => {
    const at = `${P}.categories[${k}]`;
    if (c === null || typeof c !== 'object' || typeof c.key !== 'string') bad(`${at}.key`, 'a category key', shown(c?.key));
    keys.push(c.key);
    const image = unpacked(c.image, `${at}.image`, 'u32') as Uint32Array;
    const block = unpacked(c.block, `${at}.block`, 'u8');
    const outcome = unpacked(c.outcome, `${at}.outcome`, 'u8') as Uint8Array;
    const posImage = unpacked(c.posImage, `${at}.posImage`, 'u32') as Uint32Array;
    const posCount = unpacked(c.posCount, `${at}.posCount`, 'u32') as Uint32Array;
    const n = image.length;
    if (block.length !== n) bad(`${at}.block`, `${n} entries (as image)`, String(block.length));
    if (outcome.length !== n * T) bad(`${at}.outcome`, `${n * T} entries (${T} per entry)`, String(outcome.length));
    if (posCount.length !== posImage.length) bad(`${at}.posCount`, `${posImage.length} entries (as posImage)`, String(posCount.length));
    for (const [name, arr] of [['image', image], ['posImage', posImage]] as const) {
      for (let j = 0; j < arr.length; j++) if (arr[j] >= stats.images) bad(`${at}.${name}[${j}]`, `an image index in 0..${stats.images - 1}`, String(arr[j]));
    }
    for (let j = 0; j < outcome.length; j++) if (outcome[j] > 2) bad(`${at}.outcome[${j}]`, '0 (false positive), 1 (true positive) or 2 (ignored)', String(outcome[j]));
    const starts: number[] = [];
    for (let j = 0; j < n; j++) {
      if (j === 0 || block[j] !== 0) starts.push(j);
      else if (image[j] !== image[j - 1]) bad(`${at}.block[${j}]`, 'a block of one image', `images ${image[j - 1]} and ${image[j]}`);
    }
    return walkPlan(image, Uint32Array.from(starts), outcome, T, posImage, posCount);
  });
  return { T, recThrs: Float64Array.from(s.recThrs), keys, categories };
}

function walkPlan(image: Uint32Array, starts: Uint32Array, outcome: Uint8Array, T: number, posImage: Uint32Array, posCount: Uint32Array): Category {
  const blocks = starts.length;
  const n = image.length;
  const end = (b: number) => (b + 1 < blocks ? starts[b + 1] : n);
  const fpCount = new Uint32Array(T * blocks);
  const tpStart = new Uint32Array(T * blocks + 1);
  const within: number[] = [];
  for (let t = 0; t < T; t++) {
    for (let b = 0; b < blocks; b++) {
      const i = t * blocks + b;
      tpStart[i] = within.length;
      let fp = 0;
      for (let j = starts[b]; j < end(b); j++) {
        const o = outcome[j * T + t];
        if (o === TP) within.push(fp);
        else if (o === FP) fp++;
      }
      fpCount[i] = fp;
    }
  }
  tpStart[T * blocks] = within.length;
  return { posImage, posCount, blocks, blockImage: Uint32Array.from(starts, (s) => image[s]), fpCount, tpStart, fpWithin: Uint32Array.from(within) };
}

/**
 * The smallest TP count c with `c / npig >= thr` (the division numpy does for `rc`), npig + 1 when none:
 * `searchsorted(rc, thr, 'left')` is the position of the c-th true positive (as accumulate.ts computes it).
 */
function tpNeeded(thr: number, npig: number): number {
  let lo = 0;
  let hi = npig + 1;
  while (lo < hi) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if (mid / npig >= thr) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

export function cocoReplicator(stats: PerImageStatistics): Replicator {
  const { T, recThrs, keys, categories } = checked(stats);
  const R = recThrs.length;
  const K = categories.length;
  const cells = new Float64Array(T * R);
  /** Every category's cells, pycocotools' C order (threshold, recall point, category), for the summary. */
  const allCells = new Float64Array(T * R * K);
  const hasGt = new Uint8Array(K);
  const pooled = new Float64Array(T * R * K);
  const need = new Float64Array(R);
  /** pr[c]: the precision at the c-th true positive, then its right-to-left maximum. */
  let pr = new Float64Array(1024);
  return {
    images: stats.images,
    classes: keys,
    evaluate(w, out) {
      for (let k = 0; k < categories.length; k++) {
        const c = categories[k];
        let npig = 0;
        for (let j = 0; j < c.posImage.length; j++) npig += w[c.posImage[j]] * c.posCount[j];
        hasGt[k] = npig === 0 ? 0 : 1;
        if (npig === 0) {
          out[k] = NaN;
          continue;
        }
        for (let r = 0; r < R; r++) need[r] = tpNeeded(recThrs[r], npig);
        const { blocks, blockImage, fpCount, tpStart, fpWithin } = c;
        for (let t = 0; t < T; t++) {
          // the replicate's ranking: each block repeated w[image] times in place
          const base = t * blocks;
          let tp = 0;
          let fp = 0;
          for (let b = 0; b < blocks; b++) {
            const copies = w[blockImage[b]];
            if (copies === 0) continue;
            const i = base + b;
            const nfp = fpCount[i];
            const s = tpStart[i];
            const e = tpStart[i + 1];
            if (s === e) {
              fp += copies * nfp;
              continue;
            }
            if (pr.length <= tp + copies * (e - s)) {
              const grown = new Float64Array(Math.max(2 * pr.length, tp + copies * (e - s) + 1));
              grown.set(pr.subarray(0, tp + 1));
              pr = grown;
            }
            for (let copy = 0; copy < copies; copy++) {
              // pycocotools' tp / (fp + tp + 2^-52) at this true positive (integer sums are exact in any order)
              for (let q = s; q < e; q++) {
                tp++;
                pr[tp] = tp / (fp + fpWithin[q] + tp + SPACING_1);
              }
              fp += nfp;
            }
          }
          for (let j = tp - 1; j >= 1; j--) if (pr[j + 1] > pr[j]) pr[j] = pr[j + 1];
          // q[r]: the envelope at the need[r]-th true positive (the first entry when 0 are needed: the best of
          // all, 0 without any); from the first r whose position is past the end on, the cells stay 0
          const row = t * R;
          let stopped = false;
          for (let r = 0; r < R; r++) {
            const nr = need[r];
            if (stopped || nr > tp) {
              stopped = true;
              cells[row + r] = 0;
            } else cells[row + r] = nr === 0 ? (tp > 0 ? pr[1] : 0) : pr[nr];
          }
        }
        out[k] = pairwiseSum(cells, 0, T * R) / (T * R);
        for (let j = 0; j < T * R; j++) allCells[j * K + k] = cells[j];
      }
      // the summary AP as pycocotools' _summarize takes it: the cells of the categories with ground truth (the
      // others are -1), in C order, numpy's pairwise mean; the mean of the per-category APs differs in the last bits
      let nv = 0;
      for (let j = 0; j < T * R; j++) for (let k = 0; k < K; k++) if (hasGt[k]) pooled[nv++] = allCells[j * K + k];
      return nv === 0 ? NaN : pairwiseSum(pooled, 0, nv) / nv;
    },
  };
}
