import { afterAll, describe, expect, it } from 'vitest';
import { buildReportCharts } from './charts/index.js';
import { closeChartRenderer, renderChartSvgs, warmUpChartRenderer } from './chart-renderer.js';
import { renderVegaLiteSvg } from './render-chart.js';
import { warmUpReport } from './warm-up.js';

afterAll(() => closeChartRenderer());

describe('renderChartSvgs', () => {
  const specs = buildReportCharts(warmUpReport()).map((c) => c.spec);
  // Vega numbers clip paths with a counter of its own thread (`clip1`, `clip4`, …): compare without it
  const same = (svgs: string[]) => svgs.map((s) => s.replace(/clip\d+/g, 'clip#'));

  it('draws the same SVGs, in order, in this thread, split with a worker, or in the warm worker (more than 2 cores)', async () => {
    const inThread = await Promise.all(specs.map((s) => renderVegaLiteSvg(s)));
    expect(same(await renderChartSvgs(specs))).toEqual(same(inThread)); // split: the costliest chart in a worker
    warmUpChartRenderer();
    warmUpChartRenderer(); // once
    expect(same(await renderChartSvgs(specs))).toEqual(same(inThread));
  });

  it('passes the worker’s Vega warnings on', async () => {
    warmUpChartRenderer();
    const warnings: string[] = [];
    const spec = { data: { values: [{ a: 1 }] }, mark: 'point', encoding: { x: { field: 'nope', type: 'quantitative' }, y: { field: 'a', type: 'quantitative', scale: { type: 'log', zero: true } } } };
    await renderChartSvgs([spec], { onWarning: (m) => warnings.push(m) });
    expect(warnings.length).toBeGreaterThan(0);
  });
});
