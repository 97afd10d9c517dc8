import { createReport } from '@cvdevkit/core';
import { describe, expect, it } from 'vitest';
import { renderVegaLiteSvg } from '../render-chart.js';
import { ISO_LABEL_DX, noCurveNote } from './boundary.js';
import { buildReportCharts } from './index.js';

const thresholds = Array.from({ length: 99 }, (_, i) => (i + 1) / 100);
const zeros = thresholds.map(() => 0);
const zeroRow = { odsRecall: 0, odsPrecision: 0, odsF: 0, oisRecall: 0, oisPrecision: 0, oisF: 0, ap: 0 };
/**
 * Five classes: wall (a curve), sky (a curve, R = P = 0 everywhere: ground truth, nothing found), case (the
 * same point at every threshold), pool (an ODS point and no curve in the report), door (absent: no curve).
 */
const sparse = createReport({
  task: 'x/boundary',
  metric: 'ods',
  summary: { score: 0.3, odsF: 0.3, oisF: 0.31, ap: 0.2 },
  rows: [
    { key: 'c1', name: 'wall', odsRecall: 0.5, odsPrecision: 0.6, odsF: 0.545, oisRecall: 0.55, oisPrecision: 0.6, oisF: 0.57, ap: 0.4 },
    { key: 'c2', name: 'sky', ...zeroRow },
    { key: 'c3', name: 'case', odsRecall: 0.4, odsPrecision: 0.4, odsF: 0.4, oisRecall: 0.4, oisPrecision: 0.4, oisF: 0.4, ap: 0.1 },
    { key: 'c4', name: 'pool', odsRecall: 0.2, odsPrecision: 0.8, odsF: 0.32, ap: 0 },
    { key: 'c5', name: 'door', ...zeroRow },
  ],
  curves: [
    { key: 'c1', threshold: thresholds, recall: thresholds.map((t) => 1 - t), precision: thresholds.map((t) => 0.3 + 0.5 * t), f: thresholds },
    { key: 'c2', threshold: thresholds, recall: zeros, precision: zeros, f: zeros },
    { key: 'c3', threshold: thresholds, recall: thresholds.map((t) => (t < 0.5 ? 0.4 : 0)), precision: thresholds.map((t) => (t < 0.5 ? 0.4 : 0)), f: zeros },
  ],
});

type Values = Array<Record<string, unknown> & { kind: string }>;
const valuesOf = (spec: unknown) => (spec as { data: { values: Values } }).data.values;

describe('boundary charts', () => {
  it('the mean plot averages the classes with a curve, says so, and keeps the reported score', () => {
    const mean = buildReportCharts(sparse).find((c) => c.id === 'f-threshold-mean')!;
    const values = valuesOf(mean.spec);
    const ods = values.find((v) => v.kind === 'point' && String(v.what).startsWith('ODS'))!;
    // wall, sky and case have a curve: (0.5 + 0 + 0.4) / 3 and (0.6 + 0 + 0.4) / 3
    expect(ods.r).toBeCloseTo(0.3, 12);
    expect(ods.p).toBeCloseTo(1 / 3, 12);
    expect(values.find((v) => v.kind === 'curve')!.c).toBe('mean of the 3 classes with a curve');
    expect((mean.spec.title as { text: string; subtitle: string }).text).toBe('Precision–recall over thresholds: mean over the 3 classes present');
    expect((mean.spec.title as { subtitle: string }).subtitle).toContain('challenge score (mean F-ODS, 5 classes) 0.300');
    expect(mean.description).toContain('The other 2 classes have neither ground truth nor a predicted pixel');
    // the bold contour is the reported score
    for (const v of values.filter((d) => d.kind === 'score')) expect((2 * (v.r as number) * (v.p as number)) / ((v.r as number) + (v.p as number))).toBeCloseTo(0.3, 5);
  });

  it('the iso-F labels are outside the frame (right of it at R = 1), the score label above it: over no curve', () => {
    const spec = buildReportCharts(sparse).find((c) => c.id === 'f-threshold-mean')!.spec as { layer: Array<{ transform?: Array<{ filter: string }>; mark: Record<string, unknown> }> };
    const values = valuesOf(spec);
    const ends = values.filter((v) => v.kind === 'iso' && v.end === 1);
    expect(ends).toHaveLength(9);
    for (const e of ends) expect(e.r).toBe(1);
    const isoText = spec.layer.find((l) => l.mark.type === 'text' && l.transform?.[0].filter.includes("'iso'"))!;
    expect(isoText.mark).toMatchObject({ align: 'left', dx: ISO_LABEL_DX });
    expect(ISO_LABEL_DX).toBeGreaterThan(0);
    const start = values.find((v) => v.kind === 'score' && v.start === 1)!;
    expect(start.p).toBeCloseTo(1, 5);
    const scoreText = spec.layer.find((l) => l.mark.type === 'text' && l.transform?.[0].filter.includes("'score'"))!;
    expect(scoreText.mark).toMatchObject({ baseline: 'bottom' });
    expect(scoreText.mark.dy as number).toBeLessThan(0);
  });

  it('a panel with only a point draws the point and says why there is no line; the SVG shows it', async () => {
    const chart = buildReportCharts(sparse).find((c) => c.id === 'f-threshold-per-class')!;
    const values = valuesOf(chart.spec);
    const titles = values.filter((v) => v.kind === 'panel').map((v) => v.title);
    expect(titles).toEqual(['wall · F-ODS 0.545', 'case · F-ODS 0.400', 'pool · F-ODS 0.320']);
    for (const n of [1, 2]) {
      expect(values.filter((v) => v.kind === 'point' && v.n === n && String(v.what).startsWith('ODS'))).toHaveLength(1);
    }
    expect(values.filter((v) => v.kind === 'note').map((v) => [v.n, v.text])).toEqual([
      [1, 'one point at all thresholds'],
      [2, 'no curve in the report'],
    ]);
    expect(chart.description).toContain('2 panels show their points without a line');
    const warnings: string[] = [];
    const svg = await renderVegaLiteSvg(chart.spec, { onWarning: (m) => warnings.push(m) });
    expect(warnings).toEqual([]);
    expect(svg).toContain('one point at all thresholds');
    expect(svg).toContain('no curve in the report');
  });

  it('noCurveNote: none for a line of two points', () => {
    expect(noCurveNote({ points: [[0.1, 0.2], [0.3, 0.4]], curve: undefined })).toBeUndefined();
    expect(noCurveNote({ points: [[0.1, 0.2], [0.1, 0.2]], curve: undefined })).toBe('one point at all thresholds');
  });
});
