import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  ProblemCollector,
  WorkerPool,
  chooseWorkerCount,
  createReport,
  problemsToDiagnostics,
  inputError,
  resolveWorkerScript,
  usageError,
  type Diagnostic,
  type Problem,
  type Report,
  type RunContext,
} from '@cvdevkit/core';
import { boundaryThresholds } from '@cvdevkit/boundary';
import { ADE20K_CLASS_COUNT, classKey } from './classes.js';
import { entryKey, storeCounts, readAndMergeCountsFiles, resolveCountsFiles, writeCountsFile, type BoundaryCountSet, type StoredCounts } from './counts.js';
import { parseShard, requireFolder, shardRange, type Shard } from '@cvdevkit/formats';
import { checkSeed, parseClassList, type Ade20kBoundaryMergeOptions, type Ade20kBoundaryOptions } from './options.js';
import { reportFromCounts } from './report.js';
import { PACKAGE_NAME, PACKAGE_VERSION } from './version.js';
import { UnitEvaluator, type UnitResult, type UnitTask } from './unit.js';

/** The images of an evaluation: the sorted `*.mat` names of the GT folder (`dir(gtDir/*.mat)`). */
export function listImages(gtDir: string): string[] {
  const images = readdirSync(gtDir)
    .filter((f) => f.endsWith('.mat'))
    .map((f) => f.slice(0, -4))
    .sort();
  if (images.length === 0) {
    throw inputError({ code: 'input/no-images', file: gtDir, expected: 'ground-truth files <image>.mat (annotations_boundary/validation)', found: 'no .mat file' });
  }
  return images;
}

/** Every class folder must hold a PNG for every GT image (`evaluate_imgs.m:18`); reports all gaps at once. */
export function checkPredictionFiles(predDir: string, images: readonly string[], classes: readonly number[], collector: ProblemCollector): void {
  for (const cls of classes) {
    const folder = join(predDir, classKey(cls));
    let names: Set<string>;
    try {
      names = new Set(readdirSync(folder));
    } catch {
      collector.add({ code: 'input/missing-prediction', file: folder, expected: `a folder ${classKey(cls)} with ${images.length} PNG files`, found: 'no such folder' });
      continue;
    }
    const missing = images.filter((im) => !names.has(`${im}.png`));
    if (missing.length === 0) continue;
    if (missing.length === images.length) {
      collector.add({ code: 'input/missing-prediction', file: folder, expected: `${images.length} PNG files <image>.png`, found: 'none of them' });
    } else {
      for (const im of missing) collector.add({ code: 'input/missing-prediction', file: join(folder, `${im}.png`), expected: 'a prediction PNG for every GT image', found: 'no such file' });
    }
  }
}

interface Plan {
  gtDir: string;
  predDir: string;
  seed: number;
  images: string[];
  classes: number[];
  shard?: Shard;
  /** Unit u = (image floor(u / classes.length), class classes[u % classes.length]). */
  start: number;
  end: number;
}

function makePlan(options: Ade20kBoundaryOptions): Plan {
  const seed = checkSeed(options.seed);
  const shard = options.shard !== undefined ? parseShard(options.shard) : undefined;
  const classes = options.classes !== undefined && options.classes !== '' ? parseClassList(options.classes) : Array.from({ length: ADE20K_CLASS_COUNT }, (_, i) => i + 1);
  if (shard && shard.count > 1 && !options.countsOut) {
    throw usageError('--shard needs --counts-out <file>: a shard writes its counts there for cvdevkit merge ade20k/boundary', 'usage/missing-option');
  }
  const gtDir = requireFolder(options.gt, 'gt', 'the ground-truth folder annotations_boundary/validation');
  const predDir = requireFolder(options.pred, 'pred', 'the predictions folder holding class_001 … class_150');
  const images = listImages(gtDir);
  const [start, end] = shardRange(images.length * classes.length, shard);
  return { gtDir, predDir, seed, images, classes, shard, start, end };
}

/** Units [u, u + n) of the plan as one task (all of one image). */
function unitTask(plan: Plan, u: number, checkOnly: boolean, n = 1): UnitTask {
  const k = plan.classes.length;
  return { gtDir: plan.gtDir, predDir: plan.predDir, image: plan.images[Math.floor(u / k)], classes: plan.classes.slice(u % k, (u % k) + n), seed: plan.seed, checkOnly };
}

