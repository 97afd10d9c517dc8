import { OUTCOME_FP, OUTCOME_IGNORED, OUTCOME_TP, PER_IMAGE_SCHEMA, fingerprint, packRankedClass, type RankedPerImage } from '@cvdevkit/metrics';
import type { DetectionEvalResult } from './evaluate.js';
import type { GroundTruth } from './ground-truth.js';
import type { Blacklist, Predictions } from './inputs.js';

/**
 * Per-image statistics of ILSVRC DET / VID (`cvdevkit.per-image/1`, kind `ranked`): the unit is a line
 * of the image list; per class the ranked detections (list line, outcome, confidence) and per line the
 * positives left after the blacklist (and `--exclude-generated`). Expansion blocks are runs of equal
 * confidence on the same line: the official sort breaks ties by image (index or list order), then file
 * order, so in a replicate whose copies of an image are consecutive images the tied detections of one
 * image come copy by copy.
 */
export function detectionPerImage(
  task: string,
  gt: GroundTruth,
  preds: Predictions,
  blacklist: Blacklist | undefined,
  exclude: Uint8Array | undefined,
  result: DetectionEvalResult,
  classKey: (label: number) => string,
): RankedPerImage {
  const ranking = result.ranking!;
  const nEntries = gt.imageIds.length;
  const numClasses = gt.numPos.length;
  const bl = new Map<number, Set<number>>();
  if (blacklist) {
    for (let k = 0; k < blacklist.imageIds.length; k++) {
      const id = blacklist.imageIds[k];
      if (!bl.has(id)) bl.set(id, new Set());
      bl.get(id)!.add(blacklist.labels[k]);
    }
  }
  const positives = Array.from({ length: numClasses }, () => new Uint32Array(nEntries));
  for (let i = 0; i < nEntries; i++) {
    if (exclude && exclude[i]) continue;
    const skip = bl.get(gt.imageIds[i]);
    for (let k = gt.objStart[i]; k < gt.objStart[i + 1]; k++) {
      const label = gt.labels[k];
      if (!skip || !skip.has(label)) positives[label - 1][i]++;
    }
  }
  const perClass = Array.from({ length: numClasses }, () => ({ image: [] as number[], outcome: [] as number[], score: [] as number[] }));
  for (const d of ranking.dets) {
    const label = preds.labels[d];
    if (!(label >= 1 && label <= numClasses)) continue;
    const c = perClass[label - 1];
    c.image.push(ranking.entryOfDet[d]);
    c.outcome.push(ranking.tp[d] ? OUTCOME_TP : ranking.fp[d] ? OUTCOME_FP : OUTCOME_IGNORED);
    c.score.push(preds.confidences[d]);
  }
  const parts: (string | ArrayLike<number>)[] = [task, gt.imageIds, ...positives];
  return {
    schema: PER_IMAGE_SCHEMA,
    kind: 'ranked',
    images: nEntries,
    fingerprint: fingerprint(parts),
    summaryKey: 'meanAP',
    summary: 'mean',
    valueField: 'ap',
    higherIsBetter: true,
    ap: 'ap-voc2010',
    classes: perClass.map((c, k) => packRankedClass({ key: classKey(k + 1), ...c, positives: positives[k], blocks: 'image-run' })),
  };
}
