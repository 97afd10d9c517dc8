import { describe, expect, it } from 'vitest';
import { createReport } from '@cvdevkit/core';
import { precisionRecallCharts } from './precision-recall.js';

describe('sorted charts', () => {
  it('break AP ties in the bars by name', () => {
    const report = createReport({ task: 'x/det', metric: 'ap', rows: ['cow', 'bird', 'ant'].map((key) => ({ key, ap: key === 'ant' ? 0.1 : 0.5 })) });
    const bars = precisionRecallCharts(report).find((c) => c.id === 'ap-per-class')!;
    const values = ((bars.spec.layer as Array<{ data: { values: Array<{ name: string }> } }>)[0].data.values).map((v) => v.name);
    expect(values).toEqual(['bird', 'cow', 'ant']);
  });
});

describe('declared sets of PR curves', () => {
  const report = createReport({
    task: 'x/det',
    metric: 'ap',
    rows: [
      { key: 'a', AP: 0.2, AP50: 0.9 },
      { key: 'b', AP: 0.4, AP50: 0.5 },
      { key: 'c', AP: -1, AP50: -1 },
    ],
    curves: [
      { key: 'a', recall: [0, 1], precision: [1, 0.8], precisionMean: [0.3, 0.1] },
      { key: 'b', recall: [0, 1], precision: [1, 0.4], precisionMean: [0.5, 0.3] },
    ],
  });

  it('draw the named curve field, named by the named AP field, under ids and titles of their label; bars: false leaves the bars out', () => {
    const mean = precisionRecallCharts(report, { kind: 'pr-curves', curve: 'precisionMean', ap: 'AP', label: 'IoU 0.5:0.95' });
    expect(mean.map((c) => c.id)).toEqual(['pr-curves-iou-0-5-0-95', 'pr-curves-per-class-iou-0-5-0-95', 'ap-per-class-iou-0-5-0-95']);
    expect(mean[0].title).toContain('IoU 0.5:0.95');
    const points = (mean[0].spec.data as { values: Array<{ c: string; p: number }> }).values;
    expect(points.filter((v) => v.c.startsWith('a ')).map((v) => v.p)).toEqual([0.3, 0.1]);
    // a −1 ("no value") is no bar
    const bars = (mean[2].spec.layer as Array<{ data: { values: Array<{ name: string }> } }>)[0].data.values.map((v) => v.name);
    expect(bars).toEqual(['b', 'a']);
    const at50 = precisionRecallCharts(report, { kind: 'pr-curves', ap: 'AP50', label: 'IoU 0.5', bars: false });
    expect(at50.map((c) => c.id)).toEqual(['pr-curves-iou-0-5', 'pr-curves-per-class-iou-0-5']);
    // legend best first by the named AP, colours by the curve's place in the report (the same in both sets)
    const colour = (charts: typeof mean) => (charts[0].spec.encoding as { color: { scale: { domain: string[]; range: string[] } } }).color.scale;
    expect(colour(at50).domain.map((d) => d[0])).toEqual(['a', 'b']);
    expect(colour(mean).domain.map((d) => d[0])).toEqual(['b', 'a']);
    expect(colour(at50).range[0]).toBe(colour(mean).range[1]);
  });
});
