/**
 * What a shard's records file adds so that `cvdevkit merge coco/<task> --per-image` stores the same
 * per-image statistics (per-image.ts) as one run over all images, bit for bit. The evaluateImg records
 * already hold every detection's image, order and outcomes; the ground truth is not read again by a merge,
 * so each shard also writes, for its block of the sorted image ids:
 * - `imgIds`: the block's image ids (float64, base64): the statistics' fingerprint covers the image ids;
 * - per category (K index), the non-ignored ground truths of each image in the AP's area range, sparse:
 *   `posImage` (u32 positions among all sorted image ids) and `posCount` (u32), both base64.
 * Field `perImage` of the records file (schema `cvdevkit.coco-records/1`; optional: files written before it,
 * or runs whose AP is no single area range and maxDets (apCell), have none, and a merge then stores no
 * statistics and says why). Shards always write it: it is small (one entry per image and category with
 * ground truth) and a user should not have to re-run shards to bootstrap their merge.
 */
import { inputError } from '@cvdevkit/core';
import type { GroundTruth } from './dataset.js';
import type { CocoFixes, EvalSetup } from './evaluate.js';
import type { CocoParams } from './params.js';
import { apCell, npigPerImage } from './per-image.js';
import type { RecordsFile } from './records-file.js';

export interface ShardPerImage {
  /** Area range index and maxDets index of the AP cell (apCell), as the shard resolved them. */
  area: number;
  maxDet: number;
  imgIds: string;
  categories: { posImage: string; posCount: string }[];
}

/** A records file as this module reads it: the shared fields, and `perImage` when the shard wrote it. */
export type RecordsFileWithPerImage = RecordsFile & { perImage?: ShardPerImage };

const b64 = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');

function decode<T>(path: string, field: string, text: unknown, bytes: number, make: (b: ArrayBuffer) => T): T {
  const buf = typeof text === 'string' ? Buffer.from(text, 'base64') : undefined;
  if (buf === undefined || buf.length % bytes !== 0) {
    throw inputError({ code: 'input/counts-file', file: path, field, expected: `base64 of ${bytes}-byte numbers (a records file written by coco --shard)`, found: typeof text === 'string' ? `${buf?.length ?? 0} bytes` : JSON.stringify(text)?.slice(0, 40) ?? 'nothing' });
  }
  const copy = new ArrayBuffer(buf.length);
  new Uint8Array(copy).set(buf);
  return make(copy);
}

/** The shard's part: its block [start, end) of the sorted image ids; null when the AP is no single cell. */
export function shardPerImage(gt: GroundTruth, params: CocoParams, fixes: CocoFixes, setup: EvalSetup, range: readonly [number, number]): ShardPerImage | null {
  const cell = apCell(params, fixes);
  if (cell === null) return null;
  const npig = npigPerImage(gt, params, fixes, setup, cell.a, range);
  return {
    area: cell.a,
    maxDet: cell.m,
    imgIds: b64(setup.imgIds.subarray(range[0], range[1])),
    categories: npig.map((m) => {
      const pos = [...m].sort((x, y) => x[0] - y[0]);
      return { posImage: b64(Uint32Array.from(pos, (p) => p[0])), posCount: b64(Uint32Array.from(pos, (p) => p[1])) };
    }),
  };
}

/**
 * The shards' parts joined (files sorted by shard index, their params checked alike by the caller): all
 * sorted image ids and the per-image counts, or the reason there are none.
 */
export function mergeShardPerImage(
  files: readonly { path: string; file: RecordsFileWithPerImage }[],
  cell: { a: number; m: number },
  K: number,
  imageCount: number,
): { imgIds: Float64Array; npig: Map<number, number>[] } | string {
  const imgIds = new Float64Array(imageCount);
  const npig = Array.from({ length: K }, () => new Map<number, number>());
  let at = 0;
  for (const { path, file } of files) {
    const p = file.perImage;
    if (p === undefined) return `${path} holds no per-image ground-truth counts (a shard written by cvdevkit before they were stored)`;
    const counts = (field: string, expected: string, found: string) => inputError({ code: 'input/counts-file', file: path, field, expected, found });
    if (p.area !== cell.a || p.maxDet !== cell.m) throw counts('perImage', `the AP cell of the params (area range ${cell.a}, maxDets ${cell.m})`, `area range ${p.area}, maxDets ${p.maxDet}`);
    const [start, end] = file.images;
    if (start !== at || end < start || end > imageCount) throw counts('images', `the block of images after the previous shard's, from ${at + 1}, within ${imageCount}`, `${start + 1}–${end}`);
    const block = decode(path, 'perImage.imgIds', p.imgIds, 8, (b) => new Float64Array(b));
    if (block.length !== end - start) throw counts('perImage.imgIds', `${end - start} image ids (images ${start + 1}–${end})`, `${block.length}`);
    imgIds.set(block, start);
    at = end;
    if (!Array.isArray(p.categories) || p.categories.length !== K) throw counts('perImage.categories', `${K} categories`, Array.isArray(p.categories) ? `${p.categories.length}` : 'none');
    p.categories.forEach((c, k) => {
      const im = decode(path, `perImage.categories[${k}].posImage`, c.posImage, 4, (b) => new Uint32Array(b));
      const n = decode(path, `perImage.categories[${k}].posCount`, c.posCount, 4, (b) => new Uint32Array(b));
      if (im.length !== n.length) throw counts(`perImage.categories[${k}]`, 'as many counts as images', `${im.length} images, ${n.length} counts`);
      let total = 0;
      for (let i = 0; i < im.length; i++) {
        if (im[i] < start || im[i] >= end) throw counts(`perImage.categories[${k}].posImage[${i}]`, `an image position of the shard's block ${start}…${end - 1}`, String(im[i]));
        npig[k].set(im[i], n[i]);
        total += n[i];
      }
      // the same ground truths as the shard's records counted (a mismatch is a damaged or edited file)
      const recorded = file.categories[k]?.npig[cell.a];
      if (total !== recorded) throw counts(`perImage.categories[${k}].posCount`, `${String(recorded)} non-ignored ground truths in all (categories[${k}].npig[${cell.a}])`, String(total));
    });
  }
  if (at !== imageCount) throw inputError({ code: 'input/counts-incomplete', file: files[files.length - 1].path, field: 'images', expected: `${imageCount} images over all shards`, found: `${at}` });
  return { imgIds, npig };
}
