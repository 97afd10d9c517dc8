import { ProblemCollector } from '@cvdevkit/core';
import { CLSLOC_FAIL, CLSLOC_NONE, boxIoU } from '@cvdevkit/metrics';
import { UNKNOWN_LABEL } from './annotation.js';
import type { GroundTruthBoxes } from './ground-truth.js';
import { ANY_CLASS_LABEL, MAX_GUESSES, type Blacklist, type GroundTruthLabels, type Predictions } from './inputs.js';

/** IoU a guess needs with a ground-truth box of its class (`ov_vector < 0.50` is a miss). */
export const MIN_OVERLAP = 0.5;

export interface ClsLocInputs {
  pred: Predictions;
  labels: GroundTruthLabels;
  /** Ground-truth boxes; without them only the classification error is computed (`nargout == 1`). */
  boxes?: GroundTruthBoxes;
  blacklist?: Blacklist;
  /** Also return the per-column first guesses (`clsFirst`, `locFirst`) the per-image statistics need. */
  perColumn?: boolean;
}

export interface ClsLocErrors {
  /** Index k-1 holds the error with k = 1..5 guesses. */
  clsError: number[];
  /** The official localisation error per guess count; null without ground-truth boxes. */
  locError: number[] | null;
  /**
   * The localisation error as the code intends it (every row's own labels, `for k = 1:n(i)`).
   * Equal to locError unless the multi-label quirk changes something.
   */
  intendedLocError: number[] | null;
  /** Non-blacklisted rows whose label count differs from the first row's (where the quirk can matter). */
  quirkRows: number;
  /** Rows excluded from the localisation error. */
  blacklistedRows: number;
  /** `length(blacklist)`: the number subtracted from the localisation denominator. */
  blacklistSize: number;
  /** With `perColumn`: per row × label width, for the row's own labels, the first guess naming the label (CLSLOC_NONE: none). */
  clsFirst?: Uint8Array;
  /** With `perColumn` and boxes: likewise the first guess localising it, or CLSLOC_FAIL where the official code fails (blacklisted rows: CLSLOC_NONE, unused). */
  locFirst?: Uint8Array;
}

/**
 * The classification and localisation errors of `eval_clsloc.m` for 1..5 guesses, as the official
 * demo computes them (`max_num_pred_per_image = 1..5`):
 *
 * - classification: `c(i) = Σ_j min_g (gt(i,j) ~= label(i,g))` over every (zero-padded) ground-truth
 *   column, `cls = Σ_i c(i)/n(i) / N` over all rows, blacklist not applied;
 * - localisation: for rows not blacklisted, `e(i) = Σ_{k=1..n(1)} min_g d(i,g,k)` where `d = 0` iff the
 *   guess has label gt(i,k) and IoU ≥ 0.5 with some ground-truth box of that label (label 1001: any
 *   box); `loc = Σ_i e(i)/n(i) / (N - length(blacklist))`. `n(1)` is the official quirk: `for k = 1:n`
 *   with a vector `n` iterates over the first row's label count.
 *
 * Where the official code fails (a matching guess but no ground-truth box of that class, an object
 * with an unknown WNID), a DevkitError lists every such place.
 */
export function computeClsLocErrors(input: ClsLocInputs): ClsLocErrors {
  const { pred, labels: gt, boxes, blacklist } = input;
  const { clsError, clsFirst } = classificationErrors(pred, gt, input.perColumn === true);
  const blacklistSize = blacklist ? blacklist.indices.length : 0;
  if (!boxes) {
    return { clsError, locError: null, intendedLocError: null, quirkRows: 0, blacklistedRows: 0, blacklistSize, ...(clsFirst ? { clsFirst } : {}) };
  }
  const mask = blacklistMask(blacklist, gt.rows);
  let blacklistedRows = 0;
  for (let i = 0; i < gt.rows; i++) blacklistedRows += mask[i];
  const problems = new ProblemCollector();
  const loc = localisationSums(pred, gt, boxes, mask, input.perColumn === true, problems);
  problems.throwIfAny();
  const denominator = gt.rows - blacklistSize;
  return {
    clsError,
    locError: loc.locSums.map((s) => s / denominator),
    intendedLocError: loc.intendedSums.map((s) => s / denominator),
    quirkRows: loc.quirkRows,
    blacklistedRows,
    blacklistSize,
    ...(clsFirst ? { clsFirst } : {}),
    ...(loc.locFirst ? { locFirst: loc.locFirst } : {}),
  };
}

/**
 * Classification: `c(i) = Σ_j min_g (gt(i,j) ~= label(i,g))` over every (zero-padded) column, summed
 * c(i)/n(i) in row order and divided by N. firstMatch: the first guess that names gt(i,j), or G when none does.
 */
function classificationErrors(pred: Predictions, gt: GroundTruthLabels, perColumn: boolean): { clsError: number[]; clsFirst: Uint8Array | undefined } {
  const N = gt.rows;
  const W = gt.width;
  const G = pred.guesses;
  const guessCount = (k: number) => Math.min(k, G);
  const L = pred.labels;
  const clsSums = new Array<number>(MAX_GUESSES).fill(0);
  const miss = new Int32Array(MAX_GUESSES);
  const clsFirst = perColumn ? new Uint8Array(N * W).fill(CLSLOC_NONE) : undefined;
  for (let i = 0; i < N; i++) {
    miss.fill(0);
    for (let j = 0; j < W; j++) {
      const t = gt.labels[i * W + j];
      let first = G;
      for (let g = 0; g < G; g++) {
        if (L[i * G + g] === t) {
          first = g;
          break;
        }
      }
      for (let k = 1; k <= MAX_GUESSES; k++) if (first >= guessCount(k)) miss[k - 1]++;
      if (clsFirst && j < gt.counts[i] && first < G) clsFirst[i * W + j] = first;
    }
    for (let k = 0; k < MAX_GUESSES; k++) clsSums[k] += miss[k] / gt.counts[i];
  }
  return { clsError: clsSums.map((s) => s / N), clsFirst };
}

