/**
 * Warming Vega up: the first charts a fresh process renders cost about three times what the same charts
 * cost once V8 has compiled Vega's code paths (line, facet, bar, text, rule, legend, axes, SVG output).
 * Rendering the charts of a small made-up detection report exercises those paths; the chart worker does
 * it while the evaluation runs, so the report's own charts are drawn by warm code.
 */
import { createReport, type Report } from '@cvdevkit/core';
import { buildReportCharts } from './charts/index.js';
import { renderVegaLiteSvg } from './render-chart.js';

/** A detection-like report: three classes with 200-point PR curves and their APs. */
export function warmUpReport(): Report {
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
  return createReport({
    task: 'warm-up/det',
    metric: 'ap',
    summary: { mAP: 0.5 },
    rows: classes.map((key, c) => ({ key, ap: 0.4 + c * 0.1, npos: 10, ndet: 200 })),
    curves,
  });
}

/** Renders the warm-up report's charts (the SVGs are thrown away). */
export async function warmUpCharts(): Promise<void> {
  for (const chart of buildReportCharts(warmUpReport())) await renderVegaLiteSvg(chart.spec);
}
