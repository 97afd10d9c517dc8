/**
 * Where charts are rendered. A caller that knows early that it will draw charts (the CLI, when `--format
 * html` or `--plots` is asked for, before the evaluation starts) calls `warmUpChartRenderer()`: on a
 * machine with more than 2 cores a worker thread loads Vega and warms it up in parallel with the
 * evaluation, and `renderChartSvgs` then draws the report's charts there with warm code, while the main
 * thread writes the rest of the page. Otherwise, with two or more charts, the costliest one is drawn in a
 * fresh worker while this thread draws the others and writes the page; with one chart, here.
 */
import { availableParallelism } from 'node:os';
import { WorkerPool, resolveWorkerScript } from '@cvdevkit/core';
import type { VegaLiteSpec } from './charts/common.js';
import type { ChartJob, ChartResult } from './chart-worker.js';
import { chartCodeCacheDir } from './code-cache.js';
import { renderVegaLiteSvg, type RenderOptions } from './render-chart.js';

let pool: WorkerPool<ChartJob, ChartResult> | undefined;

/** Starts the chart worker (once); it loads and warms up Vega while the caller goes on. */
export function warmUpChartRenderer(): void {
  // Measured on 2 cores (VOC det large, ADE20K medium): the warm-up competes with the evaluation's own
  // threads and the HTML run got slower (VOC +0.66 s against +0.36 s without it). It needs a spare core.
  if (pool !== undefined || availableParallelism() <= 2) return;
  try {
    pool = new WorkerPool<ChartJob, ChartResult>(resolveWorkerScript(import.meta.url, './chart-worker.js'), { workers: 1, workerData: { codeCacheDir: chartCodeCacheDir() } });
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

/**
 * The SVG of each spec, in order: in the warm worker when one was started; else, with two or more
 * charts and cores, the costliest chart (by the size of its data) in a fresh worker while this thread
 * draws the others; else all in this thread.
 */
export async function renderChartSvgs(specs: VegaLiteSpec[], options: RenderOptions = {}): Promise<string[]> {
  const p = pool;
  if (p === undefined) {
    if (specs.length >= 2 && availableParallelism() >= 2) return renderSplit(specs, options);
    return renderHere(specs, options);
  }
  const results = await Promise.all(specs.map((spec) => p.run({ spec })));
  return results.map((r) => {
    for (const w of r.warnings) options.onWarning?.(w);
    return r.svg;
  });
}

async function renderHere(specs: VegaLiteSpec[], options: RenderOptions): Promise<string[]> {
  const out: string[] = [];
  for (const spec of specs) out.push(await renderVegaLiteSvg(spec, options));
  return out;
}

/** A chart's cost for Vega, roughly: the size of its data, twice for small multiples (a view per panel). */
function cost(spec: VegaLiteSpec): number {
  return JSON.stringify(spec).length * ('facet' in spec ? 2 : 1);
}

async function renderSplit(specs: VegaLiteSpec[], options: RenderOptions): Promise<string[]> {
  let heavy = 0;
  const costs = specs.map(cost);
  for (let i = 1; i < specs.length; i++) if (costs[i] > costs[heavy]) heavy = i;
  let worker: WorkerPool<ChartJob, ChartResult>;
  try {
    worker = new WorkerPool<ChartJob, ChartResult>(resolveWorkerScript(import.meta.url, './chart-worker.js'), { workers: 1, workerData: { warmUp: false, codeCacheDir: chartCodeCacheDir() } });
  } catch {
    return renderHere(specs, options);
  }
  const far = worker.run({ spec: specs[heavy] }).finally(() => worker.close());
  far.catch(() => undefined);
  const near = await renderHere(
    specs.filter((_, i) => i !== heavy),
    options,
  );
  const { svg, warnings } = await far;
  for (const w of warnings) options.onWarning?.(w);
  near.splice(heavy, 0, svg);
  return near;
}
