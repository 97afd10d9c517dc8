/**
 * Where the charts of a page are drawn: split between this thread and one worker thread, so that both
 * finish together. The worker is started when the page is begun (`warmChartWorker`: the CLI calls it as the
 * HTML format loads), so that its start and its loading of Vega (≈ 130 ms) overlap with building the chart
 * specs here. The split is greedy over estimated drawing times (`chartCost`), counting what this thread
 * does besides (the page's embedded JSON, and loading Vega here if it has not yet) and the time the worker
 * still needs to be ready; the worker gets its charts in one message. With one core, everything is drawn
 * here. (Starting the worker when the evaluation starts was measured twice: the page gains, the run as a
 * whole does not. 25 rounds: +29 ms for VOC det `large`, +110 ms without a cache, −73 ms for ADE20K
 * `medium`; even an evaluation that runs in one thread keeps the other core partly busy, with V8's
 * collector and compiler.)
 */
import { availableParallelism } from 'node:os';
import { WorkerPool, resolveWorkerScript } from '@cvdevkit/core';
import type { VegaLiteSpec } from './charts/common.js';
import type { ChartJob, ChartResult, ChartWorkerData } from './chart-worker.js';
import { chartCodeCacheDir } from './code-cache.js';
import { drawingHold } from './drawing-hold.js';
import { chartLibrariesLoaded, preloadChartLibraries, renderVegaLiteSvg, type RenderOptions } from './render-chart.js';

type ChartWorker = WorkerPool<ChartJob, ChartResult>;

/** Measured on 2 cores, with other work beside: a worker's start and its loading of Vega; loading Vega in this thread. */
const WORKER_READY_MS = 130;
const LOAD_HERE_MS = 70;

/** A chart worker: the pool of its one thread, when it was started, and the flag it sets once Vega is loaded. */
interface StartedWorker {
  pool: ChartWorker;
  since: number;
  loaded: Int32Array;
}

/** A chart worker started ahead of its page (idle workers do not keep the process alive). */
let warm: StartedWorker | undefined;

function startChartWorker(): StartedWorker | undefined {
  try {
    const loaded = new Int32Array(new SharedArrayBuffer(4));
    const workerData: ChartWorkerData = { codeCacheDir: chartCodeCacheDir(), loaded };
    const pool = new WorkerPool<ChartJob, ChartResult>(chartWorkerScript(), { workers: 1, workerData });
    return { pool, since: performance.now(), loaded };
  } catch {
    return undefined; // no worker script (an unbuilt source tree): everything is drawn here
  }
}

/** The chart worker's script: the one-file CommonJS build (quicker to start, scripts/bundle.mjs), else its ES module. */
function chartWorkerScript(): URL {
  try {
    return resolveWorkerScript(import.meta.url, './chart-worker.cjs');
  } catch {
    return resolveWorkerScript(import.meta.url, './chart-worker.js');
  }
}

/** `Atomics.waitAsync` (Node 16+; not yet in TypeScript's ES2023 library). */
type WaitAsync = (array: Int32Array, index: number, value: number, timeout?: number) => { async: boolean; value: unknown };
const waitAsync = (Atomics as unknown as { waitAsync?: WaitAsync }).waitAsync;

/** Settles once the worker has loaded Vega (or after 5 s: a worker that never does only loses the speed-up). */
function workerLoaded(worker: StartedWorker): Promise<unknown> {
  if (Atomics.load(worker.loaded, 0) !== 0 || waitAsync === undefined) return Promise.resolve();
  const wait = waitAsync(worker.loaded, 0, 0, 5000);
  return wait.async ? (wait.value as Promise<unknown>) : Promise.resolve();
}

/** Starts the chart worker of the next `renderChartSvgs` now, where there are two cores (it loads Vega meanwhile); a worker already started is kept. */
export function warmChartWorker(): void {
  if (warm === undefined && availableParallelism() >= 2) warm = startChartWorker();
}

export interface ChartSvgOptions extends RenderOptions {
  /** Other work this thread does while the charts are drawn, in milliseconds (a page's embedded JSON report). */
  costHere?: number;
}

/**
 * The SVG of each spec, in order. Vega is loaded with V8's optimising compiler on (its code cache was made
 * so), and the charts are drawn with it off once every thread that draws has loaded Vega (see
 * the caller's drawing hold, drawing-hold.ts): checked before each chart drawn here, and when the worker says so.
 */
