/**
 * `correspondPixels` of the BSDS benchmark (cp_src: correspondPixels.cc + match.cc + kofn.cc + CSA),
 * with the random outlier graph reproduced draw for draw and an exact min-cost perfect assignment.
 * The options and their defaults live here; the solver is `CorrespondTarget` (target.ts; README.md in this folder).
 */
import { checkSize } from '../thin.js';
import { CorrespondTarget, type TargetOptions } from './target.js';

export interface CorrespondOptions {
  /** Match tolerance as a fraction of the image diagonal (default 0.0075). */
  maxDist?: number;
  /** Cost of leaving a pixel unmatched, as a multiple of the tolerance in pixels (default 100). */
  outlierCost?: number;
  /** erand48 seed, applied at the start of every call (default 12345). */
  seed?: number;
}

export const DEFAULT_MAX_DIST = 0.0075;
export const DEFAULT_OUTLIER_COST = 100;
/** The seed of the fixtures (the official MEX seeds from the clock; see README, "Determinism"). */
export const DEFAULT_SEED = 12345;

/** The options with their defaults filled in. */
export function resolveCorrespondOptions(options: CorrespondOptions = {}): TargetOptions {
  return {
    maxDist: options.maxDist ?? DEFAULT_MAX_DIST,
    outlierCost: options.outlierCost ?? DEFAULT_OUTLIER_COST,
    seed: options.seed ?? DEFAULT_SEED,
  };
}

/** Row-major indices of the nonzero pixels of `map` in MATLAB linear order (x outer, y inner). */
export function pixelsInMatlabOrder(map: Uint8Array, height: number, width: number): Int32Array {
  let count = 0;
  for (let k = 0; k < map.length; k++) if (map[k] !== 0) count++;
  const out = new Int32Array(count);
  let c = 0;
  for (let x = 0; x < width; x++) {
    for (let p = x; p < height * width; p += width) if (map[p] !== 0) out[c++] = p;
  }
  return out;
}

/**
 * correspondPixels(map1 = prediction, map2 = ground truth): `match1[p]` (row-major) is the 1-based
 * row-major index of the map2 pixel matched to map1 pixel p through a real edge (0 = unmatched), and
 * `match2` likewise. `matched` = number of matched pairs (= nnz(match1) = nnz(match2)); `cost` = Σ over
 * matched pixels of half their distance (once per map) + oc per unmatched pixel of either map.
 */
export function correspondPixels(
  map1: Uint8Array,
  map2: Uint8Array,
  height: number,
  width: number,
  options: CorrespondOptions = {},
): { match1: Int32Array; match2: Int32Array; matched: number; cost: number } {
  checkSize(map1.length, height, width, 'map1');
  const target = new CorrespondTarget(map2, height, width, resolveCorrespondOptions(options));
  const pixels1 = pixelsInMatlabOrder(map1, height, width);
  const pairs = new Int32Array(pixels1.length);
  const { matched, cost } = target.match(pixels1, pixels1.length, pairs);
  const match1 = new Int32Array(height * width);
  const match2 = new Int32Array(height * width);
  for (let k = 0; k < pixels1.length; k++) {
    const p2 = pairs[k];
    if (p2 < 0) continue;
    match1[pixels1[k]] = p2 + 1;
    match2[p2] = pixels1[k] + 1;
  }
  return { match1, match2, matched, cost };
}
