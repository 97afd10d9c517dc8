import { createReport, type Report } from '@cvdevkit/core';
import { describe, expect, it } from 'vitest';
import { renderVegaLiteSvg } from '../render-chart.js';
import { buildReportCharts, isoFContour } from './index.js';

const curve = (key: string, n: number) => ({
  key,
  recall: Array.from({ length: n }, (_, i) => (i + 1) / n),
  precision: Array.from({ length: n }, (_, i) => (i === 0 ? NaN : 1 - i / (2 * n))),
});

const detection = (classes: number, extra: Partial<Report['summary']> = {}) =>
  createReport({
    task: 'x/det',
    metric: 'ap',
    summary: { mAP: 0.5, ...extra },
    rows: Array.from({ length: classes }, (_, i) => ({ key: `class<${i}>`, ap: i === 0 ? NaN : i / classes, name: `name & ${i}` })),
    curves: Array.from({ length: classes }, (_, i) => curve(`class<${i}>`, 50 + i)),
  });

const segmentation = createReport({
  task: 'x/seg',
  metric: 'iou',
  summary: { mIoU: 0.4 },
  rows: ['background', 'cat', 'dog'].map((key, i) => ({ key, iou: 0.2 * (i + 1) })),
  matrices: { confusion: { labels: ['background', 'cat', 'dog'], counts: [[90, 5, 5], [10, 80, 10], [0, 0, 0]] } },
});

const clsloc = createReport({
  task: 'x/clsloc',
  metric: 'err',
  summary: { clsError: 0.2, locError: 0.4 },
  rows: [1, 2, 3, 4, 5].map((k) => ({ key: String(k), clsError: 0.5 / k, locError: 0.7 / k })),
});

const thresholds = Array.from({ length: 99 }, (_, i) => (i + 1) / 100);
const boundary = createReport({
  task: 'x/boundary',
  metric: 'ods',
  summary: { score: 0.3, odsF: 0.3, oisF: 0.31, ap: 0.2 },
  rows: [
    { key: 'class_001', name: 'wall', odsRecall: 0.5, odsPrecision: 0.6, odsF: 0.545, oisRecall: 0.55, oisPrecision: 0.6, oisF: 0.57, ap: 0.4 },
    { key: 'class_002', name: 'sky', odsRecall: 0, odsPrecision: 0, odsF: 0, oisRecall: 0, oisPrecision: 0, oisF: 0, ap: 0 },
  ],
  curves: [
    { key: 'class_001', threshold: thresholds, recall: thresholds.map((t) => 1 - t), precision: thresholds.map((t) => (t > 0.9 ? 0 : 0.3 + 0.5 * t)), f: thresholds },
    { key: 'class_002', threshold: thresholds, recall: thresholds.map(() => 0), precision: thresholds.map(() => 0), f: thresholds.map(() => 0) },
  ],
});

async function renderAll(report: Report): Promise<{ ids: string[]; svgs: string[]; warnings: string[] }> {
  const charts = buildReportCharts(report);
  const warnings: string[] = [];
  const svgs = await Promise.all(charts.map((c) => renderVegaLiteSvg(c.spec, { onWarning: (m) => warnings.push(`${c.id}: ${m}`) })));
  return { ids: charts.map((c) => c.id), svgs, warnings };
}

