import { describe, expect, it } from 'vitest';
import { createReport, isDevkitError, type Report } from '@cvdevkit/core';
import { compareReports } from './compare.js';
import { compareRecords, compareTables, compareToJson, formatCompareText } from './format.js';
import { cdDiagramData } from './cd-diagram.js';
import { methodNames } from './inputs.js';

function report(aps: number[], task = 'voc2010/det', extra: Partial<{ metric: string; npos: number[]; keys: string[] }> = {}): Report {
  const keys = extra.keys ?? aps.map((_, i) => `c${i}`);
  const numeric = aps.filter((v) => !Number.isNaN(v));
  return createReport({
    task,
    metric: extra.metric ?? 'ap-voc2010',
    summary: { mAP: numeric.reduce((s, v) => s + v, 0) / numeric.length },
    rows: keys.map((key, i) => ({ key, ap: aps[i], npos: extra.npos?.[i] ?? 5 })),
  });
}

const input = (name: string, r: Report) => ({ name, file: `${name}.json`, report: r });

describe('compareReports', () => {
  const a = report([0.9, 0.8, 0.7, 0.6, NaN]);
  const b = report([0.5, 0.8, 0.6, 0.5, 0.2]);
  const c = report([0.1, 0.2, 0.3, 0.7, 0.1]);
  const r = compareReports([input('A', a), input('B', b), input('C', c)]);

  it('ranks per class with average ties, excludes NaN classes, counts wins with ties', () => {
    expect(r.k).toBe(3);
    expect(r.blocks).toBe(4);
    expect(r.excluded).toEqual(['c4']);
    expect(r.classes[1].ranks).toEqual([1.5, 1.5, 3]);
    expect(r.classes[1].best).toEqual(['A', 'B']);
    expect(r.ties).toEqual([{ key: 'c1', methods: ['A', 'B'] }]);
    // A: 1, 1.5, 1, 2 → 1.375; B: 2, 1.5, 2, 3 → 2.125; C: 3, 3, 3, 1 → 2.5
    expect(r.methods.map((m) => m.meanRank)).toEqual([1.375, 2.125, 2.5]);
    expect(r.methods.map((m) => m.wins)).toEqual([3, 2, 1]); // c4: B (A has no value)
    expect(r.classes[0].median).toBe(0.5);
    expect(r.classes[4].values[0]).toBeNull();
  });
  it('Friedman, Nemenyi CD and groups are filled in; pairs are oriented best first', () => {
    expect(r.friedman!.n).toBe(4);
    expect(r.posthoc!.cd).toBeCloseTo(2.343701 * Math.sqrt(12 / 24), 6);
    expect(r.posthoc!.groups).toEqual([['A', 'B', 'C']]);
    const ab = r.pairs.find((p) => p.a === 'A' && p.b === 'B')!;
    expect(ab.rankDifference).toBe(-0.75);
    expect(ab.significant).toBe(false);
    expect(ab.p).toBeNull();
  });
  it('renders every format (the CLI escapes the tables and records for Markdown and CSV)', () => {
    expect(formatCompareText(r)).toContain('Not significantly different: {A, B, C}');
    expect(compareTables(r).classes[0]).toEqual(['class', 'A', 'B', 'C', 'best', 'max', 'median']);
    expect(compareRecords(r).rows[0]).toEqual(['c0', 'A', 0.9, 1, undefined, undefined, 1, 0]);
    expect(cdDiagramData(r)).toMatchObject({ methods: [{ name: 'A', rank: 1.375 }, { name: 'B' }, { name: 'C' }], groups: [['A', 'B', 'C']], cd: r.posthoc!.cd });
    const json = JSON.parse(compareToJson(r));
    expect(json.schema).toBe('cvdevkit.compare/1');
    expect(Object.keys(json)).toEqual(expect.arrayContaining(['k', 'blocks', 'excluded', 'methods', 'friedman', 'posthoc', 'pairs']));
    expect(json.methods[0]).toMatchObject({ name: 'A', meanRank: 1.375 });
  });
  it('refuses reports of different tasks, metrics, classes or ground truth', () => {
    const refuse = (other: Report, field: string) => {
      try {
        compareReports([input('A', a), input('X', other)]);
        expect.unreachable();
      } catch (e) {
        expect(isDevkitError(e) && e.kind === 'input').toBe(true);
        expect((e as { problems: { field?: string; file?: string }[] }).problems[0]).toMatchObject({ field, file: 'X.json' });
      }
    };
    refuse(report([0.1, 0.2, 0.3, 0.4, 0.5], 'voc2010/cls'), 'task');
    refuse(report([0.1, 0.2, 0.3, 0.4, 0.5], 'voc2010/det', { metric: 'ap-voc2007' }), 'metric');
    refuse(report([0.1, 0.2, 0.3, 0.4, 0.5], 'voc2010/det', { keys: ['c0', 'c1', 'c2', 'c3', 'zz'] }), 'rows');
    refuse(report([0.1, 0.2, 0.3, 0.4, 0.5], 'voc2010/det', { npos: [5, 5, 5, 5, 6] }), 'ground truth');
  });
  it('bonferroni-dunn needs a known control; bootstrap needs per-image statistics (usage errors)', () => {
    expect(() => compareReports([input('A', a), input('B', b)], { posthoc: 'bonferroni-dunn' })).toThrow(/--control/);
    expect(() => compareReports([input('A', a), input('B', b)], { posthoc: 'bonferroni-dunn', control: 'Z' })).toThrow(/not one of the methods/);
    expect(() => compareReports([input('A', a), input('B', b)], { bootstrap: 10 })).toThrow(/--per-image/);
  });
});

