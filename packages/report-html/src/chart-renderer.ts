/**
 * Where charts are rendered. By default in the calling thread (`renderVegaLiteSvg`). A caller that knows
 * early that it will draw charts (the CLI, when `--format html` or `--plots` is asked for, before the
 * evaluation starts) calls `warmUpChartRenderer()`: a worker thread loads Vega and warms it up in parallel
 * with the evaluation, and `renderChartSvgs` then draws the report's charts there with warm code, while
 * the main thread writes the rest of the page.
 */
import { WorkerPool, resolveWorkerScript } from '@cvdevkit/core';
import type { VegaLiteSpec } from './charts/common.js';
import type { ChartJob, ChartResult } from './chart-worker.js';
import { renderVegaLiteSvg, type RenderOptions } from './render-chart.js';

let pool: WorkerPool<ChartJob, ChartResult> | undefined;

/** Starts the chart worker (once); it loads and warms up Vega while the caller goes on. */
export function warmUpChartRenderer(): void {
  if (pool !== undefined) return;
  try {
    pool = new WorkerPool<ChartJob, ChartResult>(resolveWorkerScript(import.meta.url, './chart-worker.js'), { workers: 1 });
  } catch {
    pool = undefined; // no worker script (an unbuilt source tree): charts are drawn in this thread
  }
}

/** Stops the chart worker, if one was started. */
export async function closeChartRenderer(): Promise<void> {
  const p = pool;
  pool = undefined;
  await p?.close();
}

/** The SVG of each spec, in order: in the warm worker when one was started, else in this thread. */
export async function renderChartSvgs(specs: VegaLiteSpec[], options: RenderOptions = {}): Promise<string[]> {
  const p = pool;
  if (p === undefined) {
    const out: string[] = [];
    for (const spec of specs) out.push(await renderVegaLiteSvg(spec, options));
    return out;
  }
  const results = await Promise.all(specs.map((spec) => p.run({ spec })));
  return results.map((r) => {
    for (const w of r.warnings) options.onWarning?.(w);
    return r.svg;
  });
}
