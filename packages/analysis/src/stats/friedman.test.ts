import { describe, expect, it } from 'vitest';
import { friedmanTest } from './friedman.js';
import { averageRanks, rankTable } from './ranks.js';

/**
 * Demšar (JMLR 7, 2006), Table 6: AUC of C4.5, C4.5+m, C4.5+cf, C4.5+m+cf on 14 data sets. The table
 * prints values rounded to 3 decimals; its ranks (3.143, 2.000, 2.893, 1.964) come from the unrounded
 * values, in which C4.5+cf beats C4.5+m+cf on the 13th data set (0.975 vs 0.975 printed): hence 0.97501.
 */
const DEMSAR_TABLE_6 = [
  [0.763, 0.768, 0.771, 0.798],
  [0.599, 0.591, 0.59, 0.569],
  [0.954, 0.971, 0.968, 0.967],
  [0.628, 0.661, 0.654, 0.657],
  [0.882, 0.888, 0.886, 0.898],
  [0.936, 0.931, 0.916, 0.931],
  [0.661, 0.668, 0.609, 0.685],
  [0.583, 0.583, 0.563, 0.625],
  [0.775, 0.838, 0.866, 0.875],
  [1, 1, 1, 1],
  [0.94, 0.962, 0.965, 0.962],
  [0.619, 0.666, 0.614, 0.669],
  [0.972, 0.981, 0.97501, 0.975],
  [0.957, 0.978, 0.946, 0.97],
];

describe('average ranks', () => {
  it('ranks 1 = best with average ties', () => {
    expect(Array.from(averageRanks([0.9, 0.22, 0.34, 0.64, 0.64]))).toEqual([1, 5, 4, 2.5, 2.5]);
    expect(Array.from(averageRanks([1, 1, 1, 1]))).toEqual([2.5, 2.5, 2.5, 2.5]);
    expect(Array.from(averageRanks([0.1, 0.3, 0.2], false))).toEqual([1, 3, 2]);
  });
});

describe('Friedman and Iman–Davenport', () => {
  it("reproduces Demšar's worked example (§3.2.4: χ²_F = 9.28, F_F = 3.69)", () => {
    const { meanRanks } = rankTable(DEMSAR_TABLE_6);
    expect(Array.from(meanRanks, (r) => Number(r.toFixed(3)))).toEqual([3.143, 2, 2.893, 1.964]);
    const f = friedmanTest(meanRanks, 14);
    expect(f.chi2.toFixed(2)).toBe('9.28');
    expect(f.imanDavenportF.toFixed(2)).toBe('3.69');
    // scipy 1.17: chi2.sf(9.278571…, 3), f.sf(3.686313…, 3, 39)
    expect(f.p).toBeCloseTo(0.025807496707063185, 12);
    expect(f.imanDavenportP).toBeCloseTo(0.019823006192249054, 12);
  });
  it('hand-computed: 3 methods, 4 blocks, same order everywhere', () => {
    // ranks (1,2,3) in every block: R = (1,2,3); χ² = 12·4/(3·4)·(14 − 12) = 8; F = 3·8/(4·2 − 8) = ∞
    const f = friedmanTest([1, 2, 3], 4);
    expect(f.chi2).toBe(8);
    expect(f.imanDavenportF).toBe(Infinity);
    expect(f.imanDavenportP).toBe(0);
  });
  it('hand-computed: 2 methods, 3 blocks, 2:1 split', () => {
    // R = (4/3, 5/3): χ² = 12·3/(2·3)·(16/9 + 25/9 − 4.5) = 6·(41/9 − 4.5) = 1/3; F = 2·(1/3)/(3 − 1/3) = 0.25
    const { meanRanks } = rankTable([
      [0.9, 0.1],
      [0.8, 0.2],
      [0.3, 0.7],
    ]);
    const f = friedmanTest(meanRanks, 3);
    expect(f.chi2).toBeCloseTo(1 / 3, 14);
    expect(f.imanDavenportF).toBeCloseTo(0.25, 14);
  });
  it('all ties: χ² = 0, p = 1', () => {
    const f = friedmanTest([2, 2, 2], 5);
    expect(f.chi2).toBe(0);
    expect(f.p).toBe(1);
    expect(f.imanDavenportP).toBe(1);
  });
});
