/** Phase 2 of `evaluateDetections`: the blacklist by image and the positives per class. */
import type { GroundTruth } from './ground-truth.js';
import type { Blacklist } from './inputs.js';

/** The blacklisted labels of each image index. */
export function blacklistByImage(blacklist: Blacklist | undefined): Map<number, number[]> {
  const byImage = new Map<number, number[]>();
  if (!blacklist) return byImage;
  for (let k = 0; k < blacklist.imageIds.length; k++) {
    const id = blacklist.imageIds[k];
    let a = byImage.get(id);
    if (!a) byImage.set(id, (a = []));
    a.push(blacklist.labels[k]);
  }
  return byImage;
}

/**
 * `num_pos_per_class` minus every blacklisted object, line by line (as the official loop), and minus
 * the objects of excluded entries (they contribute no positives).
 */
export function positivesPerClass(gt: GroundTruth, blByImage: Map<number, number[]>, exclude: Uint8Array | undefined): Float64Array {
  const nEntries = gt.imageIds.length;
  const numPos = Float64Array.from(gt.numPos);
  if (blByImage.size > 0) {
    for (let i = 0; i < nEntries; i++) {
      if (exclude && exclude[i]) continue;
      const bl = blByImage.get(gt.imageIds[i]);
      if (!bl) continue;
      for (let k = gt.objStart[i]; k < gt.objStart[i + 1]; k++) if (bl.includes(gt.labels[k])) numPos[gt.labels[k] - 1]--;
    }
  }
  if (exclude) {
    for (let i = 0; i < nEntries; i++) {
      if (!exclude[i]) continue;
      for (let k = gt.objStart[i]; k < gt.objStart[i + 1]; k++) numPos[gt.labels[k] - 1]--;
    }
  }
  return numPos;
}
