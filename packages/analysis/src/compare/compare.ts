import { usageError, type Replicator } from '@cvdevkit/core';
import { median } from '@cvdevkit/metrics';
import { percentileInterval } from '../stats/bootstrap.js';
import { friedmanTest, type FriedmanResult } from '../stats/friedman.js';
import { POSTHOC_METHODS, posthocTest, type PosthocMethod } from '../stats/posthoc.js';
import { rankTable } from '../stats/ranks.js';
import { replayPerImage, validateReport } from './validate-report.js';
import { checkComparable, perImageOf, type CompareInput, type CompareSubject } from './inputs.js';
import { pairedBootstrap, type BootstrapDraws } from './paired-bootstrap.js';

export const COMPARE_SCHEMA = 'cvdevkit.compare/1';

export interface CompareOptions {
  posthoc?: PosthocMethod;
  alpha?: number;
  /** Control method name (Bonferroni–Dunn). */
  control?: string;
  /** Bootstrap replicates (0 = none). */
  bootstrap?: number;
  seed?: number;
  /**
   * One replicator per input, in input order: what the task's `replicate` hook made of the report's per-image
   * statistics (the CLI asks the registry's task). Needed with `bootstrap`; the bootstrap itself knows no metric.
   */
  replicators?: readonly (Replicator | undefined)[];
}

export type Interval = [number, number] | null;

export interface CompareMethod {
  name: string;
  file: string;
  summary: number | null;
  meanRank: number;
  /** Classes where this method has the highest value (ties count for each tied method). */
  wins: number;
  ci?: Interval;
  rankCi?: Interval;
}

export interface CompareClass {
  key: string;
  values: (number | null)[];
  /** Ranks within the class (null for an excluded class). */
  ranks: (number | null)[];
  best: string[];
  max: number | null;
  median: number | null;
  excluded: boolean;
  ci?: Interval[];
}

export interface ComparePair {
  a: string;
  b: string;
  rankDifference: number;
  significant: boolean | null;
  /** The post-hoc test's (adjusted) p-value. */
  posthocP: number | null;
  /** Official summary of a minus b. */
  delta: number | null;
  deltaCi: Interval;
  /** Bootstrap one-sided p: the fraction of replicates with Δ ≤ 0 (small: a is better). */
  p: number | null;
}

export interface CompareResult {
  schema: typeof COMPARE_SCHEMA;
  task: string;
  metric: string;
  valueField: string;
  summaryKey: string;
  higherIsBetter: boolean;
  k: number;
  /** The rows are classes (false for CLS-LOC, rows 1..5 guesses): without it there are no ranks, Friedman test or post-hoc. */
  perClass: boolean;
  blocks: number;
  excluded: string[];
  alpha: number;
  methods: CompareMethod[];
  classes: CompareClass[];
  friedman: FriedmanResult | null;
  posthoc: { method: PosthocMethod; alpha: number; q: number | null; cd: number | null; control: string | null; groups: string[][] } | null;
  pairs: ComparePair[];
  /** Classes won by several methods at once. */
  ties: { key: string; methods: string[] }[];
  bootstrap: { replicates: number; seed: number; level: number } | null;
  /** What was left out and why (e.g. no Friedman test for a task without per-class values). */
  notes: string[];
}

const num = (v: unknown): number => (typeof v === 'number' ? v : NaN);
const orNull = (v: number): number | null => (Number.isNaN(v) ? null : v);

/** The checked options: α, the post-hoc test and the index of the control method (Bonferroni–Dunn). */
function checkOptions(names: string[], options: CompareOptions): { alpha: number; method: PosthocMethod; control: number | undefined } {
  const alpha = options.alpha ?? 0.05;
  if (!(alpha > 0 && alpha < 1)) throw usageError(`--alpha must lie in (0, 1), got ${alpha}`, 'usage/alpha');
  const method = options.posthoc ?? 'nemenyi';
  if (!POSTHOC_METHODS.includes(method)) throw usageError(`unknown post-hoc test "${method}"`, 'usage/posthoc', `use ${POSTHOC_METHODS.join(', ')}`);
  let control: number | undefined;
  if (method === 'bonferroni-dunn') {
    if (options.control === undefined) throw usageError('--posthoc bonferroni-dunn needs --control <name>', 'usage/control-missing', `one of ${names.join(', ')}`);
    control = names.indexOf(options.control);
    if (control < 0) throw usageError(`--control ${options.control} is not one of the methods`, 'usage/control-unknown', `one of ${names.join(', ')}`);
  }
  return { alpha, method, control };
}

