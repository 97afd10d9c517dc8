export { boundaryThresholds, thresholdCutoffs, matlabLinspace, matlabColon } from './thresholds.js';
export { thin, Thinner, LUT_THIN1, LUT_THIN2 } from './thin.js';
export { Erand48, kOfN } from './random.js';
export { solveAssignment, type SparseGraph, type Assignment } from './assignment.js';
export {
  correspondPixels,
  CorrespondTarget,
  pixelsInMatlabOrder,
  rint,
  DEFAULT_MAX_DIST,
  DEFAULT_OUTLIER_COST,
  DEFAULT_SEED,
  type CorrespondOptions,
} from './correspond.js';
export { evaluateBoundary, emptyCounts, type BoundaryCounts, type EvaluateBoundaryOptions } from './evaluate.js';
export { collectBoundaryScores, fmeasure, maxF, averagePrecision, interp1Linear, type BoundaryScores } from './collect.js';
