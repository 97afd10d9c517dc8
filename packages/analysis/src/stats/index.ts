/**
 * `@cvdevkit/analysis/stats`: the statistics behind `cvdevkit compare` (analysis.md §1–§2) for callers that
 * run them on their own tables: ranks, the Friedman test, the post-hoc tests and critical difference, the
 * Wilcoxon signed-rank test with Holm's adjustment, the distributions they need, and the bootstrap's seeded
 * random numbers and percentile intervals. The special functions under them are internal.
 */
export { normalCdf, normalQuantile, chiSquareSf, fSf } from './distributions.js';
export { studentizedRangeCdf, studentizedRangeQuantile } from './studentized-range.js';
export { averageRanks, rankTable } from './ranks.js';
export { friedmanTest, type FriedmanResult } from './friedman.js';
export { wilcoxonSignedRank, holmAdjust, type WilcoxonResult } from './wilcoxon.js';
export { maximalGroups } from './cd-groups.js';
export {
  posthocTest,
  nemenyiQ,
  bonferroniDunnQ,
  criticalDifference,
  POSTHOC_METHODS,
  type PosthocMethod,
  type PosthocResult,
  type PairTest,
  type PosthocInput,
} from './posthoc.js';
export { SeededRandom, percentileInterval } from './bootstrap.js';
