/**
 * Phase 1 of `evaluateDetections`: which list entry each image index is matched to, the order of the
 * per-image groups, and the detections sorted into those groups (a stable counting sort).
 */
import { ProblemCollector } from '@cvdevkit/core';
import type { GroundTruth } from './ground-truth.js';
import type { Predictions } from './inputs.js';

export interface ImageGroups {
  /** List entry matched for each image index: the last list line with that index. */
  entryOf: Map<number, number>;
  /** List indices that occur on more than one (not excluded) line. */
  duplicateIds: number;
  /** Group rank of each list entry (-1: not matched). */
  groupOfEntry: Int32Array;
  /** List entry of each group. */
  entryOfGroup: Int32Array;
  nGroups: number;
}

/**
 * The entry matched for each image index (DET: tp_cell{id} is overwritten by later lines; VID:
 * Octave's ismember returns the last occurrence) and the group rank of each entry: image-index order
 * (`'index'`, DET) or line order (`'line'`, VID).
 */
export function groupEntries(gt: GroundTruth, order: 'index' | 'line', exclude: Uint8Array | undefined): ImageGroups {
  const nEntries = gt.imageIds.length;
  const entryOf = new Map<number, number>();
  let duplicateIds = 0;
  for (let i = 0; i < nEntries; i++) {
    if (exclude && exclude[i]) continue;
    if (entryOf.has(gt.imageIds[i])) duplicateIds++;
    entryOf.set(gt.imageIds[i], i);
  }
  const groupOfEntry = new Int32Array(nEntries).fill(-1);
  let nGroups = 0;
  if (order === 'index') {
    const ids = Array.from(entryOf.keys()).sort((a, b) => a - b);
    for (const id of ids) groupOfEntry[entryOf.get(id)!] = nGroups++;
  } else {
    for (let i = 0; i < nEntries; i++) if (entryOf.get(gt.imageIds[i]) === i) groupOfEntry[i] = nGroups++;
  }
  const entryOfGroup = new Int32Array(nGroups);
  for (let i = 0; i < nEntries; i++) if (groupOfEntry[i] >= 0) entryOfGroup[groupOfEntry[i]] = i;
  return { entryOf, duplicateIds, groupOfEntry, entryOfGroup, nGroups };
}

export interface GroupedDetections {
  /** Group of each detection (-1: dropped, its image is not in the list). */
  groupOfDet: Int32Array;
  /** Group g holds `grouped[groupStart[g] .. groupStart[g + 1])`. */
  groupStart: Int32Array;
  /** Detection indices grouped by image, file order within a group. */
  grouped: Uint32Array;
  /** Detections kept (`grouped.length`) and dropped. */
  kept: number;
  dropped: number;
}

/**
 * Detections assigned to their image's group (counting sort: stable, file order within a group).
 * A detection on an image index not in the list is an input error (`outside: 'error'`, DET: the
 * official code fails) or dropped (`'drop'`, VID: the STMN copy prunes them).
 */
export function groupDetections(preds: Predictions, groups: ImageGroups, outside: 'error' | 'drop'): GroupedDetections {
  const { entryOf, groupOfEntry, nGroups } = groups;
  const n = preds.count;
  const groupOfDet = new Int32Array(n);
  const problems = new ProblemCollector();
  let dropped = 0;
  const groupStart = new Int32Array(nGroups + 1);
  for (let d = 0; d < n; d++) {
    const e = entryOf.get(preds.imageIds[d]);
    if (e === undefined) {
      groupOfDet[d] = -1;
      dropped++;
      if (outside === 'error') {
        problems.add({
          code: 'input/unknown-image',
          file: preds.file,
          line: preds.lines[d],
          field: 'image index',
          expected: 'an image index of the image list',
          found: String(preds.imageIds[d]),
          hint: 'the official eval_detection.m fails on it',
        });
      }
      continue;
    }
    const g = groupOfEntry[e];
    groupOfDet[d] = g;
    groupStart[g + 1]++;
  }
  problems.throwIfAny();
  for (let g = 0; g < nGroups; g++) groupStart[g + 1] += groupStart[g];
  const kept = n - dropped;
  const grouped = new Uint32Array(kept);
  const fill = groupStart.slice(0, nGroups);
  for (let d = 0; d < n; d++) if (groupOfDet[d] >= 0) grouped[fill[groupOfDet[d]]++] = d;
  return { groupOfDet, groupStart, grouped, kept, dropped };
}
