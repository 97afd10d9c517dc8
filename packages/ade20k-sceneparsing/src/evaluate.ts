/**
 * `ade20k/sceneparsing`: evaluate, validate and merge. The images are read and counted in worker threads
 * (`context.workers`; in this thread when 1) and put back in the official file order before the totals.
 */
import { join } from 'node:path';
import {
  ProblemCollector,
  createReport,
  mapInWorkers,
  problemsToDiagnostics,
  readPackageIdentity,
  resolveWorkerScript,
  inputError,
  isDevkitError,
  usageError,
  type Diagnostic,
  type Report,
  type RunContext,
} from '@cvdevkit/core';
import { listingHash, mergeCountsFiles, writeCountsFile, COUNTS_FORMAT, COUNTS_VERSION } from './counts-file.js';
import { evaluateImage, type ImageResult, type ImageTask } from './image-task.js';
import type { SceneParsingOptions } from './options.js';
import { requireFolder } from '@cvdevkit/formats';
import { parseShard, planEntries, shardRange, type PlanEntry, type Shard } from './plan.js';
import { recordDiagnostics, type EntryRecord, type RunSettings } from './records.js';
import { METRIC, TASK_ID, reportFromRecords } from './report.js';

/** This package's name and version (from its package.json). */
export const PACKAGE = readPackageIdentity(new URL('../package.json', import.meta.url));

interface Plan {
  settings: RunSettings;
  entries: PlanEntry[];
  shard?: Shard;
  start: number;
  end: number;
}

function makePlan(options: SceneParsingOptions): Plan {
  const shard = options.shard !== undefined ? parseShard(options.shard) : undefined;
  if (shard && shard.count > 1 && !options.countsOut) {
    throw usageError('--shard needs --counts-out <file>: a shard writes its counts there for cvdevkit merge ade20k/sceneparsing', 'usage/missing-option');
  }
  const gtDir = requireFolder(options.gt, 'gt', 'the ground-truth folder (annotations/validation: <image>.png)');
  const predDir = requireFolder(options.pred, 'pred', 'the predictions folder (<image>.png, named as the ground truth)');
  const entries = planEntries(gtDir, predDir);
  const [start, end] = shardRange(entries.length, shard);
  return { settings: { gtDir, predDir, missingAsWrong: options.missingAsWrong === true }, entries, shard, start, end };
}

/** The image to read for an entry, or null when the entry is skipped without reading anything. */
function imageTask(plan: Plan, e: PlanEntry): ImageTask | null {
  if (!e.hasGt) return null;
  if (!e.hasPred && !plan.settings.missingAsWrong) return null;
  return { gtFile: join(plan.settings.gtDir, e.name), predFile: e.hasPred ? join(plan.settings.predDir, e.name) : null, missingAsWrong: plan.settings.missingAsWrong };
}

/** Reads and counts the plan's block of images; every input problem of the block is collected (not only the first). */
async function runPlan(plan: Plan, context: RunContext, label: string): Promise<{ records: EntryRecord[]; collector: ProblemCollector }> {
  const block = plan.entries.slice(plan.start, plan.end);
  const tasks: { at: number; task: ImageTask }[] = [];
  block.forEach((e, at) => {
    const task = imageTask(plan, e);
    if (task) tasks.push({ at, task });
  });
  const results = new Array<ImageResult | undefined>(block.length);
  context.progress.begin(label, tasks.length);
  try {
    const workers = Math.max(1, Math.min(context.workers, tasks.length));
    if (workers <= 1) {
      for (const { at, task } of tasks) {
        if (context.signal.aborted) throw usageError('evaluation aborted', 'usage/aborted');
        results[at] = evaluateImage(task);
        context.progress.advance(1);
        await new Promise<void>((r) => setImmediate(r));
      }
    } else {
      const out = await mapInWorkers<ImageTask, ImageResult>(resolveWorkerScript(import.meta.url, './image.worker.js'), tasks.map((t) => t.task), {
        workers,
        signal: context.signal,
        onResult: () => context.progress.advance(1),
      }).catch((e: unknown) => {
        throw context.signal.aborted ? usageError('evaluation aborted', 'usage/aborted') : e;
      });
      tasks.forEach(({ at }, k) => (results[at] = out[k]));
    }
  } finally {
    context.progress.end();
  }
  const collector = new ProblemCollector(200);
  const records: EntryRecord[] = block.map((e, at) => {
    const r = results[at];
    if (!e.hasGt) return { ...e, outcome: 'skipped-no-gt' };
    if (r === undefined) return { ...e, outcome: 'skipped-no-pred' };
    for (const p of r.problems) collector.add(p);
    if (r.outcome === 'failed') return { ...e, outcome: 'evaluated' }; // never reported: the collector throws
    return r.counts !== undefined ? { ...e, outcome: r.outcome, counts: r.counts } : { ...e, outcome: r.outcome };
  });
  return { records, collector };
}

