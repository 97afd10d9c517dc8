/**
 * Per-image statistics of `ade20k/sceneparsing` (`cvdevkit.per-image/1`, kind `eps-iou`): for every evaluated
 * image (in the official file order) and every class with a non-zero union in it, the intersection and the
 * union. A bootstrap replicate recomputes the official `IoU(c) = ΣI / Σ(eps + U)` from them (replicate.ts);
 * the pixel accuracy is not bootstrapped (it is no per-class value), so the summary is `mIoU`.
 * The fingerprint covers the evaluated images' names: two submissions compare only when the same images
 * were evaluated (the prediction folder drives the official loop).
 */
import { PER_IMAGE_SCHEMA, fingerprint, packArray, type PackedArray } from '@cvdevkit/metrics';
import type { PerImageStatistics } from '@cvdevkit/core';
import { CLASS_COUNT, classKey } from './classes.js';
import type { EntryRecord } from './records.js';

export const PER_IMAGE_KIND = 'eps-iou';

export interface SceneParsingPerImage extends PerImageStatistics {
  kind: typeof PER_IMAGE_KIND;
  /** Row keys, class 1 first (`class_001` … `class_150`). */
  classes: string[];
  /** Per entry (image, class with a non-zero union): image index (u32), class index 0..149 (u32), I and U (f64). */
  entryImage: PackedArray;
  entryClass: PackedArray;
  intersection: PackedArray;
  union: PackedArray;
}

/** The statistics of the evaluated images of `records` (all shards, in order). */
export function sceneParsingPerImage(records: readonly EntryRecord[]): SceneParsingPerImage {
  const names: string[] = [];
  const image: number[] = [];
  const cls: number[] = [];
  const inter: number[] = [];
  const uni: number[] = [];
  for (const r of records) {
    if (r.counts === undefined) continue;
    const i = names.length;
    names.push(r.name);
    const c = r.counts;
    for (let k = 0; k < c.classes.length; k++) {
      image.push(i);
      cls.push(c.classes[k] - 1);
      inter.push(c.intersection[k]);
      uni.push(c.union[k]);
    }
  }
  return {
    schema: PER_IMAGE_SCHEMA,
    kind: PER_IMAGE_KIND,
    images: names.length,
    fingerprint: fingerprint(['ade20k/sceneparsing', ...names]),
    summaryKey: 'mIoU',
    summary: 'mean',
    valueField: 'iou',
    higherIsBetter: true,
    classes: Array.from({ length: CLASS_COUNT }, (_, c) => classKey(c + 1)),
    entryImage: packArray(Uint32Array.from(image)),
    entryClass: packArray(Uint32Array.from(cls)),
    intersection: packArray(Float64Array.from(inter)),
    union: packArray(Float64Array.from(uni)),
  };
}
