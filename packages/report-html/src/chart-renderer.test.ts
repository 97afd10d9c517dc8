import { describe, expect, it } from 'vitest';
import { createReport } from '@cvdevkit/core';
import { buildReportCharts } from './charts/index.js';
import { renderChartSvgs, splitCharts, warmChartWorker } from './chart-renderer.js';
import { renderVegaLiteSvg } from './render-chart.js';

/** A detection-like report: three classes with 200-point PR curves and their APs. */
function detReport() {
  const classes = ['alpha', 'beta', 'gamma'];
  const curves = classes.map((key, c) => {
    const recall: number[] = [];
    const precision: number[] = [];
    for (let i = 1; i <= 200; i++) {
      recall.push(i / 200);
      precision.push(1 / (1 + (c + 1) * (i / 200) * ((i * 7919) % 13) * 0.05));
    }
    return { key, recall, precision };
  });
  return createReport({ task: 'x/det', metric: 'ap', summary: { mAP: 0.5 }, rows: classes.map((key, c) => ({ key, ap: 0.4 + c * 0.1, npos: 10, ndet: 200 })), curves });
}

describe('renderChartSvgs', () => {
  const specs = buildReportCharts(detReport()).map((c) => c.spec);
  // Vega numbers clip paths with a counter of its own thread (`clip1`, `clip4`, …): compare without it
  const same = (svgs: string[]) => svgs.map((s) => s.replace(/clip\d+/g, 'clip#'));

  it('draws the same SVGs, in order, as drawing each here (the costliest chart in a worker)', async () => {
    const inThread = await Promise.all(specs.map((s) => renderVegaLiteSvg(s)));
    expect(same(await renderChartSvgs(specs))).toEqual(same(inThread));
  });

  it('draws the same SVGs with several charts in the worker, started ahead (warmChartWorker)', async () => {
    const inThread = await Promise.all(specs.map((s) => renderVegaLiteSvg(s)));
    warmChartWorker();
    expect(same(await renderChartSvgs(specs, { costHere: 1e9 }))).toEqual(same(inThread));
    // a worker started ahead of a page with one chart is closed, the chart drawn here
    warmChartWorker();
    expect(same(await renderChartSvgs(specs.slice(0, 1)))).toEqual(same(inThread.slice(0, 1)));
  });

  it('passes Vega warnings on', async () => {
    const warnings: string[] = [];
    const spec = { data: { values: [{ a: 1 }] }, mark: 'point', encoding: { x: { field: 'nope', type: 'quantitative' }, y: { field: 'a', type: 'quantitative', scale: { type: 'log', zero: true } } } };
    await renderChartSvgs([spec], { onWarning: (m) => warnings.push(m) });
    expect(warnings.length).toBeGreaterThan(0);
  });
});

describe('splitCharts', () => {
  it('gives the costliest chart to the worker, then each to the side with less work', () => {
    expect(splitCharts([182, 139, 5])).toEqual([true, false, false]);
    expect(splitCharts([182, 139, 5], 56)).toEqual([true, false, true]);
    expect(splitCharts([182, 139, 5], 1000)).toEqual([true, true, true]);
    expect(splitCharts([10, 10])).toEqual([true, false]);
  });
});