export async function renderChartSvgs(specs: VegaLiteSpec[], options: ChartSvgOptions = {}): Promise<string[]> {
  let worker = warm;
  warm = undefined;
  const hold = drawingHold();
  try {
    if (specs.length > 0 && availableParallelism() >= 2 && (worker !== undefined || specs.length >= 2)) {
      worker ??= startChartWorker();
      if (worker) {
        const here = (options.costHere ?? 0) + (chartLibrariesLoaded() ? 0 : LOAD_HERE_MS);
        const far = splitCharts(specs.map(chartCost), here, Math.max(0, worker.since + WORKER_READY_MS - performance.now()));
        if (far.some(Boolean)) {
          const loaded = worker.loaded;
          const offWhenLoaded = () => {
            if (Atomics.load(loaded, 0) !== 0) hold.off();
          };
          void workerLoaded(worker).then(offWhenLoaded);
          return await renderSplit(specs, worker.pool, options, far, offWhenLoaded);
        }
      }
    }
    void worker?.pool.close();
    if (specs.length > 0) await preloadChartLibraries();
    return await renderHere(specs, options, () => hold.off());
  } finally {
    hold.release();
  }
}

/** Draws the specs here, in order; `beforeEach` runs before each. */
async function renderHere(specs: VegaLiteSpec[], options: RenderOptions, beforeEach?: () => void): Promise<string[]> {
  const out: string[] = [];
  for (const spec of specs) {
    beforeEach?.();
    out.push(await renderVegaLiteSvg(spec, options));
  }
  return out;
}

/**
 * A chart's drawing time in milliseconds, roughly (Vega in a fresh thread, without the optimising
 * compiler): a fixed part, each mark in each panel of a facet, each data value. Fitted on the charts of
 * VOC det `large` and ADE20K `medium` (e.g. 108 ms for 20 overlaid PR curves of 3,566 points, 145 ms for a
 * facet of 9 BSDS panels of 4 marks, 39–47 ms for a bar chart); the small multiples drawn as one view
 * (panel-grid.ts) count as one panel, and their estimates hold as well (VOC's 20 PR panels: 109 ms
 * estimated, 112–134 ms measured; ADE20K's 13 BSDS panels: 76 ms, 94–123 ms).
 */
export function chartCost(spec: VegaLiteSpec): number {
  let marks = 0;
  let values = 0;
  const walk = (node: VegaLiteSpec): void => {
    if ('mark' in node) marks++;
    const data = node.data as { values?: unknown[] } | undefined;
    if (Array.isArray(data?.values)) values += data.values.length;
    for (const child of [...((node.layer as VegaLiteSpec[] | undefined) ?? []), ...(node.spec ? [node.spec as VegaLiteSpec] : [])]) walk(child);
  };
  walk(spec);
  return 30 + 2.5 * marks * facetPanels(spec) + 0.02 * values;
}

/** The number of panels of a faceted spec (its sorted facet values, else the distinct values of the facet field); 1 otherwise. */
function facetPanels(spec: VegaLiteSpec): number {
  const facet = spec.facet as { field?: string; sort?: unknown } | undefined;
  if (facet === undefined) return 1;
  if (Array.isArray(facet.sort)) return Math.max(1, facet.sort.length);
  const values = (spec.data as { values?: Array<Record<string, unknown>> } | undefined)?.values ?? [];
  return Math.max(1, new Set(values.map((v) => v[facet.field ?? ''])).size);
}

/**
 * Splits the charts between the worker and this thread so that both finish together, greedily (the
 * costliest first, each to the side with less work so far). `costHere` is what this thread does besides,
 * `costThere` the time the worker needs before it can start, both in the unit of `costs`.
 */
export function splitCharts(costs: number[], costHere = 0, costThere = 0): boolean[] {
  const far = costs.map(() => false);
  const order = costs.map((_, i) => i).sort((a, b) => costs[b] - costs[a] || a - b);
  let there = costThere;
  let here = costHere;
  for (const i of order) {
    if (there <= here) {
      far[i] = true;
      there += costs[i];
    } else here += costs[i];
  }
  return far;
}

/**
 * Draws the charts marked `far` in the worker (all in one job) and the others here, then closes the worker.
 * The job is sent at once, before this thread loads Vega and before the caller's other work (the page's
 * JSON) takes it: the worker, the longer path, waited 20–130 ms for its job before (traces of VOC det `large`).
 */
async function renderSplit(specs: VegaLiteSpec[], worker: ChartWorker, options: ChartSvgOptions, far: boolean[], beforeEachHere: () => void): Promise<string[]> {
  const there = worker.run({ specs: specs.filter((_, i) => far[i]) }).finally(() => worker.close());
  there.catch(() => undefined);
  // Vega loads here now, in this turn (its bundles run synchronously): before the worker's "loaded" can
  // turn the optimising compiler off, which would make V8 reject the code cache
  if (!far.every(Boolean)) await preloadChartLibraries();
  const here = await renderHere(
    specs.filter((_, i) => !far[i]),
    options,
    beforeEachHere,
  );
  const { svgs, warnings } = await there;
  for (const w of warnings) options.onWarning?.(w);
  return specs.map((_, i) => (far[i] ? svgs.shift()! : here.shift()!));
}
