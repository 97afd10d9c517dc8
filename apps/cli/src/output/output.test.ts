import { createReport } from '@cvdevkit/core';
import { describe, expect, it } from 'vitest';
import { FORMATTERS, formatForFile, renderReports } from './index.js';
import { formatNumber } from './text.js';

const renderReport = (r: typeof report, format: string) => renderReports([r], format);

const report = createReport({
  task: 'x/det',
  metric: 'ap',
  summary: { mAP: 0.123456789, other: NaN },
  rows: [
    { key: 'a,b', ap: 0.5, npos: 3 },
    { key: 'c', ap: NaN, name: 'x|y' },
  ],
  curves: [{ key: 'a,b', recall: [0.1], precision: [1] }],
});

describe('renderReport', () => {
  it('formats numbers to 6 significant digits for people', () => {
    expect(formatNumber(0.123456789)).toBe('0.123457');
    expect(formatNumber(12)).toBe('12');
    expect(formatNumber(NaN)).toBe('NaN');
    expect(formatNumber(1e-9)).toBe('1e-9');
  });

  it('table: union of row fields, missing as -, summary, no curves', () => {
    const t = renderReport(report, 'table');
    expect(t).toContain('x/det (metric ap)');
    expect(t).toMatch(/^key\s+ap\s+npos\s+name$/m);
    expect(t).toMatch(/^c\s+NaN\s+-\s+x\|y$/m);
    expect(t).toMatch(/^mAP\s+0\.123457$/m);
    expect(t).not.toContain('recall');
  });

  it('json: exactly reportToJson (NaN → null)', () => {
    const j = JSON.parse(renderReport(report, 'json'));
    expect(j.summary).toEqual({ mAP: 0.123456789, other: null });
    expect(j.rows[1].ap).toBeNull();
  });

  it('csv: quoted fields, full precision, summary section', () => {
    expect(renderReport(report, 'csv')).toBe('key,ap,npos,name\n"a,b",0.5,3,\nc,NaN,,x|y\n\nsummary,value\nmAP,0.123456789\nother,NaN\n');
  });

  it('markdown: escaped pipes, right-aligned numbers', () => {
    const m = renderReport(report, 'markdown');
    expect(m).toContain('| key | ap | npos | name |\n|---|---:|---:|---|');
    expect(m).toContain('| c | NaN | - | x\\|y |');
    expect(m).toContain('| mAP | 0.123457 |');
  });

  it('several reports: a JSON array', () => {
    expect(JSON.parse(renderReports([report, report], 'json'))).toHaveLength(2);
  });

  it('--out extensions select a format; each formatter is in the map under its name', () => {
    expect(formatForFile('/x/report.JSON')).toBe('json');
    expect(formatForFile('r.csv')).toBe('csv');
    expect(formatForFile('r.md')).toBe('markdown');
    expect(formatForFile('r.unknown')).toBeUndefined();
    for (const [name, f] of FORMATTERS) expect(f.name).toBe(name);
  });
});
