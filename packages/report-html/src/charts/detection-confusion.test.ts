import { describe, expect, it } from 'vitest';
import { createReport, type ConfusionResult, type ReportAnalysis } from '@cvdevkit/core';
import { renderVegaLiteSvg } from '../render-chart.js';
import { buildReportCharts } from './index.js';

/** A confusion result of `n` classes: each class right 8 times, missed twice, once detected as the next class, one background detection each. */
function confusion(n: number): ConfusionResult {
  const labels = [...Array.from({ length: n }, (_, c) => `k${c}`), 'background'];
  const counts = labels.map((_, g) => labels.map((_, d) => (g === n ? (d < n ? 1 : 0) : d === g ? 8 : d === n ? 2 : d === (g + 1) % n ? 1 : 0)));
  return { conf: 0.25, iouThreshold: 0.5, labels, counts, perClass: [], ignoredObjects: 0, detections: 10 * n, ignoredDetections: 0, unscoredDetections: 0, skippedDetections: 0 };
}

function report(n: number) {
  const rows = Array.from({ length: n }, (_, c) => ({ key: `k${c}`, name: `class ${c}`, ap: 0.5 }));
  return createReport({ task: 'x/det', metric: 'ap', rows, analysis: { confusion: confusion(n) } as ReportAnalysis });
}

describe('detection confusion charts', () => {
  it('the heat map (names, background last, row shares) and the top confusions render without a Vega warning', async () => {
    const charts = buildReportCharts(report(3), []);
    expect(charts.map((c) => c.id)).toEqual(['detection-confusion', 'detection-confusion-top']);
    const warnings: string[] = [];
    const [heat, top] = await Promise.all(charts.map((c) => renderVegaLiteSvg(c.spec, { onWarning: (m) => warnings.push(`${c.id}: ${m}`) })));
    expect(warnings).toEqual([]);
    // 11 objects per class: 8 right (73 %), 1 as the next class (9 %), 2 missed (18 %); the background row: 1 of 3 each
    expect(heat).toContain('ground truth class 0 → detected as class 1: 1 of 11 objects (9.1 %)');
    expect(heat).toContain('ground truth class 2 → missed: 2 of 11 objects (18.2 %)');
    expect(heat).toContain('background → detected as class 1: 1 of 3 background detections (33.3 %)');
    expect(heat).toContain('>73<');
    expect(top).toContain('class 2 → class 0');
  });

  it('80 classes: small cells without numbers, vertical labels; a matrix of another size draws nothing', async () => {
    const [heat] = buildReportCharts(report(80), []);
    const spec = heat.spec as { width: { step: number }; encoding: { x: { axis: { labelAngle: number } } }; layer: unknown[] };
    expect(spec.width.step).toBe(10);
    expect(spec.encoding.x.axis.labelAngle).toBe(-90);
    expect(spec.layer).toHaveLength(2);
    expect(await renderVegaLiteSvg(heat.spec)).toContain('<svg');
    const bad = report(3);
    bad.analysis!.confusion!.counts.pop();
    expect(buildReportCharts(bad, [])).toEqual([]);
  });
});
