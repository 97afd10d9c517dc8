/**
 * @cvdevkit/boundary: the BSDS boundary benchmark protocol (evaluate_bdry.m, collect_eval_bdry.m, correspondPixels,
 * bwmorph thin). The public API is the protocol's steps; the solver's parts are internal (see README.md, API).
 */
export { boundaryThresholds, thresholdCutoffs } from './thresholds.js';
export { thin } from './thin.js';
export {
  correspondPixels,
  DEFAULT_MAX_DIST,
  DEFAULT_OUTLIER_COST,
  DEFAULT_SEED,
  type CorrespondOptions,
} from './correspond/index.js';
export { evaluateBoundary, emptyCounts, isAllZero, type BoundaryCounts, type EvaluateBoundaryOptions } from './evaluate.js';
export { collectBoundaryScores, odsMaxF, type BoundaryScores } from './collect.js';
