import { describe, expect, it } from 'vitest';
import { createReport, type F1Curve, type ReportAnalysis } from '@cvdevkit/core';
import { renderVegaLiteSvg } from '../render-chart.js';
import { fmtThreshold } from './f1-threshold.js';
import { buildReportCharts } from './index.js';

const thresholds = [-1, 0, 1, 2];
const curve = (key: string, f1: number[], best: F1Curve['best']): F1Curve => ({ key, npos: 4, ndet: 4, precision: [0.5, 0.6, 1, NaN], recall: [1, 0.75, 0.5, 0], f1, best });

describe('F1 charts', () => {
  it('overall curves with the best point and per-class panels render without a Vega warning; scores outside 0–1 label the axis', async () => {
    const f1 = {
      iouThreshold: 0.5,
      thresholds,
      overall: curve('overall', [0.6, 0.7, 0.62, 0], { threshold: 0, f1: 0.7, precision: 0.6, recall: 0.75, tp: 3, fp: 2 }),
      perClass: [
        curve('k0', [0.5, 0.8, 0.6, 0], { threshold: 0, f1: 0.8, precision: 0.8, recall: 0.8, tp: 4, fp: 1 }),
        curve('k1', [0, 0, 0, 0], { threshold: NaN, f1: 0, precision: NaN, recall: 0, tp: 0, fp: 0 }),
      ],
      unscoredDetections: 0,
    };
    const report = createReport({ task: 'x/det', metric: 'ap', rows: [{ key: 'k0', name: 'cat' }, { key: 'k1', name: 'dog' }], analysis: { f1 } as ReportAnalysis });
    const charts = buildReportCharts(report, []);
    expect(charts.map((c) => c.id)).toEqual(['f1-vs-threshold', 'f1-vs-threshold-per-class']);
    const warnings: string[] = [];
    const [overall, panels] = await Promise.all(charts.map((c) => renderVegaLiteSvg(c.spec, { onWarning: (m) => warnings.push(`${c.id}: ${m}`) })));
    expect(warnings).toEqual([]);
    expect(overall).toContain('best F1 0.700 at 0 (P 0.600, R 0.750)');
    // panels sorted by best F1, the threshold of the best in the title; tick labels from the lowest to the highest score
    expect(panels.indexOf('cat 0.80 @ 0')).toBeLessThan(panels.indexOf('dog 0.00'));
    expect(panels).toContain('>-1<');
    expect(panels).toContain('>0.5<');
    expect(panels).toContain('>2<');
  });

  it('no detections: no chart; thresholds print with 3 significant digits', () => {
    const empty = { iouThreshold: 0.5, thresholds: [], overall: curve('overall', [], { threshold: NaN, f1: 0, precision: NaN, recall: 0, tp: 0, fp: 0 }), perClass: [], unscoredDetections: 0 };
    expect(buildReportCharts(createReport({ task: 'x/det', metric: 'ap', analysis: { f1: empty } as ReportAnalysis }), [])).toEqual([]);
    expect([fmtThreshold(0.123456), fmtThreshold(12.345), fmtThreshold(null), fmtThreshold(NaN)]).toEqual(['0.123', '12.3', 'n/a', 'n/a']);
  });
});