/** The note of a task whose rows are no classes (CLS-LOC: one error at 1..5 guesses). */
function noClassesNote(subject: CompareSubject, bootstrap: number | undefined): string {
  return (
    `${subject.task} reports no per-class values (its rows ${subject.classes.join(', ')} are one ${subject.valueField} at different cut-offs, not classes): ` +
    'no per-class ranks, Friedman test or post-hoc; the methods are ordered by the official summary' +
    (bootstrap ? ', with bootstrap intervals and paired differences' : ' (add --bootstrap for intervals and paired differences)')
  );
}

/** Per class: the values, ranks, winners, max and median; and per method its wins, plus the classes won by several. */
function classRows(
  subject: CompareSubject,
  names: string[],
  table: number[][],
  included: boolean[],
  ranks: Float64Array[],
): { classes: CompareClass[]; wins: number[]; ties: { key: string; methods: string[] }[] } {
  const sign = subject.higherIsBetter ? 1 : -1;
  const perClass = subject.rowsAreClasses;
  const wins = new Array<number>(names.length).fill(0);
  const ties: { key: string; methods: string[] }[] = [];
  let r = 0;
  const classes: CompareClass[] = subject.classes.map((key, c) => {
    const row = table[c];
    const numeric = row.filter((v) => !Number.isNaN(v));
    const best = numeric.length === 0 ? NaN : sign * Math.max(...numeric.map((v) => sign * v));
    const winners = numeric.length === 0 ? [] : row.map((v, j) => (v === best ? j : -1)).filter((j) => j >= 0);
    if (perClass) for (const j of winners) wins[j]++;
    if (perClass && winners.length > 1) ties.push({ key, methods: winners.map((j) => names[j]) });
    const classRanks = included[c] ? Array.from(ranks[r++]) : row.map(() => null);
    return {
      key,
      values: row.map(orNull),
      ranks: classRanks,
      best: winners.map((j) => names[j]),
      max: orNull(numeric.length ? Math.max(...numeric) : NaN),
      median: orNull(numeric.length ? median(numeric) : NaN),
      excluded: perClass && !included[c],
    };
  });
  return { classes, wins, ties };
}

/** The paired bootstrap over every input's per-image statistics (a usage error for a report without them). */
function bootstrapDraws(inputs: readonly CompareInput[], replicates: number, seed: number, higherIsBetter: boolean, replicators: CompareOptions['replicators']): BootstrapDraws {
  const subjects = inputs.map((inp, j) => {
    const stats = perImageOf(inp.report);
    if (!stats) throw usageError(`${inp.file} has no per-image statistics: evaluate with \`cvdevkit eval … --per-image --format json\` to bootstrap`, 'usage/no-per-image');
    const replicator = replicators?.[j];
    if (!replicator) throw usageError(`task ${inp.report.task} provides no replicator of its per-image statistics: it cannot be bootstrapped`, 'usage/no-per-image');
    return { stats, replicator };
  });
  return pairedBootstrap(subjects, replicates, seed, higherIsBetter);
}

/** The bootstrap interval of Δ = a − b (better minus worse) and the fraction of replicates with Δ ≤ 0. */
function bootstrapDelta(draws: BootstrapDraws, k: number, x: number, y: number, sign: number, higherIsBetter: boolean, alpha: number): { deltaCi: Interval; p: number | null } {
  const d = new Float64Array(draws.replicates);
  let le = 0;
  let valid = 0;
  for (let i = 0; i < draws.replicates; i++) {
    d[i] = sign * (draws.summary[i * k + x] - draws.summary[i * k + y]);
    if (!Number.isNaN(d[i])) {
      valid++;
      if (d[i] <= 0) le++;
    }
  }
  const ci = percentileInterval(d, alpha);
  return { deltaCi: ci && higherIsBetter ? ci : ci ? [-ci[1], -ci[0]] : null, p: valid === 0 ? null : le / valid };
}

/** Every pair of methods, the one with the better official summary first: rank difference, post-hoc result, Δ and its bootstrap. */
function comparePairs(
  names: string[],
  summaries: number[],
  meanRanks: ArrayLike<number>,
  ph: ReturnType<typeof posthocTest> | null,
  draws: BootstrapDraws | undefined,
  higherIsBetter: boolean,
  alpha: number,
): ComparePair[] {
  const k = names.length;
  const sign = higherIsBetter ? 1 : -1;
  const pairs: ComparePair[] = [];
  for (let a = 0; a < k; a++) {
    for (let b = a + 1; b < k; b++) {
      // a = the method with the better official summary (input order on ties or NaN)
      const swap = sign * summaries[b] > sign * summaries[a];
      const [x, y] = swap ? [b, a] : [a, b];
      const t = ph?.pairs.find((p) => p.a === Math.min(x, y) && p.b === Math.max(x, y));
      const pair: ComparePair = {
        a: names[x],
        b: names[y],
        rankDifference: meanRanks[x] - meanRanks[y],
        significant: t && t.tested ? t.significant : null,
        posthocP: t?.p ?? null,
        delta: orNull(summaries[x] - summaries[y]),
        deltaCi: null,
        p: null,
      };
      if (draws) {
        const { deltaCi, p } = bootstrapDelta(draws, k, x, y, sign, higherIsBetter, alpha);
        pair.deltaCi = deltaCi;
        pair.p = p;
      }
      pairs.push(pair);
    }
  }
  return pairs;
}

