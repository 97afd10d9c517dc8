import { PER_IMAGE_SCHEMA, fingerprint, packArray, type BoundaryPerImage } from '@cvdevkit/metrics';
import { classKey } from './classes.js';
import { entryKey, type BoundaryCountSet } from './counts.js';

/**
 * Per-image statistics of `ade20k/boundary` (`cvdevkit.per-image/1`, kind `boundary`): the
 * per-threshold counts (cntR, sumR, cntP, sumP) of every (image, class) unit with a non-zero count,
 * images in the evaluation's sorted order. A bootstrap replicate sums them with the image multiplicities
 * (collect_eval_bdry.m on the replicate). The fingerprint covers the image names, classes and
 * thresholds (the ground truth itself is not hashed: its counts depend on the prediction).
 */
export function boundaryPerImage(set: BoundaryCountSet): BoundaryPerImage {
  const nt = set.thresholds.length;
  const images: number[] = [];
  const classes: number[] = [];
  const counts: number[] = [];
  set.classes.forEach((cls, k) => {
    for (let im = 0; im < set.images.length; im++) {
      const c = set.entries.get(entryKey(im, cls));
      if (!c || (c.cntR === null && c.sumR === null && c.cntP === null && c.sumP === null)) continue;
      images.push(im);
      classes.push(k);
      for (const a of [c.cntR, c.sumR, c.cntP, c.sumP]) for (let t = 0; t < nt; t++) counts.push(a ? a[t] : 0);
    }
  });
  return {
    schema: PER_IMAGE_SCHEMA,
    kind: 'boundary',
    images: set.images.length,
    fingerprint: fingerprint(['ade20k/boundary', ...set.images, set.classes, set.thresholds]),
    summaryKey: 'score',
    summary: 'mean',
    valueField: 'odsF',
    higherIsBetter: true,
    thresholds: Array.from(set.thresholds),
    classes: set.classes.map(classKey),
    entryImage: packArray(Uint32Array.from(images)),
    entryClass: packArray(Uint32Array.from(classes)),
    counts: packArray(Float64Array.from(counts)),
  };
}
