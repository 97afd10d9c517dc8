import { normalCdf } from './distributions.js';
import { averageRanks } from './ranks.js';

export interface WilcoxonResult {
  /** Pairs left after dropping zero differences. */
  n: number;
  /** Sum of the ranks of the positive differences (a − b > 0). */
  wPlus: number;
  /** min(W+, W−), the usual statistic. */
  statistic: number;
  /** Two-sided p-value. */
  p: number;
  /** 'exact' (no ties, n ≤ 50) or 'normal' (tie-corrected, no continuity correction). */
  method: 'exact' | 'normal';
}

/**
 * Wilcoxon signed-rank test of paired values `a[i]` vs `b[i]`, two-sided (as scipy's
 * `wilcoxon(a, b)` defaults: zero differences dropped, exact distribution for n ≤ 50 without ties,
 * else the normal approximation with the tie correction and no continuity correction).
 */
export function wilcoxonSignedRank(a: ArrayLike<number>, b: ArrayLike<number>): WilcoxonResult {
  const d: number[] = [];
  for (let i = 0; i < a.length; i++) {
    const x = a[i] - b[i];
    if (x !== 0) d.push(x);
  }
  const n = d.length;
  if (n === 0) return { n, wPlus: 0, statistic: 0, p: 1, method: 'exact' };
  const ranks = averageRanks(d.map(Math.abs), false);
  let wPlus = 0;
  for (let i = 0; i < n; i++) if (d[i] > 0) wPlus += ranks[i];
  const total = (n * (n + 1)) / 2;
  const statistic = Math.min(wPlus, total - wPlus);
  const tied = new Set(ranks).size !== n;
  if (!tied && n <= 50) return { n, wPlus, statistic, p: Math.min(1, 2 * exactLowerTail(statistic, n)), method: 'exact' };
  const mean = total / 2;
  let tieTerm = 0;
  const counts = new Map<number, number>();
  for (const r of ranks) counts.set(r, (counts.get(r) ?? 0) + 1);
  for (const t of counts.values()) tieTerm += t * t * t - t;
  const sd = Math.sqrt((n * (n + 1) * (2 * n + 1)) / 24 - tieTerm / 48);
  const z = sd === 0 ? 0 : (statistic - mean) / sd;
  return { n, wPlus, statistic, p: Math.min(1, 2 * normalCdf(z)), method: 'normal' };
}

/** P(W ≤ w) under H0 for n untied ranks 1..n: counts of the subsets with each rank sum, / 2^n. */
function exactLowerTail(w: number, n: number): number {
  const max = (n * (n + 1)) / 2;
  const counts = new Float64Array(max + 1);
  counts[0] = 1;
  for (let r = 1; r <= n; r++) for (let s = max; s >= r; s--) counts[s] += counts[s - r];
  let below = 0;
  for (let s = 0; s <= Math.floor(w); s++) below += counts[s];
  return below / 2 ** n;
}

/**
 * Holm's step-down adjustment: sorted ascending, `p_(i) · (m − i + 1)`, made non-decreasing, capped at 1.
 * A hypothesis is rejected at α when its adjusted p is ≤ α.
 */
export function holmAdjust(p: readonly number[]): number[] {
  const m = p.length;
  const order = p.map((_, i) => i).sort((x, y) => p[x] - p[y] || x - y);
  const out = new Array<number>(m);
  let running = 0;
  order.forEach((idx, i) => {
    running = Math.max(running, Math.min(1, p[idx] * (m - i)));
    out[idx] = running;
  });
  return out;
}
