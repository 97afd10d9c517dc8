/**
 * The chart worker thread: loads Vega and Vega-Lite and warms them up as soon as it starts (while the
 * evaluation still runs in the main thread), then renders the specs it is sent. See chart-renderer.ts.
 */
import { workerData } from 'node:worker_threads';
import { serveWorker } from '@cvdevkit/core';
import type { VegaLiteSpec } from './charts/common.js';
import { useChartCodeCache } from './code-cache.js';
import { renderVegaLiteSvg } from './render-chart.js';
import { warmUpCharts } from './warm-up.js';

export interface ChartJob {
  spec: VegaLiteSpec;
}

export interface ChartResult {
  svg: string;
  warnings: string[];
}

const data = workerData as { warmUp?: boolean; codeCacheDir?: string } | undefined;
useChartCodeCache(data?.codeCacheDir, { write: false });
// a worker started for one chart at the end of a run (`workerData.warmUp === false`) draws it at once
const warm = data?.warmUp === false ? Promise.resolve() : warmUpCharts().catch(() => undefined);

serveWorker<ChartJob, ChartResult>(async (job) => {
  await warm;
  const warnings: string[] = [];
  const svg = await renderVegaLiteSvg(job.spec, { onWarning: (m) => warnings.push(m) });
  return { svg, warnings };
});
