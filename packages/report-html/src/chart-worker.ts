/** The chart worker thread: draws the specs it is sent, in order (see chart-renderer.ts); reads the code cache, never writes it. */
import { workerData } from 'node:worker_threads';
import { serveWorker } from '@cvdevkit/core';
import type { VegaLiteSpec } from './charts/common.js';
import { useChartCodeCache } from './code-cache.js';
import { preloadChartLibraries, renderVegaLiteSvg } from './render-chart.js';

/** All the charts the worker draws for a page, in one message: it goes on to the next without waiting for the main thread. */
export interface ChartJob {
  specs: VegaLiteSpec[];
}

export interface ChartResult {
  svgs: string[];
  warnings: string[];
}

/** What the chart worker is started with. */
export interface ChartWorkerData {
  codeCacheDir?: string;
  /** Set to 1 (and notified) once Vega is loaded here: the main thread then calls the drawing hold's `off` (drawing-hold.ts). */
  loaded?: Int32Array;
}

const data = (workerData ?? {}) as ChartWorkerData;
useChartCodeCache(data.codeCacheDir, { write: false });
// started ahead of its page: Vega loads while the main thread builds the chart specs
void preloadChartLibraries()
  .catch(() => undefined)
  .finally(() => {
    if (data.loaded) {
      Atomics.store(data.loaded, 0, 1);
      Atomics.notify(data.loaded, 0);
    }
  });

serveWorker<ChartJob, ChartResult>(async (job) => {
  const warnings: string[] = [];
  const svgs: string[] = [];
  for (const spec of job.specs) svgs.push(await renderVegaLiteSvg(spec, { onWarning: (m) => warnings.push(m) }));
  return { svgs, warnings };
});
