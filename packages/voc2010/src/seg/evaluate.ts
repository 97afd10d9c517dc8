/** `VOCevalseg.m`: confusion matrix and per-class IoU over an image set. */
import { join } from 'node:path';
import {
  ProblemCollector,
  createReport,
  problemsToDiagnostics,
  WorkerPool,
  chooseWorkerCount,
  resolveWorkerScript,
  type Diagnostic,
  type Report,
  type RunContext,
} from '@cvdevkit/core';
import { iouFromConfusion, mean } from '@cvdevkit/metrics';
import { SEG_LABELS, SEG_NUM_LABELS } from './classes.js';
import { SEG_HISTOGRAM_SIZE, histogramToConfusion } from './confusion.js';
import { readSegImageSet, resolveSegPaths, type SegPaths, type VocSegOptions } from './options.js';
import { scanSegBatch, segItems, type SegBatchResult, type SegFolders, type SegImageCounts, type SegItem } from './scan.js';
import { PACKAGE_NAME, PACKAGE_VERSION } from '../version.js';

export interface SegScan {
  paths: SegPaths;
  images: number;
  /** Joint histogram summed over the images. */
  hist: Float64Array;
  pixels: number;
  problems: ProblemCollector;
  allVoid: string[];
  /** Per-image confusion counts, in image-set order (when `context.perImage`). */
  perImage?: SegImageCounts[];
}

/** Images per worker message: big enough to amortise messaging, small enough to balance the threads. */
function batchSize(n: number, workers: number): number {
  return Math.max(1, Math.min(16, Math.ceil(n / (workers * 8))));
}

/** In-thread CPU milliseconds spent on the first batches to measure an image's cost before choosing the thread count. */
const PROBE_CPU_MS = 100;
/** CPU milliseconds one more worker thread costs before its first image (thread start, PNG decoder loading). */
const WORKER_START_CPU_MS = 100;

/**
 * The threads (this one included) for the batches: `context.workers` as the user gave it (`--workers`); by
 * default (`workersAuto`) the first batches are scanned here (`scanHere`) until PROBE_CPU_MS of CPU is spent,
 * then `chooseWorkerCount` decides from their measured cost whether threads pay for the rest.
 */
function chooseSegThreads(batches: string[][], context: RunContext, scanHere: (until: () => boolean) => void, scanned: () => number): number {
  const cap = Math.min(context.workers, batches.length);
  if (cap <= 1 || context.workersAuto !== true) return cap;
  const c0 = process.cpuUsage();
  const spent = () => {
    const c = process.cpuUsage(c0);
    return (c.user + c.system) / 1000;
  };
  scanHere(() => spent() >= PROBE_CPU_MS);
  const done = scanned();
  if (done >= batches.length) return 1;
  let images = 0;
  for (let b = 0; b < done; b++) images += batches[b].length;
  let imagesLeft = 0;
  for (let b = done; b < batches.length; b++) imagesLeft += batches[b].length;
  return chooseWorkerCount({ cap, units: imagesLeft, unitCpuMs: images > 0 ? spent() / images : 0, workerCpuMs: WORKER_START_CPU_MS });
}

