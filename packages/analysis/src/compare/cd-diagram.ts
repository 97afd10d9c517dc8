import type { CompareResult } from './compare.js';

/**
 * What the critical-difference diagram draws (Demšar 2006, Fig. 1): the methods' mean ranks, the
 * critical difference and the groups of methods the post-hoc test does not tell apart. report-html draws it
 * (`criticalDifferenceChart`), like every other chart.
 */
export interface CdDiagramData {
  title: string;
  subtitle?: string;
  methods: { name: string; rank: number }[];
  /** In rank units; null when the post-hoc test has none (Wilcoxon–Holm) or did not run. */
  cd: number | null;
  groups: string[][];
}

const POSTHOC_NAMES: Record<string, string> = { nemenyi: 'Nemenyi', 'bonferroni-dunn': 'Bonferroni–Dunn', 'wilcoxon-holm': 'Wilcoxon–Holm' };

/** The diagram's data of a comparison with per-class ranks (undefined without them: nothing to rank over). */
export function cdDiagramData(r: CompareResult): CdDiagramData | undefined {
  if (!r.perClass) return undefined;
  const p = r.posthoc;
  const test = p ? `${POSTHOC_NAMES[p.method] ?? p.method} test${p.control ? ` against ${p.control}` : ''} at α = ${p.alpha}` : undefined;
  return {
    title: `${r.task}: mean rank over ${r.blocks} classes (1 = best)`,
    ...(test ? { subtitle: `${test}: methods joined by a bar are not significantly different` } : {}),
    methods: r.methods.map((m) => ({ name: m.name, rank: m.meanRank })),
    cd: p?.cd ?? null,
    groups: (p?.groups ?? []).map((g) => [...g]),
  };
}
