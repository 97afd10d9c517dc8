// `cvdevkit compare` renders through the formatters of `eval`: the same CSV and Markdown escaping.
import { compareReports } from '@cvdevkit/analysis';
import { createReport } from '@cvdevkit/core';
import { describe, expect, it } from 'vitest';
import { COMPARISON_FORMATS, FORMATTERS } from './index.js';

const report = (aps: number[]) =>
  createReport({ task: 'x/det', metric: 'ap', summary: { mAP: aps.reduce((s, v) => s + v, 0) / aps.length }, rows: aps.map((ap, i) => ({ key: i === 0 ? 'a,b' : `c${i}`, ap })) });
const result = compareReports([
  { name: 'x|y', file: 'a.json', report: report([0.9, 0.5, 0.7]) },
  { name: '"q" z', file: 'b.json', report: report([0.4, 0.6, 0.2]) },
]);
const render = (format: string) => FORMATTERS.get(format)!.renderComparison!(result);

describe('comparison formats', () => {
  it('compare offers every report format', () => {
    expect(COMPARISON_FORMATS).toEqual(['table', 'json', 'csv', 'markdown', 'html']);
  });
  it('CSV quotes like a report: commas and quotes in names and keys', async () => {
    const lines = (await render('csv')).split('\n');
    expect(lines[0]).toBe('class,method,value,rank,ci_low,ci_high,best,excluded');
    expect(lines[1]).toBe('"a,b",x|y,0.9,1,,,1,0');
    expect(lines[2]).toBe('"a,b","""q"" z",0.4,2,,,0,0');
  });
  it('Markdown escapes pipes like a report', async () => {
    const md = await render('markdown');
    expect(md).toMatch(/^## x\/det · ap · 2 methods/);
    expect(md).toContain('| class | x\\|y | "q" z | best | max | median |');
  });
  it('table and JSON', async () => {
    expect(await render('table')).toContain('mean rank');
    expect(JSON.parse(await render('json')).schema).toBe('cvdevkit.compare/1');
  });
});