/** Reads, checks and counts every image of the set (in worker threads when they pay for themselves, `chooseSegThreads`). */
export async function scanSegmentation(options: VocSegOptions, context: RunContext): Promise<SegScan> {
  const paths = resolveSegPaths(options);
  const ids = await readSegImageSet(paths.imageSet);
  const perImage = context.perImage === true;
  // a batch's items (its paths) are made when it is scanned: a run never holds 2,000 paths at once
  const items = (batch: string[]): SegItem[] => segItems(batch, paths, perImage);
  const imageCounts: SegImageCounts[] = [];
  const hist = new Float64Array(SEG_HISTOGRAM_SIZE);
  const problems = new ProblemCollector();
  const allVoid: string[] = [];
  let pixels = 0;
  const add = (r: SegBatchResult) => {
    for (let i = 0; i < SEG_HISTOGRAM_SIZE; i++) hist[i] += r.hist[i];
    pixels += r.pixels;
    for (const p of r.problems) problems.add(p);
    allVoid.push(...r.allVoid);
    if (r.images) imageCounts.push(...r.images);
  };

  context.progress.begin('segmentation images', ids.length);
  try {
    const size = batchSize(ids.length, context.workers);
    const batches: string[][] = [];
    for (let i = 0; i < ids.length; i += size) batches.push(ids.slice(i, i + size));
    let first = 0;
    const folders: SegFolders = new Map();
    const scanHere = (until: () => boolean) => {
      for (; first < batches.length && !until(); first++) {
        if (context.signal.aborted) throw context.signal.reason ?? new Error('aborted');
        add(scanSegBatch(items(batches[first]), folders));
        context.progress.advance(batches[first].length);
      }
    };
    const workers = chooseSegThreads(batches, context, scanHere, () => first);
    if (workers <= 1 || first >= batches.length) scanHere(() => false);
    else {
      // `workers - 1` threads plus the main thread pull batches from one queue; results are added in
      // input order afterwards so problems are listed in image-set order.
      const script = resolveWorkerScript(import.meta.url, './seg.worker.js');
      const pool = new WorkerPool<SegItem[], SegBatchResult>(script, { workers: workers - 1, signal: context.signal });
      const results = new Array<SegBatchResult>(batches.length);
      let next = first;
      const threadLane = async () => {
        while (next < batches.length) {
          const b = next++;
          results[b] = await pool.run(items(batches[b]));
          context.progress.advance(batches[b].length);
        }
      };
      const mainLane = async () => {
        while (next < batches.length) {
          if (context.signal.aborted) throw context.signal.reason ?? new Error('aborted');
          const b = next++;
          results[b] = scanSegBatch(items(batches[b]), folders);
          context.progress.advance(batches[b].length);
          await new Promise((resolve) => setImmediate(resolve)); // let worker replies through
        }
      };
      try {
        await Promise.all([mainLane(), ...Array.from({ length: pool.size }, threadLane)]);
      } finally {
        await pool.close();
      }
      for (let b = first; b < batches.length; b++) add(results[b]);
    }
  } finally {
    context.progress.end();
  }
  return { paths, images: ids.length, hist, pixels, problems, allVoid, ...(perImage ? { perImage: imageCounts } : {}) };
}

function allVoidDiagnostics(scan: SegScan): Diagnostic[] {
  return scan.allVoid.map((id) => ({
    severity: 'warning',
    code: 'seg/all-void',
    message: `ground truth of '${id}' is entirely void (255): it contributes nothing (the official code under Octave fails on such an image)`,
    file: join(scan.paths.gtDir, `${id}.png`),
  }));
}

/** Scores a segmentation submission; invalid or missing result images raise one DevkitError listing all problems. */
export async function evaluateSegmentation(options: VocSegOptions, context: RunContext): Promise<Report> {
  const t0 = performance.now();
  const scan = await scanSegmentation(options, context);
  scan.problems.throwIfAny();
  // loaded only for --per-image (it needs the rest of @cvdevkit/metrics)
  const segPerImage = scan.perImage ? (await import('./per-image.js')).segPerImage : undefined;
  const t1 = performance.now();
  const counts = histogramToConfusion(scan.hist);
  const iou = iouFromConfusion(counts, SEG_NUM_LABELS);
  const mIoU = mean(iou);
  const matrix: number[][] = [];
  for (let g = 0; g < SEG_NUM_LABELS; g++) matrix.push(Array.from(counts.subarray(g * SEG_NUM_LABELS, (g + 1) * SEG_NUM_LABELS)));
  return createReport({
    dataset: 'voc2010',
    task: 'voc2010/seg',
    metric: 'iou-voc2010',
    summary: { mIoU: Number.isNaN(mIoU) ? null : mIoU },
    rows: SEG_LABELS.map((key, j) => ({ key, iou: iou[j] })),
    matrices: { confusion: { labels: [...SEG_LABELS], counts: matrix } },
    diagnostics: allVoidDiagnostics(scan),
    versions: { [PACKAGE_NAME]: PACKAGE_VERSION },
    timings: { totalMs: performance.now() - t0, scanMs: t1 - t0 },
    extra: {
      images: scan.images,
      pixels: scan.pixels,
      set: scan.paths.set,
      comp: scan.paths.comp,
      ...(scan.perImage && segPerImage ? { perImage: segPerImage(scan.perImage, [...SEG_LABELS]) } : {}),
    },
  });
}

/** Checks a segmentation submission without scoring: every problem as an error diagnostic. */
export async function validateSegmentation(options: VocSegOptions, context: RunContext): Promise<Diagnostic[]> {
  const scan = await scanSegmentation(options, context);
  // The file is a field of its own (the CLI prints `file: message`); the pixel stays in the text.
  return [...problemsToDiagnostics(scan.problems, { fields: ['file', 'pixel'], message: 'bracketed' }), ...allVoidDiagnostics(scan)];
}
