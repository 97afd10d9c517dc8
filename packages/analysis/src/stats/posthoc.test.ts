import { describe, expect, it } from 'vitest';
import { maximalGroups } from './cd-groups.js';
import { bonferroniDunnQ, criticalDifference, nemenyiQ, posthocTest } from './posthoc.js';
import { holmAdjust, wilcoxonSignedRank } from './wilcoxon.js';

describe('critical differences', () => {
  it('the VOC paper setting (k = 17, N = 20, α = 0.05): Nemenyi 5.52, Bonferroni–Dunn 4.72 (analysis.md §1)', () => {
    expect(criticalDifference(nemenyiQ(17, 0.05), 17, 20).toFixed(2)).toBe('5.52');
    expect(criticalDifference(bonferroniDunnQ(17, 0.05), 17, 20).toFixed(2)).toBe('4.72');
  });
  it("Demšar §3.2.4: k = 4, N = 14, CD = 1.25 (Nemenyi, α = 0.05)", () => {
    expect(criticalDifference(nemenyiQ(4, 0.05), 4, 14).toFixed(2)).toBe('1.25');
  });
});

describe('CD groups', () => {
  const cdGroups = (ranks: number[], cd: number): number[][] => maximalGroups(ranks.length, (a, b) => Math.abs(ranks[a] - ranks[b]) < cd, ranks);
  it('a ladder of overlapping groups', () => {
    // ranks 1, 1.5, 2.2, 3, 4.5, CD 1.3: {0,1,2}, {1,2}⊂, {2,3}, {4}
    expect(cdGroups([1, 1.5, 2.2, 3, 4.5], 1.3)).toEqual([
      [0, 1, 2],
      [2, 3],
    ]);
  });
  it('one group when everything is within CD; none when all are apart', () => {
    expect(cdGroups([2, 1, 3], 5)).toEqual([[1, 0, 2]]);
    expect(cdGroups([1, 2, 3], 0.5)).toEqual([]);
  });
  it('a difference of exactly CD is significant (Demšar: "at least the critical difference")', () => {
    expect(cdGroups([1, 2, 3], 1)).toEqual([]);
  });
  it('non-interval cliques (Wilcoxon–Holm) are found too', () => {
    // 0–1, 1–2, 0–2 not different, 3 only with 0
    const edges = new Set(['0,1', '1,2', '0,2', '0,3']);
    expect(maximalGroups(4, (a, b) => edges.has(`${a},${b}`), [1, 2, 3, 4])).toEqual([
      [0, 1, 2],
      [0, 3],
    ]);
  });
  it('Nemenyi on a constructed table: the best and worst separate', () => {
    // 3 methods, 10 blocks, always ranked 1,2,3: CD = 2.343701·sqrt(12/60) = 1.048
    const table = Array.from({ length: 10 }, () => [0.9, 0.5, 0.1]);
    const r = posthocTest({ method: 'nemenyi', alpha: 0.05, table, meanRanks: [1, 2, 3] });
    expect(r.cd).toBeCloseTo(2.343701 * Math.sqrt(0.2), 6);
    expect(r.groups).toEqual([
      [0, 1],
      [1, 2],
    ]);
    expect(r.pairs.filter((p) => p.significant).map((p) => [p.a, p.b])).toEqual([[0, 2]]);
  });
  it('Bonferroni–Dunn: one group around the control', () => {
    const table = Array.from({ length: 10 }, () => [0.9, 0.5, 0.1]);
    const r = posthocTest({ method: 'bonferroni-dunn', alpha: 0.05, table, meanRanks: [1, 2, 3], control: 1 });
    expect(r.pairs.find((p) => p.a === 0 && p.b === 2)!.tested).toBe(false);
    expect(r.groups).toEqual([[0, 1, 2]]);
  });
});

describe('Wilcoxon signed-rank and Holm', () => {
  // scipy 1.17 stats.wilcoxon(a, b) (default: exact without ties for n ≤ 50, else normal approx.)
  it('exact distribution without ties', () => {
    const r = wilcoxonSignedRank([1.1, 2.3, 3.0, 4.7, 5.5, 6.2, 7.9, 8.4], [0.9, 2.0, 3.4, 4.0, 5.6, 5.0, 7.0, 7.0]);
    expect(r.method).toBe('exact');
    expect(r.statistic).toBe(5);
    expect(r.p).toBeCloseTo(0.078125, 14);
  });
  it('normal approximation with ties and zeros dropped', () => {
    const c0 = [0.763, 0.599, 0.954, 0.628, 0.882, 0.936, 0.661, 0.583, 0.775, 1, 0.94, 0.619, 0.972, 0.957];
    const c1 = [0.768, 0.591, 0.971, 0.661, 0.888, 0.931, 0.668, 0.583, 0.838, 1, 0.962, 0.666, 0.981, 0.978];
    const r = wilcoxonSignedRank(c0, c1);
    expect(r.statistic).toBe(6.5);
    expect(r.p).toBeCloseTo(0.01075713311978963, 12);
  });
  it('Holm step-down', () => {
    expect(holmAdjust([0.01, 0.04, 0.03, 0.2])).toEqual([0.04, 0.09, 0.09, 0.2]);
  });
});