/** In-thread CPU milliseconds spent on the first units to measure their cost before choosing the worker count. */
const PROBE_CPU_MS = 300;
/**
 * CPU milliseconds a unit worker costs before its units: thread start, module loading, the cold JIT of its first
 * unit (measured: 220 - 280 ms at 512x683 on the 2-core VM under load; README, Speed). Each worker also decodes
 * again the ground truth of the images it touches (measured on the probe).
 */
const WORKER_START_CPU_MS = 250;

/**
 * Runs units [start, end) of the plan, in order, in this thread or on worker threads. With `--workers n` (not
 * `workersAuto`): n threads (in this thread when 1). By default: the first units run here until PROBE_CPU_MS of
 * CPU is spent, then `chooseWorkerCount` decides from their measured cost whether threads pay for the rest (never
 * more than the cores other programs leave idle, and only when their own cost stays within 10% of the work).
 * After the first input problem the remaining units are only checked, so one run reports every bad file.
 */
async function runUnits(plan: Plan, context: RunContext, checkOnly: boolean, onResult: (u: number, r: UnitResult) => void): Promise<void> {
  const total = plan.end - plan.start;
  let failed = checkOnly;
  const handle = (u: number, r: UnitResult, n = 1) => {
    if (r.problems.length > 0) failed = true;
    onResult(u, r);
    context.progress.advance(n);
  };
  let first = plan.start;
  let workers = Math.max(1, Math.min(context.workers, total));
  const evaluator = new UnitEvaluator();
  const runHere = async (until: (u: number) => boolean): Promise<void> => {
    for (; first < plan.end && !until(first); first++) {
      if (context.signal.aborted) throw usageError('evaluation aborted', 'usage/aborted');
      handle(first, evaluator.evaluate(unitTask(plan, first, failed)));
      if ((first & 7) === 7) await new Promise((r) => setImmediate(r));
    }
  };
  if (workers > 1 && context.workersAuto === true) {
    const c0 = process.cpuUsage();
    const spent = () => {
      const c = process.cpuUsage(c0);
      return (c.user + c.system) / 1000;
    };
    await runHere(() => spent() >= PROBE_CPU_MS);
    const done = first - plan.start;
    const left = plan.end - first;
    const imagesLeft = Math.ceil(left / plan.classes.length);
    const gtMs = evaluator.gtReads > 0 ? evaluator.gtCpuMs / evaluator.gtReads : 0;
    // with fewer than 8 images per worker a task is less than an image, and every worker decodes about every GT
    const sharedImages = imagesLeft <= 8 * context.workers ? imagesLeft : 0;
    workers = chooseWorkerCount({
      cap: context.workers,
      units: left,
      unitCpuMs: done > 0 ? spent() / done : 0,
      workerCpuMs: WORKER_START_CPU_MS + sharedImages * gtMs,
    });
  }
  if (workers <= 1 || first >= plan.end) {
    await runHere(() => false);
    return;
  }
  const pool = new WorkerPool<UnitTask, UnitResult>(resolveWorkerScript(import.meta.url, './unit.worker.js'), { workers, signal: context.signal });
  try {
    let next = first;
    const window = workers * 2;
    // A task is a run of units of one image (its GT decoded once for all of them): about 8 tasks per worker, at
    // most a whole image, so that on many cores a worker does not decode again the GT of every image.
    const k = plan.classes.length;
    const batch = Math.max(1, Math.min(k, Math.ceil((plan.end - first) / (workers * 8))));
    await new Promise<void>((resolve, reject) => {
      let inFlight = 0;
      let stopped = false;
      const pump = () => {
        while (!stopped && inFlight < window && next < plan.end) {
          const u = next;
          const n = Math.min(batch, (Math.floor(u / k) + 1) * k - u, plan.end - u);
          next += n;
          inFlight++;
          pool.run(unitTask(plan, u, failed, n)).then(
            (r) => {
              inFlight--;
              try {
                handle(u, r, n);
              } catch (e) {
                stopped = true;
                reject(e);
                return;
              }
              if (next >= plan.end && inFlight === 0) resolve();
              else pump();
            },
            (e: unknown) => {
              stopped = true;
              reject(context.signal.aborted ? usageError('evaluation aborted', 'usage/aborted') : e);
            },
          );
        }
      };
      if (next >= plan.end) resolve();
      else pump();
    });
  } finally {
    await pool.close();
  }
}

