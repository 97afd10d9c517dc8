import {
  OUTCOME_FP,
  OUTCOME_IGNORED,
  OUTCOME_TP,
  PER_IMAGE_SCHEMA,
  fingerprint,
  packRankedClass,
  type RankedPerImage,
} from '@cvdevkit/metrics';
import type { ApEntry } from './ap-report.js';
import type { ClassGroundTruth } from './det.js';
import type { LabelledList, LayoutList } from './image-sets.js';
import type { LayoutGroundTruth, LayoutRanked } from './layout.js';
import type { DetResults } from './results.js';

/**
 * Per-image statistics of the VOC AP tasks (`cvdevkit.per-image/1`, kind `ranked`; see
 * `@cvdevkit/metrics` per-image.ts). Every ranked entry is its own expansion block: the VOC sorts keep
 * file order (det) or list order (cls, action) among equal scores, so in a replicate whose files list
 * each line once per copy of its image, the copies of an entry are adjacent in the ranking.
 */
function outcomes(ranked: NonNullable<ApEntry['ranked']>): Uint8Array {
  const n = ranked.order.length;
  const out = new Uint8Array(n);
  for (let r = 0; r < n; r++) out[r] = ranked.tp[r] ? OUTCOME_TP : ranked.fp[r] ? OUTCOME_FP : OUTCOME_IGNORED;
  return out;
}

/** The AP rule of a metric name: the 11-point VOC2007 AP, else VOCap (protocol variants change the outcomes, not the AP). */
const apRule = (metric: string): string => (metric === 'ap-voc2007' ? 'ap-voc2007' : 'ap-voc2010');

const BASE = { schema: PER_IMAGE_SCHEMA, summaryKey: 'mAP', summary: 'mean-numeric', valueField: 'ap', higherIsBetter: true } as const;

/** `voc2010/det`: image = position in `ImageSets/Main/<set>.txt`; positives = non-difficult objects. */
export function detPerImage(
  imageIds: readonly string[],
  entries: readonly ApEntry[],
  results: readonly DetResults[],
  imageOf: readonly Int32Array[],
  gtByClass: ReadonlyMap<string, ClassGroundTruth>,
  metric: string,
): RankedPerImage {
  const n = imageIds.length;
  const parts: (string | ArrayLike<number>)[] = ['voc2010/det', ...imageIds];
  const classes = entries.map((e, k) => {
    const gt = gtByClass.get(e.key)!;
    const positives = new Uint32Array(n);
    for (let i = 0; i < n; i++) for (let j = gt.offsets[i]; j < gt.offsets[i + 1]; j++) if (!gt.difficult[j]) positives[i]++;
    parts.push(e.key, positives);
    const ranked = e.ranked!;
    return packRankedClass({
      key: e.key,
      image: Uint32Array.from(ranked.order, (d) => imageOf[k][d]),
      outcome: outcomes(ranked),
      score: Float64Array.from(ranked.order, (d) => results[k].confidence[d]),
      positives,
      blocks: 'entry',
    });
  });
  return { ...BASE, kind: 'ranked', images: n, fingerprint: fingerprint(parts), ap: apRule(metric), classes };
}

/**
 * `voc2010/cls` and `voc2010/action`: the units are the images of the lists (an action key
 * `<image>/<object>` belongs to its image), numbered in first-seen order over the lists; positives =
 * list entries with label > 0.
 */
export function scoredPerImage(lists: readonly LabelledList[], scores: readonly Float64Array[], entries: readonly ApEntry[], metric: string): RankedPerImage {
  const imageIndex = new Map<string, number>();
  const imageOfKey = lists.map((list) =>
    Uint32Array.from(list.keys, (key) => {
      const id = key.split('/')[0];
      let i = imageIndex.get(id);
      if (i === undefined) imageIndex.set(id, (i = imageIndex.size));
      return i;
    }),
  );
  const n = imageIndex.size;
  const parts: (string | ArrayLike<number>)[] = [...imageIndex.keys()];
  const classes = entries.map((e, k) => {
    const positives = new Uint32Array(n);
    lists[k].labels.forEach((label, j) => {
      if (label > 0) positives[imageOfKey[k][j]]++;
    });
    parts.push(e.key, ...lists[k].keys, lists[k].labels);
    const ranked = e.ranked!;
    return packRankedClass({
      key: e.key,
      image: Uint32Array.from(ranked.order, (j) => imageOfKey[k][j]),
      outcome: outcomes(ranked),
      score: Float64Array.from(ranked.order, (j) => scores[k][j]),
      positives,
      blocks: 'entry',
    });
  });
  return { ...BASE, kind: 'ranked', images: n, fingerprint: fingerprint(parts), ap: apRule(metric), classes };
}

/**
 * `voc2010/layout`: the units are the images of the layout list (first-seen order); positives = the
 * ground-truth parts of the listed persons of the image. A block is one layout's rows of a part class:
 * in a replicate the copies of a layout are adjacent in the results file and have equal confidence, so
 * they are adjacent in the sorted order.
 */
export function layoutPerImage(list: LayoutList, gt: LayoutGroundTruth, entries: readonly ApEntry[], ranked: readonly LayoutRanked[], metric: string): RankedPerImage {
  const imageIndex = new Map<string, number>();
  const unitOfPerson = Uint32Array.from(list.images, (id) => {
    let i = imageIndex.get(id);
    if (i === undefined) imageIndex.set(id, (i = imageIndex.size));
    return i;
  });
  const n = imageIndex.size;
  const parts: (string | ArrayLike<number>)[] = ['voc2010/layout', ...list.images, list.objects];
  const classes = entries.map((e, c) => {
    const positives = new Uint32Array(n);
    gt.parts.forEach((ps, j) => {
      for (const p of ps) if (p.cls === c) positives[unitOfPerson[j]]++;
    });
    parts.push(e.key, positives);
    const r = ranked[c];
    const outcome = new Uint8Array(r.person.length);
    for (let i = 0; i < outcome.length; i++) outcome[i] = r.tp[i] ? OUTCOME_TP : OUTCOME_FP;
    return packRankedClass({
      key: e.key,
      image: Uint32Array.from(r.person, (j) => unitOfPerson[j]),
      outcome,
      score: Float64Array.from(r.score),
      positives,
      blocks: 'given',
      blockStart: r.first,
    });
  });
  return { ...BASE, kind: 'ranked', images: n, fingerprint: fingerprint(parts), ap: apRule(metric), classes };
}
