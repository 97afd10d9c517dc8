/**
 * Where the charts of a page are drawn. With two or more charts and cores, the costliest one (by the size
 * of its data) is drawn in a worker thread while this thread draws the others and writes the rest of the
 * page; otherwise all are drawn here. The worker is started when the page is begun (`warmChartWorker`),
 * so that its start and its loading of Vega overlap with building the chart specs and describing the
 * inputs here. (Warming Vega up in a worker while the evaluation runs was measured slower on 2 cores,
 * where the evaluation's own threads use both; the code cache of `code-cache.ts` saves the compile time.)
 */
import { availableParallelism } from 'node:os';
import { WorkerPool, resolveWorkerScript } from '@cvdevkit/core';
import type { VegaLiteSpec } from './charts/common.js';
import type { ChartJob, ChartResult } from './chart-worker.js';
import { chartCodeCacheDir } from './code-cache.js';
import { renderVegaLiteSvg, type RenderOptions } from './render-chart.js';

type ChartWorker = WorkerPool<ChartJob, ChartResult>;

/** A chart worker started ahead of its page (idle workers do not keep the process alive). */
let warm: ChartWorker | undefined;

function startChartWorker(): ChartWorker | undefined {
  try {
    return new WorkerPool<ChartJob, ChartResult>(resolveWorkerScript(import.meta.url, './chart-worker.js'), { workers: 1, workerData: { codeCacheDir: chartCodeCacheDir() } });
  } catch {
    return undefined; // no worker script (an unbuilt source tree): everything is drawn here
  }
}

/** Starts the chart worker of the next `renderChartSvgs` now, where there are two cores (it loads Vega meanwhile). */
export function warmChartWorker(): void {
  if (warm === undefined && availableParallelism() >= 2) warm = startChartWorker();
}

export interface ChartSvgOptions extends RenderOptions {
  /**
   * Other work this thread does while the charts are drawn, in the unit of `cost` (characters of spec
   * JSON): a page's embedded JSON report is about 1/75 of its length (measured: 56 ms for 4.2 MB of JSON,
   * 191 ms for a 182 kB spec).
   */
  costHere?: number;
}

/** The SVG of each spec, in order. */
export async function renderChartSvgs(specs: VegaLiteSpec[], options: ChartSvgOptions = {}): Promise<string[]> {
  const worker = warm;
  warm = undefined;
  if (specs.length >= 2 && availableParallelism() >= 2) {
    const w = worker ?? startChartWorker();
    if (w) return renderSplit(specs, w, options);
  } else void worker?.close();
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

/**
 * Splits the charts between the worker and this thread so that both finish together, greedily by cost
 * (the costliest first, each to the side with less work so far); `costHere` is what this thread does
 * besides, in the same unit (the embedded JSON report of the page, see `renderChartSvgs`).
 */
export function splitCharts(costs: number[], costHere = 0): boolean[] {
  const far = costs.map(() => false);
  const order = costs.map((_, i) => i).sort((a, b) => costs[b] - costs[a] || a - b);
  let there = 0;
  let here = costHere;
  for (const i of order) {
    if (there <= here) {
      far[i] = true;
      there += costs[i];
    } else here += costs[i];
  }
  return far;
}

async function renderSplit(specs: VegaLiteSpec[], worker: ChartWorker, options: ChartSvgOptions): Promise<string[]> {
  const far = splitCharts(specs.map(cost), options.costHere);
  const there = Promise.all(specs.flatMap((spec, i) => (far[i] ? [worker.run({ spec })] : []))).finally(() => worker.close());
  there.catch(() => undefined);
  const here = await renderHere(
    specs.filter((_, i) => !far[i]),
    options,
  );
  const drawn = await there;
  const out: string[] = [];
  for (let i = 0; i < specs.length; i++) {
    if (far[i]) {
      const { svg, warnings } = drawn.shift()!;
      for (const w of warnings) options.onWarning?.(w);
      out.push(svg);
    } else out.push(here.shift()!);
  }
  return out;
}
