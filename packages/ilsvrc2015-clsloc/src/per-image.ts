import { PER_IMAGE_SCHEMA, fingerprint, packArray, type ClsLocPerImage } from '@cvdevkit/metrics';
import type { ClsLocErrors } from './clsloc-error.js';
import type { GroundTruthBoxes } from './ground-truth.js';
import { MAX_GUESSES, type Blacklist, type GroundTruthLabels, type Predictions } from './inputs.js';

/**
 * Per-image statistics of `ilsvrc2015/clsloc` (`cvdevkit.per-image/1`, kind `clsloc`; see
 * `@cvdevkit/metrics` per-image.ts). The unit is a line of the ground-truth label file. What the
 * official error of a replicate needs beyond the per-column first guesses are replicate-wide values
 * the replicate recomputes from its own lines: the first line's label count (the `1:n(1)` quirk), the
 * widest label row (zero-padded columns count in the classification error), the widest prediction row
 * (where the zero padding starts) and the blacklist size (`N - length(blacklist)`).
 */
export function clslocPerImage(pred: Predictions, labels: GroundTruthLabels, boxes: GroundTruthBoxes | undefined, blacklist: Blacklist | undefined, result: ClsLocErrors): ClsLocPerImage {
  const N = labels.rows;
  const G = pred.guesses;
  const zeroGuess = new Uint8Array(N);
  for (let i = 0; i < N; i++) {
    let z = pred.slots[i];
    for (let g = 0; g < pred.slots[i]; g++) {
      if (pred.labels[i * G + g] === 0) {
        z = g;
        break;
      }
    }
    zeroGuess[i] = z;
  }
  const error = boxes ? 'locError' : 'clsError';
  const parts: (string | ArrayLike<number>)[] = ['ilsvrc2015/clsloc', labels.labels, labels.counts];
  let blacklisted: Uint32Array | undefined;
  let beyond = 0;
  if (boxes) {
    const end = boxes.offsets[N];
    parts.push(boxes.offsets.subarray(0, N + 1), boxes.labels.subarray(0, end), boxes.boxes.subarray(0, end * 4));
    blacklisted = new Uint32Array(N);
    for (const b of blacklist?.indices ?? []) {
      if (b <= N) blacklisted[b - 1]++;
      else beyond++;
    }
    parts.push(blacklisted, [beyond]);
  }
  return {
    schema: PER_IMAGE_SCHEMA,
    kind: 'clsloc',
    images: N,
    fingerprint: fingerprint(parts),
    summaryKey: error,
    summary: 'last',
    valueField: error,
    higherIsBetter: false,
    rowsAreClasses: false,
    classes: Array.from({ length: MAX_GUESSES }, (_, k) => String(k + 1)),
    error,
    width: labels.width,
    labelCount: packArray(Uint32Array.from(labels.counts)),
    slots: packArray(pred.slots),
    zeroGuess: packArray(zeroGuess),
    clsFirst: packArray(result.clsFirst!),
    ...(boxes ? { locFirst: packArray(result.locFirst!), blacklisted: packArray(blacklisted!), blacklistBeyond: beyond } : {}),
  };
}