/** mask[i] = 1 for a blacklisted row (entries beyond the last row exclude nothing). */
function blacklistMask(blacklist: Blacklist | undefined, N: number): Uint8Array {
  const mask = new Uint8Array(N);
  if (blacklist) for (const b of blacklist.indices) if (b <= N) mask[b - 1] = 1;
  return mask;
}

/**
 * Localisation, the hot loop (rows × label columns × guesses × boxes), kept in one function so that the
 * per-row sums stay in registers and are added in row order: for rows not blacklisted,
 * `e(i) = Σ_{k=1..n(1)} min_g d(i,g,k)` (official, the n(1) quirk) and the same over the row's own n(i)
 * labels (intended), each added as e(i)/n(i). The places where the official code fails are collected.
 */
function localisationSums(
  pred: Predictions,
  gt: GroundTruthLabels,
  boxes: GroundTruthBoxes,
  mask: Uint8Array,
  perColumn: boolean,
  problems: ProblemCollector,
): { locSums: number[]; intendedSums: number[]; quirkRows: number; locFirst: Uint8Array | undefined } {
  const N = gt.rows;
  const W = gt.width;
  const G = pred.guesses;
  const guessCount = (k: number) => Math.min(k, G);
  const L = pred.labels;
  const n1 = gt.counts[0];
  const locSums = new Array<number>(MAX_GUESSES).fill(0);
  const intendedSums = new Array<number>(MAX_GUESSES).fill(0);
  const e = new Int32Array(MAX_GUESSES);
  const eIntended = new Int32Array(MAX_GUESSES);
  const reportedUnknown = new Set<number>();
  const locFirst = perColumn ? new Uint8Array(N * W).fill(CLSLOC_NONE) : undefined;
  let quirkRows = 0;
  for (let i = 0; i < N; i++) {
    if (mask[i]) continue;
    const ni = gt.counts[i];
    if (ni !== n1) quirkRows++;
    e.fill(0);
    eIntended.fill(0);
    const o0 = boxes.offsets[i];
    const o1 = boxes.offsets[i + 1];
    const kMax = Math.max(n1, ni);
    for (let kk = 0; kk < kMax; kk++) {
      const official = kk < n1;
      const t = kk < W ? gt.labels[i * W + kk] : 0;
      let firstHit = G;
      let fails = false;
      for (let g = 0; g < G; g++) {
        if (L[i * G + g] !== t) continue;
        // compute_overlap(box, rec(i), t): asserts every object has a label, then IoU with the boxes of class t.
        if (boxes.unknown.has(i)) {
          fails = true;
          if (official && !reportedUnknown.has(i)) {
            reportedUnknown.add(i);
            reportUnknownWnid(problems, boxes, i);
          }
          break;
        }
        let any = false;
        let hit = false;
        for (let o = o0; o < o1; o++) {
          if (t !== ANY_CLASS_LABEL && boxes.labels[o] !== t) continue;
          any = true;
          if (boxIoU(pred.boxes, (i * G + g) * 4, boxes.boxes, o * 4) >= MIN_OVERLAP) {
            hit = true;
            break;
          }
        }
        if (!any) fails = true;
        if (!any && official) reportLabelWithoutBox(problems, pred, boxes, i, g, t);
        if (hit && firstHit === G) firstHit = g;
      }
      if (locFirst && kk < ni) locFirst[i * W + kk] = fails ? CLSLOC_FAIL : firstHit < G ? firstHit : CLSLOC_NONE;
      for (let k = 1; k <= MAX_GUESSES; k++) {
        const wrong = firstHit >= guessCount(k) ? 1 : 0;
        if (official) e[k - 1] += wrong;
        if (kk < ni) eIntended[k - 1] += wrong;
      }
    }
    for (let k = 0; k < MAX_GUESSES; k++) {
      locSums[k] += e[k] / ni;
      intendedSums[k] += eIntended[k] / ni;
    }
  }
  return { locSums, intendedSums, quirkRows, locFirst };
}

/** The official compute_overlap.m asserts every object has a label: an unknown WNID in row i fails it. */
function reportUnknownWnid(problems: ProblemCollector, boxes: GroundTruthBoxes, i: number): void {
  problems.add({
    code: 'input/unknown-wnid',
    file: boxes.describe(i),
    field: 'object name',
    expected: 'a WNID listed in the synset meta (the official compute_overlap.m asserts a label)',
    found: boxes.unknown.get(i),
    hint: 'pass --meta with the meta_clsloc.mat that lists it',
  });
}

/** Guess g of row i names label t, which has no ground-truth box in the image: compute_overlap returns [] and the official code fails. */
function reportLabelWithoutBox(problems: ProblemCollector, pred: Predictions, boxes: GroundTruthBoxes, i: number, g: number, t: number): void {
  const present = [...new Set(Array.from(boxes.labels.subarray(boxes.offsets[i], boxes.offsets[i + 1])).filter((x) => x !== UNKNOWN_LABEL))].join(', ');
  problems.add({
    code: 'clsloc/label-without-box',
    file: pred.file,
    line: pred.lines[i],
    field: `guess ${g + 1}`,
    expected: `a ground-truth box of class ${t} in ${boxes.describe(i)} (the official eval_clsloc.m fails here: compute_overlap returns [])`,
    found: `none (box classes: ${present || 'none'})`,
    hint: t === 0 ? 'a zero label meets a zero-padded ground-truth column through the official n(1) loop' : undefined,
  });
}