function notesToDiagnostics(notes: Set<string>): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const n of notes) {
    if (out.length >= 20) {
      out.push({ severity: 'warning', code: 'ade20k/png-depth', message: `… and ${notes.size - 20} more low-bit-depth PNG files` });
      break;
    }
    out.push({ severity: 'warning', code: 'ade20k/png-depth', message: n });
  }
  return out;
}

function dedupe(problems: Problem[], collector: ProblemCollector, seen: Set<string>): void {
  for (const p of problems) {
    const key = JSON.stringify(p);
    if (seen.has(key)) continue;
    seen.add(key);
    collector.add(p);
  }
}

/** `ade20k/boundary`: evaluates (a shard of) the submission; writes the counts file when asked. */
export async function evaluateAde20kBoundary(options: Ade20kBoundaryOptions, context: RunContext): Promise<Report> {
  const t0 = performance.now();
  const plan = makePlan(options);
  const collector = new ProblemCollector();
  const shardClasses = [...new Set(Array.from({ length: plan.end - plan.start }, (_, i) => plan.classes[(plan.start + i) % plan.classes.length]))];
  const shardImages = [...new Set(Array.from({ length: plan.end - plan.start }, (_, i) => plan.images[Math.floor((plan.start + i) / plan.classes.length)]))];
  checkPredictionFiles(plan.predDir, shardImages, shardClasses.sort((a, b) => a - b), collector);
  // missing files: report every other bad file of the run with them (as validate), not on the next run
  if (collector.problems.length > 0) await collectUnitProblems(plan, context, collector);
  collector.throwIfAny();

  const thresholds = boundaryThresholds();
  const entries = new Map<string, StoredCounts>();
  const notes = new Set<string>();
  const seen = new Set<string>();
  const imageIndex = new Map(plan.images.map((im, i) => [im, i]));
  const t1 = performance.now();
  context.progress.begin(plan.shard ? `ade20k/boundary shard ${plan.shard.index}/${plan.shard.count}` : 'ade20k/boundary', plan.end - plan.start);
  try {
    await runUnits(plan, context, false, (_u, r) => {
      dedupe(r.problems, collector, seen);
      for (const n of r.notes) notes.add(n);
      const im = imageIndex.get(r.image)!;
      for (const c of r.counts) entries.set(entryKey(im, c.cls), storeCounts(c.cls, c));
    });
  } finally {
    context.progress.end();
  }
  collector.throwIfAny();
  const t2 = performance.now();

  const set: BoundaryCountSet = { seed: plan.seed, thresholds, images: plan.images, classes: plan.classes, entries, ...(plan.shard ? { shard: plan.shard } : {}) };
  if (options.countsOut) writeCountsFile(options.countsOut, set, `${PACKAGE_NAME}@${PACKAGE_VERSION}`);
  const diagnostics = notesToDiagnostics(notes);
  if (plan.shard && plan.shard.count > 1) {
    const units = plan.end - plan.start;
    return createReport({
      dataset: 'ade20k',
      task: 'ade20k/boundary',
      metric: context.metric ?? 'bsds-ods',
      summary: { shard: plan.shard.index, shards: plan.shard.count, units, unitsTotal: plan.images.length * plan.classes.length, seed: plan.seed },
      diagnostics: [
        ...diagnostics,
        {
          severity: 'info',
          code: 'ade20k/shard',
          message: `shard ${plan.shard.index}/${plan.shard.count}: ${units} (image, class) units written to ${options.countsOut}; combine all shards with: cvdevkit merge ade20k/boundary <file1> <file2> …`,
          file: options.countsOut,
        },
      ],
      versions: { [PACKAGE_NAME]: PACKAGE_VERSION },
      timings: { totalMs: performance.now() - t0, evaluateMs: t2 - t1 },
    });
  }
  const report = reportFromCounts(set, {
    metric: context.metric ?? 'bsds-ods',
    version: PACKAGE_VERSION,
    debugCounts: options.debugCounts === true,
    perImage: context.perImage === true,
    diagnostics,
  });
  const t3 = performance.now();
  report.timings = { totalMs: t3 - t0, evaluateMs: t2 - t1, scoreMs: t3 - t2 };
  return report;
}