describe('buildReportCharts', () => {
  it('detection: overlay, small multiples, AP bars; escaped names; no Vega warning', async () => {
    const { ids, svgs, warnings } = await renderAll(detection(5));
    expect(ids).toEqual(['pr-curves', 'pr-curves-per-class', 'ap-per-class']);
    expect(warnings).toEqual([]);
    expect(svgs[0]).toContain('name &amp; 4 · AP 0.800');
    expect(svgs[0]).not.toContain('name & 4');
  });

  it('many classes: one colour, no legend, and the AP distribution with the official median and mean', async () => {
    const charts = buildReportCharts(detection(30, { medianAP: 0.42 }));
    expect(charts.map((c) => c.id)).toContain('ap-distribution');
    const overlay = charts.find((c) => c.id === 'pr-curves')!.spec as { encoding: Record<string, unknown> };
    expect(overlay.encoding.color).toBeUndefined();
    const { warnings, svgs } = await renderAll(detection(30, { medianAP: 0.42 }));
    expect(warnings).toEqual([]);
    expect(svgs.at(-1)).toContain('median 0.420');
  });

  it('segmentation: IoU bars and a row-normalised heat map with raw counts on hover', async () => {
    const { ids, svgs, warnings } = await renderAll(segmentation);
    expect(ids).toEqual(['iou-per-class', 'confusion']);
    expect(warnings).toEqual([]);
    expect(svgs[1]).toContain('ground truth cat → predicted dog: 10 of 100 pixels (10.0 %)');
    expect(svgs[1]).toContain('ground truth dog → predicted dog: 0 of 0 pixels (0.0 %)');
  });

  it('classification-localisation: error against 1–5 guesses', async () => {
    const { ids, warnings } = await renderAll(clsloc);
    expect(ids).toEqual(['error-by-guesses']);
    expect(warnings).toEqual([]);
  });

  it('boundary: mean BSDS plot, per-class plots of the classes with a drawable curve, F-ODS bars', async () => {
    const charts = buildReportCharts(boundary);
    expect(charts.map((c) => c.id)).toEqual(['f-threshold-mean', 'f-threshold-per-class', 'f-ods-per-class']);
    const perClass = charts[1].spec as { data: { values: Array<{ title?: string; kind: string; r: number; p: number }> } };
    expect(perClass.data.values.filter((v) => v.kind === 'panel').map((v) => v.title)).toEqual(['wall · F-ODS 0.545']);
    // R = P = 0 (nothing predicted) is not drawn
    expect(perClass.data.values.filter((v) => v.kind === 'curve').some((v) => v.r === 0 && v.p === 0)).toBe(false);
    const { warnings } = await renderAll(boundary);
    expect(warnings).toEqual([]);
  });

  it('boundary: the mean plot averages every class (a class without a curve counts as R = P = 0) and draws the score contour', () => {
    const mean = buildReportCharts(boundary)[0].spec as { data: { values: Array<{ kind: string; what?: string; r: number; p: number; c?: string }> } };
    const points = mean.data.values.filter((v) => v.kind === 'point');
    expect(points.find((v) => v.what?.startsWith('ODS'))).toMatchObject({ r: 0.25, p: 0.3 });
    expect(points.find((v) => v.what?.startsWith('OIS'))).toMatchObject({ r: 0.275, p: 0.3 });
    const curve = mean.data.values.filter((v) => v.kind === 'curve');
    expect(curve[0].c).toBe('mean of all 2 classes');
    expect(curve[0].r).toBeCloseTo((1 - thresholds[0]) / 2, 6); // wall (1 - t) and sky 0, over 2 classes
    const score = mean.data.values.filter((v) => v.kind === 'score');
    for (const v of score) expect((2 * v.r * v.p) / (v.r + v.p)).toBeCloseTo(0.3, 5);
  });

  it('typed-array curves (as the AP tasks keep them) give the same charts as plain arrays', () => {
    const typed = (r: Report): Report => ({
      ...r,
      curves: r.curves.map((c) => Object.fromEntries(Object.entries(c).map(([k, v]) => [k, Array.isArray(v) ? Float64Array.from(v) : v])) as Report['curves'][number]),
    });
    for (const r of [detection(5), detection(30), boundary]) {
      const want = buildReportCharts(r);
      expect(want.length).toBeGreaterThan(0);
      expect(buildReportCharts(typed(r))).toEqual(want);
    }
  });

  it('a report without rows or curves has no chart', () => {
    expect(buildReportCharts(createReport({ task: 't', metric: 'm' }))).toEqual([]);
  });
});

describe('isoFContour', () => {
  it('every point has F = f and the contour runs from P = 1 to R = 1', () => {
    for (const f of [0.1, 0.5, 0.9]) {
      const pts = isoFContour(f);
      expect(pts[0][1]).toBeCloseTo(1, 5);
      expect(pts.at(-1)![0]).toBe(1);
      for (const [r, p] of pts) expect((2 * p * r) / (p + r)).toBeCloseTo(f, 5);
    }
  });
});

describe('charts a task declares', () => {
  const accuracy = createReport({
    task: 'toy/seg',
    metric: 'acc',
    summary: { meanAcc: 0.5 },
    rows: [{ key: 'a', acc: 0.25, ap: 0.5 }, { key: 'b', acc: 0.75, ap: 0.5 }],
    matrices: { confusion: { labels: ['a', 'b'], counts: [[1, 2], [3, 4]] } },
  });
  it('draws exactly the declared kinds, in order, from the named fields', () => {
    const charts = buildReportCharts(accuracy, [{ kind: 'confusion-matrix' }, { kind: 'class-bars', field: 'acc', label: 'Accuracy', summaryKey: 'meanAcc' }]);
    expect(charts.map((c) => c.id)).toEqual([expect.stringContaining('confusion'), 'acc-per-class']);
    expect(charts[1].title).toBe('Accuracy per class');
    expect(JSON.stringify(charts[1].spec)).toContain('meanAcc 0.5');
  });
  it('declares none: no chart, whatever the fields', () => {
    expect(buildReportCharts(accuracy, [])).toEqual([]);
  });
});
