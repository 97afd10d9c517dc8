/**
 * The chart worker thread: loads Vega and Vega-Lite and warms them up as soon as it starts (while the
 * evaluation still runs in the main thread), then renders the specs it is sent. See chart-renderer.ts.
 */
import { serveWorker } from '@cvdevkit/core';
import type { VegaLiteSpec } from './charts/common.js';
import { renderVegaLiteSvg } from './render-chart.js';
import { warmUpCharts } from './warm-up.js';

export interface ChartJob {
  spec: VegaLiteSpec;
}

export interface ChartResult {
  svg: string;
  warnings: string[];
}

const warm = warmUpCharts().catch(() => undefined);

serveWorker<ChartJob, ChartResult>(async (job) => {
  await warm;
  const warnings: string[] = [];
  const svg = await renderVegaLiteSvg(job.spec, { onWarning: (m) => warnings.push(m) });
  return { svg, warnings };
});
