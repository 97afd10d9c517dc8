import { normalCdf, normalQuantile } from './distributions.js';
import { maximalGroups } from './cd-groups.js';
import { studentizedRangeCdf, studentizedRangeQuantile } from './studentized-range.js';
import { holmAdjust, wilcoxonSignedRank } from './wilcoxon.js';

export const POSTHOC_METHODS = ['nemenyi', 'bonferroni-dunn', 'wilcoxon-holm'] as const;
export type PosthocMethod = (typeof POSTHOC_METHODS)[number];

export interface PairTest {
  a: number;
  b: number;
  /** R_a − R_b (negative: a ranks better). */
  rankDifference: number;
  /** Tested at all (Bonferroni–Dunn tests only the pairs with the control). */
  tested: boolean;
  significant: boolean;
  /** The pair's p-value (adjusted for the family: Nemenyi, Bonferroni, Holm); null when not tested. */
  p: number | null;
}

export interface PosthocResult {
  method: PosthocMethod;
  alpha: number;
  /** q_α of the CD formula (null for Wilcoxon–Holm, which has no CD). */
  q: number | null;
  cd: number | null;
  control: number | null;
  pairs: PairTest[];
  /** Maximal groups of methods not significantly different (indices, ≥ 2 each). */
  groups: number[][];
}

/** Nemenyi's q_α = Q(1 − α; k, ∞)/√2 (analysis.md §1). */
export function nemenyiQ(k: number, alpha: number): number {
  return studentizedRangeQuantile(1 - alpha, k) / Math.SQRT2;
}

/** Bonferroni–Dunn's q_α = z(1 − α/(2(k − 1))). */
export function bonferroniDunnQ(k: number, alpha: number): number {
  return normalQuantile(1 - alpha / (2 * (k - 1)));
}

/** `CD = q_α · sqrt(k(k+1)/(6N))`. */
export function criticalDifference(q: number, k: number, n: number): number {
  return q * Math.sqrt((k * (k + 1)) / (6 * n));
}

export interface PosthocInput {
  method: PosthocMethod;
  alpha: number;
  /** Blocks × methods values (for Wilcoxon). */
  table: readonly ArrayLike<number>[];
  meanRanks: ArrayLike<number>;
  /** Index of the control method (Bonferroni–Dunn only). */
  control?: number;
}

/** Runs the post-hoc test over all pairs (or against the control) and forms the CD groups. */
export function posthocTest(input: PosthocInput): PosthocResult {
  const { method, alpha, table, meanRanks } = input;
  const k = meanRanks.length;
  const n = table.length;
  const se = Math.sqrt((k * (k + 1)) / (6 * n));
  const pairs: PairTest[] = [];
  for (let a = 0; a < k; a++) for (let b = a + 1; b < k; b++) pairs.push({ a, b, rankDifference: meanRanks[a] - meanRanks[b], tested: true, significant: false, p: null });
  let q: number | null = null;
  let cd: number | null = null;
  let control: number | null = null;
  if (method === 'nemenyi') {
    q = nemenyiQ(k, alpha);
    cd = criticalDifference(q, k, n);
    for (const pr of pairs) {
      const d = Math.abs(pr.rankDifference);
      pr.significant = d >= cd;
      pr.p = 1 - studentizedRangeCdf((d / se) * Math.SQRT2, k);
    }
  } else if (method === 'bonferroni-dunn') {
    if (input.control === undefined) throw new RangeError('bonferroni-dunn needs a control method');
    control = input.control;
    q = bonferroniDunnQ(k, alpha);
    cd = criticalDifference(q, k, n);
    for (const pr of pairs) {
      if (pr.a !== control && pr.b !== control) {
        pr.tested = false;
        continue;
      }
      const d = Math.abs(pr.rankDifference);
      pr.significant = d >= cd;
      pr.p = Math.min(1, 2 * (1 - normalCdf(d / se)) * (k - 1));
    }
  } else {
    const raw = pairs.map((pr) => wilcoxonSignedRank(column(table, pr.a), column(table, pr.b)).p);
    const adjusted = holmAdjust(raw);
    pairs.forEach((pr, i) => {
      pr.p = adjusted[i];
      pr.significant = adjusted[i] <= alpha;
    });
  }
  const sig = new Map(pairs.map((pr) => [pr.a * k + pr.b, pr]));
  const pairOf = (a: number, b: number): PairTest => sig.get(Math.min(a, b) * k + Math.max(a, b))!;
  let groups: number[][];
  if (method === 'bonferroni-dunn') {
    const members = [control!, ...Array.from({ length: k }, (_, j) => j).filter((j) => j !== control && !pairOf(j, control!).significant)];
    members.sort((x, y) => meanRanks[x] - meanRanks[y] || x - y);
    groups = members.length >= 2 ? [members] : [];
  } else {
    groups = maximalGroups(k, (a, b) => !pairOf(a, b).significant, meanRanks);
  }
  return { method, alpha, q, cd, control, pairs, groups };
}

function column(table: readonly ArrayLike<number>[], j: number): Float64Array {
  return Float64Array.from(table, (row) => row[j]);
}
