import type { CompareResult, Interval } from './compare.js';

/** Output of `cvdevkit compare`: text table, Markdown, CSV (one row per class and method) and JSON. */

const fmt = (v: number | null | undefined, digits = 4): string => (v === null || v === undefined || Number.isNaN(v) ? '—' : v.toFixed(digits));
/**
 * A p-value: 4 decimals, exponent form below 1e-4, and never a bare `0` (a p-value is never 0): one that
 * underflowed is `< 1e-16`, a bootstrap's that no replicate reached is `< 1/replicates` (`floor`).
 */
export const formatP = (p: number | null | undefined, floor = 1e-16): string =>
  p === null || p === undefined ? '—' : p === 0 ? `< ${floor < 1e-4 ? floor.toExponential(0) : String(Number(floor.toPrecision(3)))}` : p < 1e-4 ? p.toExponential(1) : p.toFixed(4);
const fmtP = (p: number | null | undefined): string => formatP(p);
const fmtCi = (ci: Interval | undefined, digits = 4): string => (ci ? `[${fmt(ci[0], digits)}, ${fmt(ci[1], digits)}]` : '—');

function grid(rows: string[][]): string {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => [...(r[c] ?? '')].length)));
  return rows.map((r) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ').trimEnd()).join('\n');
}

function classRows(r: CompareResult): string[][] {
  const head = [r.perClass ? 'class' : 'row', ...r.methods.map((m) => m.name), 'best', 'max', 'median'];
  const body = r.classes.map((c) => [
    c.excluded ? `${c.key} (excluded)` : c.key,
    ...c.values.map((v, j) => `${fmt(v)}${c.ranks[j] === null ? '' : ` (${c.ranks[j]})`}`),
    c.best.join(' = ') || '—',
    fmt(c.max),
    fmt(c.median),
  ]);
  const foot = [
    [r.summaryKey, ...r.methods.map((m) => fmt(m.summary)), '', '', ''],
    ...(r.perClass
      ? [
          ['mean rank', ...r.methods.map((m) => fmt(m.meanRank, 3)), '', '', ''],
          ['classes won', ...r.methods.map((m) => String(m.wins)), '', '', ''],
        ]
      : []),
  ];
  return [head, ...body, ...foot];
}

function testLines(r: CompareResult): string[] {
  const out: string[] = [];
  if (r.friedman) {
    const f = r.friedman;
    out.push(`Friedman χ²_F = ${fmt(f.chi2, 3)} (df ${f.k - 1}, p = ${fmtP(f.p)}); Iman–Davenport F_F = ${fmt(f.imanDavenportF, 3)} (df ${f.k - 1}, ${(f.k - 1) * (f.n - 1)}, p = ${fmtP(f.imanDavenportP)})`);
  } else if (r.perClass) out.push('Friedman: fewer than two classes with a value for every method; no test');
  out.push(...r.notes);
  if (r.posthoc) {
    const p = r.posthoc;
    const cd = p.cd === null ? '' : `, q_α = ${fmt(p.q, 4)}, CD = ${fmt(p.cd, 3)} (CD = q_α·sqrt(k(k+1)/(6N)))`;
    out.push(`Post-hoc ${p.method}${p.control ? ` against ${p.control}` : ''} at α = ${p.alpha}${cd}`);
    out.push(`Not significantly different: ${p.groups.length ? p.groups.map((g) => `{${g.join(', ')}}`).join(' ') : 'none (every pair differs)'}`);
  }
  return out;
}

function pairRows(r: CompareResult): string[][] {
  const boot = r.bootstrap !== null;
  const head = ['a', 'b', 'ΔR', 'significant', 'p (post-hoc)', `Δ${r.summaryKey}`, ...(boot ? [`${Math.round(r.bootstrap!.level * 100)}% CI`, 'p (bootstrap, Δ ≤ 0)'] : [])];
  const body = r.pairs.map((p) => [
    p.a,
    p.b,
    fmt(p.rankDifference, 3),
    p.significant === null ? 'not tested' : p.significant ? 'yes' : 'no',
    fmtP(p.posthocP),
    fmt(p.delta),
    ...(boot ? [fmtCi(p.deltaCi), formatP(p.p, 1 / r.bootstrap!.replicates)] : []),
  ]);
  return [head, ...body];
}