/** No image scored at all: the official code fails (`IoU(1): out of bound`); we say why. */
function noImageError(plan: Plan, records: readonly EntryRecord[]): never {
  const preds = records.filter((r) => r.hasPred).length;
  const found =
    plan.entries.length === 0
      ? 'no *.png file in either folder'
      : preds === 0
        ? 'no *.png file in the predictions folder'
        : `${preds} prediction file${preds === 1 ? '' : 's'}, none with a usable ground truth of the same name and a greyscale prediction`;
  throw inputError({
    code: 'input/no-images',
    file: plan.settings.predDir,
    expected: 'at least one prediction <image>.png with a ground truth of the same name (the official code fails when it evaluates none)',
    found,
  });
}

/** `cvdevkit eval ade20k/sceneparsing`: the report, or (with --shard i/n) the shard's counts file and a short report. */
export async function evaluateSceneParsing(options: SceneParsingOptions, context: RunContext): Promise<Report> {
  const t0 = performance.now();
  const plan = makePlan(options);
  const label = plan.shard ? `${TASK_ID} shard ${plan.shard.index}/${plan.shard.count}` : TASK_ID;
  const { records, collector } = await runPlan(plan, context, label);
  collector.throwIfAny();
  const t1 = performance.now();
  const metric = context.metric ?? METRIC;
  if (options.countsOut) {
    const shard = plan.shard ?? { index: 1, count: 1 };
    writeCountsFile(options.countsOut, {
      format: COUNTS_FORMAT,
      version: COUNTS_VERSION,
      producer: `${PACKAGE.name}@${PACKAGE.version}`,
      settings: plan.settings,
      listing: listingHash(plan.entries),
      total: plan.entries.length,
      shard,
      start: plan.start,
      end: plan.end,
      entries: records,
    });
  }
  if (plan.shard && plan.shard.count > 1) {
    const scored = records.filter((r) => r.counts !== undefined).length;
    return createReport({
      dataset: 'ade20k',
      task: TASK_ID,
      metric,
      summary: { shard: plan.shard.index, shards: plan.shard.count, files: records.length, filesTotal: plan.entries.length, images: scored },
      diagnostics: [
        {
          severity: 'info',
          code: 'ade20k/shard',
          file: options.countsOut,
          message: `shard ${plan.shard.index}/${plan.shard.count}: ${records.length} of ${plan.entries.length} files (${scored} images scored) written to ${options.countsOut}; combine all shards with: cvdevkit merge ${TASK_ID} <file1> <file2> …`,
        },
      ],
      versions: { [PACKAGE.name]: PACKAGE.version },
      timings: { totalMs: performance.now() - t0, evaluateMs: t1 - t0 },
    });
  }
  if (!records.some((r) => r.counts !== undefined)) noImageError(plan, records);
  const report = reportFromRecords(records, plan.settings, { metric, packageName: PACKAGE.name, version: PACKAGE.version, perImage: context.perImage === true });
  report.timings = { totalMs: performance.now() - t0, evaluateMs: t1 - t0, scoreMs: performance.now() - t1 };
  return report;
}

/** `cvdevkit validate ade20k/sceneparsing`: every file read and checked, nothing scored; skips are warnings. */
export async function validateSceneParsing(options: SceneParsingOptions, context: RunContext): Promise<Diagnostic[]> {
  const plan = makePlan(options);
  const { records, collector } = await runPlan(plan, context, `${TASK_ID} validate`);
  const errors = problemsToDiagnostics(collector, { fields: ['file'] });
  if (collector.size === 0 && !records.some((r) => r.counts !== undefined)) {
    try {
      noImageError(plan, records);
    } catch (e) {
      if (!isDevkitError(e)) throw e;
      errors.push(...problemsToDiagnostics(e, { fields: ['file'] }));
    }
  }
  // the skips (missing files, truecolour predictions) are warnings, as in the report
  return [...errors, ...recordDiagnostics(records, plan.settings)];
}

/** `cvdevkit merge ade20k/sceneparsing <counts files…>`: the shards' counts → the report of the whole run. */
export async function mergeSceneParsing(files: readonly string[], context: RunContext): Promise<Report> {
  const t0 = performance.now();
  if (files.length === 0) throw usageError('merge: expected the counts files of the shards', 'usage/missing-argument');
  const { settings, records } = mergeCountsFiles(files);
  if (!records.some((r) => r.counts !== undefined)) {
    noImageError({ settings, entries: records, start: 0, end: records.length }, records);
  }
  const report = reportFromRecords(records, settings, { metric: context.metric ?? METRIC, packageName: PACKAGE.name, version: PACKAGE.version, perImage: context.perImage === true });
  report.timings = { totalMs: performance.now() - t0 };
  return report;
}
