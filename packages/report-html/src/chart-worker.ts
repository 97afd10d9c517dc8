/** The chart worker thread: draws the spec it is sent (see chart-renderer.ts); reads the code cache, never writes it. */
import { workerData } from 'node:worker_threads';
import { serveWorker } from '@cvdevkit/core';
import type { VegaLiteSpec } from './charts/common.js';
import { useChartCodeCache } from './code-cache.js';
import { preloadChartLibraries, renderVegaLiteSvg } from './render-chart.js';

export interface ChartJob {
  spec: VegaLiteSpec;
}

export interface ChartResult {
  svg: string;
  warnings: string[];
}

useChartCodeCache((workerData as { codeCacheDir?: string } | undefined)?.codeCacheDir, { write: false });
// started ahead of its page: Vega loads while the main thread builds the chart specs
preloadChartLibraries().catch(() => undefined);

serveWorker<ChartJob, ChartResult>(async (job) => {
  const warnings: string[] = [];
  const svg = await renderVegaLiteSvg(job.spec, { onWarning: (m) => warnings.push(m) });
  return { svg, warnings };
});