function bootRows(r: CompareResult): string[][] {
  return [['method', r.summaryKey, `${Math.round(r.bootstrap!.level * 100)}% CI`, 'rank CI'], ...r.methods.map((m) => [m.name, fmt(m.summary), fmtCi(m.ci), fmtCi(m.rankCi, 1)])];
}

function header(r: CompareResult): string {
  if (!r.perClass) return `${r.task} · ${r.metric} · ${r.k} methods · ${r.valueField} (${r.higherIsBetter ? 'higher' : 'lower'} is better), no per-class values`;
  return `${r.task} · ${r.metric} · ${r.k} methods · ${r.blocks} classes used${r.excluded.length ? ` (excluded, NaN for some method: ${r.excluded.join(', ')})` : ''}`;
}

const tiesLine = (r: CompareResult): string | null => (r.ties.length ? `Ties for best: ${r.ties.map((t) => `${t.key} (${t.methods.join(' = ')})`).join('; ')}` : null);
const bootstrapLine = (r: CompareResult): string | null => (r.bootstrap ? `Paired bootstrap over images: ${r.bootstrap.replicates} replicates, seed ${r.bootstrap.seed}` : null);

/** The text table of `cvdevkit compare` (the CLI's `table` format). */
export function formatCompareText(r: CompareResult): string {
  const parts = [header(r), '', grid(classRows(r)), '', ...testLines(r), '', grid(pairRows(r))];
  const ties = tiesLine(r);
  if (ties) parts.push('', ties);
  if (r.bootstrap) parts.push('', bootstrapLine(r)!, grid(bootRows(r)));
  return parts.join('\n') + '\n';
}

/** A machine-readable cell: a number, text, or nothing (null/undefined; NaN is kept as a number). */
export type CompareRecordValue = string | number | null | undefined;

/**
 * The comparison as records (the CLI's CSV): one row per (class, method), then one per method for the summary
 * (class `*<summaryKey>`), under `class,method,value,rank,ci_low,ci_high,best,excluded`. The CLI escapes the cells.
 */
export function compareRecords(r: CompareResult): { header: string[]; rows: CompareRecordValue[][] } {
  const rows: CompareRecordValue[][] = [];
  for (const c of r.classes) {
    r.methods.forEach((m, j) => {
      const ci = c.ci?.[j];
      rows.push([c.key, m.name, c.values[j], c.ranks[j], ci?.[0], ci?.[1], c.best.includes(m.name) ? 1 : 0, c.excluded ? 1 : 0]);
    });
  }
  for (const m of r.methods) rows.push([`*${r.summaryKey}`, m.name, m.summary, m.meanRank, m.ci?.[0], m.ci?.[1], '', '']);
  return { header: ['class', 'method', 'value', 'rank', 'ci_low', 'ci_high', 'best', 'excluded'], rows };
}

/** JSON (`cvdevkit.compare/1`); NaN and ±Infinity become null. */
export function compareToJson(r: CompareResult): string {
  return JSON.stringify(r, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v), 2) + '\n';
}

/** The tables and lines of the text output, for other renderers (the CLI's Markdown and HTML); the first row of each table is its header. */
export interface CompareTables {
  header: string;
  classes: string[][];
  tests: string[];
  pairs: string[][];
  /** `Ties for best: …`, or null. */
  ties: string | null;
  /** `Paired bootstrap over images: n replicates, seed s`, or null without a bootstrap. */
  bootstrapTitle: string | null;
  bootstrap: string[][] | null;
}

export function compareTables(r: CompareResult): CompareTables {
  return { header: header(r), classes: classRows(r), tests: testLines(r), pairs: pairRows(r), ties: tiesLine(r), bootstrapTitle: bootstrapLine(r), bootstrap: r.bootstrap ? bootRows(r) : null };
}
