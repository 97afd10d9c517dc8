/**
 * Where the charts of a page are drawn. With two or more charts and cores, the costliest one (by the size
 * of its data) is drawn in a fresh worker thread while this thread draws the others and writes the rest of
 * the page; otherwise all are drawn here. (Warming Vega up in a worker while the evaluation runs was
 * measured slower on 2 cores, where the evaluation's own threads use both; the code cache of
 * `code-cache.ts` saves the compile time instead.)
 */
import { availableParallelism } from 'node:os';
import { WorkerPool, resolveWorkerScript } from '@cvdevkit/core';
import type { VegaLiteSpec } from './charts/common.js';
import type { ChartJob, ChartResult } from './chart-worker.js';
import { chartCodeCacheDir } from './code-cache.js';
import { renderVegaLiteSvg, type RenderOptions } from './render-chart.js';

/** The SVG of each spec, in order. */
export async function renderChartSvgs(specs: VegaLiteSpec[], options: RenderOptions = {}): Promise<string[]> {
  if (specs.length >= 2 && availableParallelism() >= 2) return renderSplit(specs, options);
  return renderHere(specs, options);
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
    worker = new WorkerPool<ChartJob, ChartResult>(resolveWorkerScript(import.meta.url, './chart-worker.js'), { workers: 1, workerData: { codeCacheDir: chartCodeCacheDir() } });
  } catch {
    return renderHere(specs, options); // no worker script (an unbuilt source tree)
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
