import { chiSquareSf, fSf } from './distributions.js';

export interface FriedmanResult {
  /** Methods. */
  k: number;
  /** Blocks (classes). */
  n: number;
  chi2: number;
  p: number;
  imanDavenportF: number;
  imanDavenportP: number;
}

/**
 * Friedman's test on mean ranks (analysis.md §1, Demšar 2006 §3.2.2):
 * `χ²_F = 12N/(k(k+1)) · [Σ R_j² − k(k+1)²/4]` with k − 1 degrees of freedom, and Iman–Davenport's
 * `F_F = (N−1)χ²_F / (N(k−1) − χ²_F)` with (k−1, (k−1)(N−1)) degrees of freedom.
 * When every block ranks all methods alike, χ²_F = N(k−1) and F_F is +∞ (p = 0).
 */
export function friedmanTest(meanRanks: ArrayLike<number>, n: number): FriedmanResult {
  const k = meanRanks.length;
  let sumSq = 0;
  for (let j = 0; j < k; j++) sumSq += meanRanks[j] * meanRanks[j];
  const chi2 = ((12 * n) / (k * (k + 1))) * (sumSq - (k * (k + 1) * (k + 1)) / 4);
  const denominator = n * (k - 1) - chi2;
  const f = denominator <= 0 ? Infinity : ((n - 1) * chi2) / denominator;
  return {
    k,
    n,
    chi2,
    p: chiSquareSf(chi2, k - 1),
    imanDavenportF: f,
    imanDavenportP: fSf(f, k - 1, (k - 1) * (n - 1)),
  };
}
