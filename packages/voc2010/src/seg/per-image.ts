import { PER_IMAGE_SCHEMA, fingerprint, packArray, type ConfusionPerImage } from '@cvdevkit/metrics';
import type { SegImageCounts } from './scan.js';

/**
 * Per-image statistics of `voc2010/seg` (`cvdevkit.per-image/1`, kind `confusion`): each image's
 * non-zero confusion cells (`gt · 21 + result`) and counts, in image-set order. A replicate sums them
 * with the image multiplicities and takes the IoU per class (VOCevalseg.m on the replicate). The
 * fingerprint covers the image ids and the per-image ground-truth pixel counts per class (row sums).
 */
export function segPerImage(images: readonly SegImageCounts[], labels: string[]): ConfusionPerImage {
  const l = labels.length;
  const offsets = new Uint32Array(images.length + 1);
  const cells: number[] = [];
  const counts: number[] = [];
  const parts: (string | ArrayLike<number>)[] = ['voc2010/seg'];
  images.forEach((im, i) => {
    const rows = new Float64Array(l);
    im.cells.forEach((c, j) => {
      cells.push(c);
      counts.push(im.counts[j]);
      rows[Math.floor(c / l)] += im.counts[j];
    });
    offsets[i + 1] = cells.length;
    parts.push(im.id, rows);
  });
  return {
    schema: PER_IMAGE_SCHEMA,
    kind: 'confusion',
    images: images.length,
    fingerprint: fingerprint(parts),
    summaryKey: 'mIoU',
    summary: 'mean',
    valueField: 'iou',
    higherIsBetter: true,
    labels,
    offsets: packArray(offsets),
    cells: packArray(Uint32Array.from(cells)),
    counts: packArray(Float64Array.from(counts)),
  };
}