/** A CLS-LOC report: rows 1..5 guesses, errors (lower is better). */
function clslocReport(loc: number[], cls: number[]): Report {
  return createReport({
    dataset: 'ilsvrc2015',
    task: 'ilsvrc2015/clsloc',
    metric: 'ilsvrc-clsloc-error',
    summary: { clsError: cls[4], locError: loc[4] },
    rows: loc.map((v, k) => ({ key: String(k + 1), clsError: cls[k], locError: v })),
  });
}

describe('compareReports on an error metric without per-class values (CLS-LOC)', () => {
  const worse = clslocReport([0.7, 0.6, 0.5, 0.5, 0.5], [0.5, 0.45, 0.42, 0.42, 0.42]);
  const better = clslocReport([0.7, 0.4, 0.3, 0.3, 0.3], [0.4, 0.25, 0.17, 0.17, 0.17]);
  const r = compareReports([input('worse', worse), input('better', better)]);

  it('orders by the 5-guess localisation error, lower is better; no ranks, Friedman or post-hoc, with a note', () => {
    expect(r.valueField).toBe('locError');
    expect(r.summaryKey).toBe('locError');
    expect(r.higherIsBetter).toBe(false);
    expect(r.perClass).toBe(false);
    expect(r.blocks).toBe(0);
    expect(r.excluded).toEqual([]);
    expect(r.friedman).toBeNull();
    expect(r.posthoc).toBeNull();
    expect(r.methods.map((m) => m.wins)).toEqual([0, 0]);
    expect(r.classes[1].best).toEqual(['better']);
    expect(r.classes.every((c) => !c.excluded && c.ranks.every((x) => x === null))).toBe(true);
    expect(r.pairs).toHaveLength(1);
    expect(r.pairs[0]).toMatchObject({ a: 'better', b: 'worse', significant: null, deltaCi: null, p: null });
    expect(r.pairs[0].delta).toBeCloseTo(-0.2, 15);
    expect(r.notes[0]).toMatch(/no per-class values.*no per-class ranks, Friedman test or post-hoc/);
    const text = formatCompareText(r);
    expect(text).toContain('lower is better');
    expect(text).not.toContain('classes won');
    expect(text).not.toContain('(excluded)');
    const json = JSON.parse(compareToJson(r));
    expect(Object.keys(json.pairs[0])).toEqual(expect.arrayContaining(['a', 'b', 'rankDifference', 'significant', 'delta', 'deltaCi', 'p']));
  });
  it('falls back to the classification error without ground-truth boxes, and refuses a mix', () => {
    const noBoxes = (cls: number[]) => clslocReport([null, null, null, null, null] as unknown as number[], cls);
    const c = compareReports([input('x', noBoxes([0.5, 0.4, 0.3, 0.3, 0.3])), input('y', noBoxes([0.5, 0.4, 0.35, 0.3, 0.2]))]);
    expect(c.valueField).toBe('clsError');
    expect(c.pairs[0].a).toBe('y');
    expect(() => compareReports([input('x', noBoxes([0.5, 0.4, 0.3, 0.3, 0.3])), input('better', better)])).toThrow();
  });
});

describe('methodNames', () => {
  it('file names, or --names', () => {
    expect(methodNames(['x/a.json', 'b.json'])).toEqual(['a', 'b']);
    expect(methodNames(['x/a.json', 'y/a.json'])).toEqual(['a#1', 'a#2']);
    expect(methodNames(['a.json', 'b.json'], 'p, q')).toEqual(['p', 'q']);
    expect(() => methodNames(['a.json', 'b.json'], 'p')).toThrow(/2 reports/);
  });
});
