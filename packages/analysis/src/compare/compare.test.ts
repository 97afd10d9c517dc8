import { describe, expect, it } from 'vitest';
import { createReport, isDevkitError, type Report } from '@cvdevkit/core';
import { compareReports } from './compare.js';
import { compareToJson, formatCompareCsv, formatCompareMarkdown, formatCompareText } from './format.js';
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
  it('renders every format', () => {
    expect(formatCompareText(r)).toContain('Not significantly different: {A, B, C}');
    expect(formatCompareMarkdown(r)).toContain('| class | A | B | C | best | max | median |');
    expect(formatCompareCsv(r).split('\n')[1]).toBe('c0,A,0.9,1,,,1,0');
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

describe('methodNames', () => {
  it('file names, or --names', () => {
    expect(methodNames(['x/a.json', 'b.json'])).toEqual(['a', 'b']);
    expect(methodNames(['x/a.json', 'y/a.json'])).toEqual(['a#1', 'a#2']);
    expect(methodNames(['a.json', 'b.json'], 'p, q')).toEqual(['p', 'q']);
    expect(() => methodNames(['a.json', 'b.json'], 'p')).toThrow(/2 reports/);
  });
});
