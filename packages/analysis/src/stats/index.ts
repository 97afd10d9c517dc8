export { logGamma, gammaQ, betaInc, erfc } from './special.js';
export { normalCdf, normalPdf, normalQuantile, chiSquareSf, fSf } from './distributions.js';
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
export { SeededRandom, percentile, percentileInterval } from './bootstrap.js';
