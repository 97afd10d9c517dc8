import { describe, expect, it } from 'vitest';
import { studentizedRangeCdf, studentizedRangeQuantile } from './studentized-range.js';

// analysis.md §1: q_α = Q(1 − α; k, ∞)/√2, check values for k = 2…10 (and 17 at α = 0.05).
const CHECK_005 = [1.959964, 2.343701, 2.569032, 2.727774, 2.849705, 2.94832, 3.030879, 3.10173, 3.163684];
const CHECK_010 = [1.644854, 2.052293, 2.291341, 2.459516, 2.588521, 2.692732, 2.779884, 2.854606, 2.919889];

describe('studentized range (df = ∞)', () => {
  it('reproduces the spec check values of q_α to 1e-6', () => {
    CHECK_005.forEach((q, i) => expect(Math.abs(studentizedRangeQuantile(0.95, i + 2) / Math.SQRT2 - q)).toBeLessThan(1e-6));
    CHECK_010.forEach((q, i) => expect(Math.abs(studentizedRangeQuantile(0.9, i + 2) / Math.SQRT2 - q)).toBeLessThan(1e-6));
    expect(Math.abs(studentizedRangeQuantile(0.95, 17) / Math.SQRT2 - 3.458425)).toBeLessThan(1e-6);
  });
  it('k = 2 is the range of two normals: P(|X − Y| ≤ q) = 2Φ(q/√2) − 1', () => {
    expect(studentizedRangeCdf(1.5, 2)).toBeCloseTo(0.7111556336535151, 12);
  });
  it('matches scipy studentized_range.cdf at a few points', () => {
    expect(studentizedRangeCdf(3, 5)).toBeCloseTo(SCIPY_CDF_3_5, 10);
    expect(studentizedRangeCdf(5.5, 30)).toBeCloseTo(SCIPY_CDF_55_30, 10);
  });
});
// scipy.stats.studentized_range.cdf(q, k, inf), scipy 1.17
const SCIPY_CDF_3_5 = 0.789123495036462;
const SCIPY_CDF_55_30 = 0.9694904441135093;
