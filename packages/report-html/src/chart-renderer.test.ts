import { describe, expect, it } from 'vitest';
import { createReport } from '@cvdevkit/core';
import { buildReportCharts } from './charts/index.js';
import { chartCost, renderChartSvgs, splitCharts, warmChartWorker } from './chart-renderer.js';
import { setDrawingHold } from './drawing-hold.js';

/** Holds taken and not yet released (a counting hold registered for the tests). */
let heldNow = 0;
setDrawingHold(() => {
  let held = false;
  let released = false;
  return {
    off() {
      if (held || released) return;
      held = true;
      heldNow++;
    },
    release() {
      if (held && !released) heldNow--;
      released = true;
    },
  };
});
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
    // one chart, a worker not ready yet and Vega loaded here: the chart is drawn here, the worker closed
    warmChartWorker();
    expect(same(await renderChartSvgs(specs.slice(0, 1)))).toEqual(same(inThread.slice(0, 1)));
    // one chart and a worker with time to get ready (this thread busy with the page's JSON): drawn there
    warmChartWorker();
    expect(same(await renderChartSvgs(specs.slice(1, 2), { costHere: 1e9 }))).toEqual(same(inThread.slice(1, 2)));
    // every drawing's hold is released once the charts are drawn, also after the worker's late "loaded"
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(heldNow).toBe(0);
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

  it('counts the time the worker needs before it can start', () => {
    expect(splitCharts([100, 50], 0, 120)).toEqual([false, false]);
    expect(splitCharts([100, 50], 80, 60)).toEqual([true, false]);
    expect(splitCharts([100, 50, 40], 80, 60)).toEqual([true, false, false]);
    expect(splitCharts([100, 50, 40], 80, 0)).toEqual([true, false, true]);
  });
});

describe('chartCost', () => {
  it('grows with the marks of every panel and with the data', () => {
    const line = { data: { values: [{ r: 0, p: 1 }] }, mark: 'line' };
    const layered = { layer: [line, { ...line, mark: 'point' }, { ...line, mark: 'text' }] };
    const facet = (n: number) => ({ data: { values: [] }, facet: { field: 'c', sort: Array.from({ length: n }, (_, i) => `c${i}`) }, spec: layered });
    expect(chartCost(layered)).toBeGreaterThan(chartCost(line));
    expect(chartCost(facet(20))).toBeGreaterThan(chartCost(facet(4)));
    expect(chartCost({ ...line, data: { values: Array.from({ length: 5000 }, () => ({ r: 0, p: 1 })) } })).toBeGreaterThan(chartCost(line));
    // a facet without a sorted list of panels counts the distinct values of its field
    const data = { values: [{ c: 'a' }, { c: 'b' }, { c: 'a' }] };
    expect(chartCost({ data, facet: { field: 'c' }, spec: line })).toBe(chartCost({ data, facet: { field: 'c', sort: ['a', 'b'] }, spec: line }));
  });
});
