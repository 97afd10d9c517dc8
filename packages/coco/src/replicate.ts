/**
 * The replicator of the COCO per-image statistics (per-image.ts): each category's AP (pycocotools' row AP:
 * the mean of the precision cells over IoU thresholds × recall thresholds, area "all", the AP's maxDets) on
 * a bootstrap replicate in which image i is listed `w[i]` times, its copies next to each other.
 *
 * It runs pycocotools' `accumulate` literally on the replicate's ranking: every stored block repeated
 * `w[image]` times in place (the order the stable score sort gives the copies), `tp`/`fp` cumulated,
 * `rc = tp / npig`, `pr = tp / (fp + tp + 2^-52)`, the right-to-left envelope, `searchsorted(rc, recThrs,
 * 'left')` with the cells after the first miss left at 0; `npig` is the sum of the images' counts times
 * their multiplicity. The AP is numpy's pairwise mean of the T × R cells: the identity replicate gives the
 * report's `AP` bit for bit. A category without non-ignored ground truth in the replicate has no AP (NaN;
 * pycocotools' −1), which the summary (`mean-numeric`) leaves out as pycocotools' mean leaves out −1.
 */
import { inputError, type PerImageStatistics, type Replicator } from '@cvdevkit/core';
import { unpackArray, type PackedArray } from '@cvdevkit/metrics';
import { pairwiseSum } from './pairwise-sum.js';
import { PER_IMAGE_KIND, type CocoPerImage } from './per-image.js';
import { FP, TP } from './records.js';

const SPACING_1 = 2 ** -52;
const P = 'extra.perImage';

interface Category {
  image: Uint32Array;
  /** Start of each block, plus the end. */
  blockStart: Uint32Array;
  outcome: Uint8Array;
  posImage: Uint32Array;
  posCount: Uint32Array;
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
    starts.push(n);
    return { image, blockStart: Uint32Array.from(starts), outcome, posImage, posCount };
  });
  return { T, recThrs: Float64Array.from(s.recThrs), keys, categories };
}

export function cocoReplicator(stats: PerImageStatistics): Replicator {
  const { T, recThrs, keys, categories } = checked(stats);
  const R = recThrs.length;
  const cells = new Float64Array(T * R);
  let pr = new Float64Array(1024);
  let tpAt = new Float64Array(1024);
  return {
    images: stats.images,
    classes: keys,
    evaluate(w, out) {
      for (let k = 0; k < categories.length; k++) {
        const c = categories[k];
        let npig = 0;
        for (let j = 0; j < c.posImage.length; j++) npig += w[c.posImage[j]] * c.posCount[j];
        if (npig === 0) {
          out[k] = NaN;
          continue;
        }
        let nd = 0;
        for (let b = 0; b + 1 < c.blockStart.length; b++) nd += w[c.image[c.blockStart[b]]] * (c.blockStart[b + 1] - c.blockStart[b]);
        if (pr.length < nd) {
          pr = new Float64Array(Math.max(nd, pr.length * 2));
          tpAt = new Float64Array(pr.length);
        }
        for (let t = 0; t < T; t++) {
          // the replicate's ranking: each block repeated w[image] times in place
          let tp = 0;
          let fp = 0;
          let j = 0;
          for (let b = 0; b + 1 < c.blockStart.length; b++) {
            const s = c.blockStart[b];
            const e = c.blockStart[b + 1];
            const copies = w[c.image[s]];
            for (let copy = 0; copy < copies; copy++) {
              for (let i = s; i < e; i++) {
                const o = c.outcome[i * T + t];
                if (o === TP) tp++;
                else if (o === FP) fp++;
                pr[j] = tp / (fp + tp + SPACING_1);
                tpAt[j] = tp;
                j++;
              }
            }
          }
          for (let i = nd - 1; i > 0; i--) if (pr[i] > pr[i - 1]) pr[i - 1] = pr[i];
          // searchsorted(rc, recThrs, 'left'); from the first index past the end on, the cells stay 0
          const row = t * R;
          let stopped = false;
          for (let r = 0; r < R; r++) {
            if (!stopped) {
              const thr = recThrs[r];
              let lo = 0;
              let hi = nd;
              while (lo < hi) {
                const mid = (lo + hi) >>> 1;
                if (tpAt[mid] / npig < thr) lo = mid + 1;
                else hi = mid;
              }
              if (lo >= nd) stopped = true;
              else {
                cells[row + r] = pr[lo];
                continue;
              }
            }
            cells[row + r] = 0;
          }
        }
        out[k] = pairwiseSum(cells, 0, T * R) / (T * R);
      }
    },
  };
}
