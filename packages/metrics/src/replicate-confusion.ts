import type { Replicator } from '@cvdevkit/core';
import { iouFromConfusion } from './confusion.js';
import { unpackF64, unpackU32, type ConfusionPerImage } from './per-image.js';

/**
 * The replicator of confusion per-image statistics (segmentation): the confusion matrix summed with every
 * image's cells counted `w[i]` times, then IoU per class.
 */
export function confusionReplicator(stats: ConfusionPerImage): Replicator {
  const offsets = unpackU32(stats.offsets);
  const cells = unpackU32(stats.cells);
  const counts = unpackF64(stats.counts);
  const l = stats.labels.length;
  const matrix = new Float64Array(l * l);
  return {
    images: stats.images,
    classes: stats.labels,
    evaluate(w, out) {
      matrix.fill(0);
      for (let i = 0; i < stats.images; i++) {
        const m = w[i];
        if (m === 0) continue;
        for (let j = offsets[i]; j < offsets[i + 1]; j++) matrix[cells[j]] += m * counts[j];
      }
      out.set(iouFromConfusion(matrix, l));
    },
  };
}