/** Everything `cvdevkit compare` reports (analysis.md §1–§2). */
export function compareReports(inputs: readonly CompareInput[], options: CompareOptions = {}): CompareResult {
  inputs.forEach((inp, j) => {
    validateReport(inp.report, inp.file);
    // stored numbers against the task's replay of the report's own per-image statistics
    const replicator = options.replicators?.[j];
    if (replicator && inp.report.extra?.perImage !== undefined) replayPerImage(inp.report, inp.file, replicator);
  });
  const subject = checkComparable(inputs);
  const names = inputs.map((i) => i.name);
  const { alpha, method, control } = checkOptions(names, options);
  const k = inputs.length;
  const table = subject.classes.map((key, c) => inputs.map((inp) => num(inp.report.rows[c][subject.valueField])));
  const perClass = subject.rowsAreClasses;
  const included = table.map((row) => perClass && row.every((v) => !Number.isNaN(v)));
  const blocksTable = table.filter((_, c) => included[c]);
  const excluded = perClass ? subject.classes.filter((_, c) => !included[c]) : [];
  const notes: string[] = perClass ? [] : [noClassesNote(subject, options.bootstrap)];
  const { ranks, meanRanks } = rankTable(blocksTable, subject.higherIsBetter);
  const n = blocksTable.length;
  const friedman = n >= 2 ? friedmanTest(meanRanks, n) : null;
  const ph = n >= 2 ? posthocTest({ method, alpha, table: blocksTable, meanRanks, control }) : null;
  const { classes, wins, ties } = classRows(subject, names, table, included, ranks);

  const summaries = inputs.map((inp) => num(inp.report.summary[subject.summaryKey]));
  const methods: CompareMethod[] = inputs.map((inp, j) => ({ name: inp.name, file: inp.file, summary: orNull(summaries[j]), meanRank: meanRanks[j] ?? NaN, wins: wins[j] }));

  let draws: BootstrapDraws | undefined;
  const replicates = options.bootstrap ?? 0;
  if (replicates > 0) {
    draws = bootstrapDraws(inputs, replicates, options.seed ?? 0, subject.higherIsBetter, options.replicators);
    attachIntervals(draws, methods, classes, alpha);
  }
  const pairs = comparePairs(names, summaries, meanRanks, ph, draws, subject.higherIsBetter, alpha);

  return {
    schema: COMPARE_SCHEMA,
    task: subject.task,
    metric: subject.metric,
    valueField: subject.valueField,
    summaryKey: subject.summaryKey,
    higherIsBetter: subject.higherIsBetter,
    k,
    perClass,
    blocks: n,
    excluded,
    alpha,
    methods,
    classes,
    friedman,
    posthoc: ph && {
      method: ph.method,
      alpha: ph.alpha,
      q: ph.q,
      cd: ph.cd,
      control: ph.control === null ? null : names[ph.control],
      groups: ph.groups.map((g) => g.map((j) => names[j])),
    },
    pairs,
    ties,
    bootstrap: draws ? { replicates: draws.replicates, seed: draws.seed, level: 1 - alpha } : null,
    notes,
  };
}

function attachIntervals(draws: BootstrapDraws, methods: CompareMethod[], classes: CompareClass[], alpha: number): void {
  const { k, replicates: B, classes: C } = draws;
  const column = new Float64Array(B);
  methods.forEach((m, j) => {
    for (let b = 0; b < B; b++) column[b] = draws.summary[b * k + j];
    m.ci = percentileInterval(column, alpha);
    for (let b = 0; b < B; b++) column[b] = draws.rank[b * k + j];
    m.rankCi = percentileInterval(column, alpha);
  });
  classes.forEach((cls, c) => {
    cls.ci = methods.map((_, j) => {
      for (let b = 0; b < B; b++) column[b] = draws.perClass[(b * k + j) * C + c];
      return percentileInterval(column, alpha);
    });
  });
}