/**
 * Reads every GT and prediction of the plan's units without scoring and adds their problems (wrong size,
 * RGB, unreadable) to those the file scan found, leaving out the files and folders it already reported missing.
 */
async function collectUnitProblems(plan: Plan, context: RunContext, collector: ProblemCollector): Promise<void> {
  const seen = new Set<string>();
  const missing = new Set(collector.problems.map((p) => p.file));
  context.progress.begin('ade20k/boundary validate', plan.end - plan.start);
  try {
    await runUnits(plan, context, true, (_u, r) =>
      dedupe(
        r.problems.filter((p) => !(p.file !== undefined && (missing.has(p.file) || missing.has(dirname(p.file))))),
        collector,
        seen,
      ),
    );
  } finally {
    context.progress.end();
  }
}

/** `validate`: reads every GT and prediction of the run (sizes, PNG formats) without scoring. */
export async function validateAde20kBoundary(options: Ade20kBoundaryOptions, context: RunContext): Promise<Diagnostic[]> {
  const plan = makePlan(options);
  const collector = new ProblemCollector(200);
  checkPredictionFiles(plan.predDir, plan.images, plan.classes, collector);
  await collectUnitProblems(plan, context, collector);
  // the location is in `file` (the CLI prints it first); the message says what is wrong
  return problemsToDiagnostics(collector.problems, { fields: ['file'] });
}

/**
 * The one merge path: counts files (shards of one evaluation) into the final report, bit-identical to a
 * single run. `files`: paths (or folders) of counts files written with `countsOut`, or one string of
 * comma-separated paths. Both `cvdevkit merge ade20k/boundary <files…>` (the task's `merge` hook) and
 * the deprecated `ade20k/boundary-merge` task call it.
 */
export function mergeBoundaryCounts(files: string | readonly string[], options: { debugCounts?: boolean; metric?: string; perImage?: boolean } = {}): Report {
  const t0 = performance.now();
  const set = readAndMergeCountsFiles(resolveCountsFiles(files));
  const report = reportFromCounts(set, {
    task: 'ade20k/boundary',
    metric: options.metric ?? 'bsds-ods',
    version: PACKAGE_VERSION,
    debugCounts: options.debugCounts === true,
    perImage: options.perImage === true,
  });
  report.timings = { totalMs: performance.now() - t0 };
  return report;
}

/** The `merge` hook of `ade20k/boundary` (`cvdevkit merge ade20k/boundary <files…>`). */
export async function mergeAde20kBoundaryShards(files: readonly string[], context: RunContext): Promise<Report> {
  return mergeBoundaryCounts(files, { metric: context.metric, perImage: context.perImage });
}

/** The warning of the deprecated `ade20k/boundary-merge` task. */
export const BOUNDARY_MERGE_DEPRECATED =
  'ade20k/boundary-merge is deprecated and will be removed in the next minor release: use `cvdevkit merge ade20k/boundary <counts files…>` (the same report)';

/**
 * `ade20k/boundary-merge --counts <files>`: a deprecated alias of `cvdevkit merge ade20k/boundary` for one
 * release (the same merge, the same report, plus a warning saying what to run instead).
 */
export async function mergeAde20kBoundary(options: Ade20kBoundaryMergeOptions, context: RunContext): Promise<Report> {
  if (typeof options.counts !== 'string' || options.counts === '') throw usageError('--counts: expected counts files (comma-separated) or a folder', 'usage/missing-option');
  const report = mergeBoundaryCounts(options.counts, { debugCounts: options.debugCounts, metric: context.metric, perImage: context.perImage });
  report.diagnostics.push({ severity: 'warning', code: 'ade20k/deprecated-task', message: BOUNDARY_MERGE_DEPRECATED });
  return report;
}
