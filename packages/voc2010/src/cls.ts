import { dirname } from 'node:path';
import { ProblemCollector, isDevkitError, problemsToDiagnostics, type Diagnostic, type Report, type RunContext } from '@cvdevkit/core';
import { precisionRecall, rankDescending } from '@cvdevkit/metrics/ranked';
import { apMetric, apReport, type ApEntry, type ApMetricChoice } from './ap-report.js';
import { decodeText } from '@cvdevkit/formats/text';
import { parseActionList, parseLabelledList, parseLabelledListBytes, type LabelledList } from './image-sets.js';
import { parseActionResults, parseClsResults, type ScoredResults } from './results.js';
import { firstTimeOnly, quote, readBytesInput, readTextInput } from './text.js';
import { scratchBuffer } from '@cvdevkit/formats/text';
import { clsScoresFromBytes } from './cls-scores.js';
import { evaluateClsResultsWithKernel, evaluateClsWithKernel, type ClsKernelRun } from './cls-kernel.js';
import { imageSetHint, resultsHint } from './path-hints.js';
import { nowMs } from './clock.js';
import {
  VOC_ACTIONS,
  VOC_CLASSES,
  actionResultsPath,
  clsResultsPath,
  resolveVocPaths,
  selectNames,
  type VocCommonOptions,
  type VocPaths,
} from './voc-options.js';

/** Options of `voc2010/cls`. */
export interface VocClsOptions extends VocCommonOptions {
  /** Comma-separated subset of the 20 classes (default: all). */
  classes?: string;
}

/** Options of `voc2010/action`. */
export interface VocActionOptions extends VocCommonOptions {
  /** Comma-separated subset of the 9 actions (default: all). */
  actions?: string;
}

/**
 * Puts the scores into the ground-truth list as `VOCevalcls.m` lines 13-32 do: every listed key
 * starts at -Inf, each result line overwrites its key's score (the last line wins), a key that is
 * not listed is a problem (`unrecognized image` / `unrecognized object`).
 */
export function scoresInListOrder(gt: LabelledList, res: ScoredResults, problems: ProblemCollector, what: 'image' | 'object'): Float64Array {
  const out = new Float64Array(gt.keys.length).fill(-Infinity);
  for (let i = 0; i < res.count; i++) {
    const j = gt.index.get(res.keys[i]);
    if (j === undefined) {
      problems.add({
        code: what === 'image' ? 'input/unknown-image' : 'input/unknown-object',
        file: res.file,
        line: res.lines[i],
        expected: what === 'image' ? `an image of ${gt.file}` : `an "<image> <object>" pair of ${gt.file}`,
        found: quote(what === 'image' ? res.keys[i] : res.keys[i].replace('/', ' ')),
        hint: `the official devkit fails with "unrecognized ${what}"`,
      });
    } else out[j] = res.confidence[i];
  }
  return out;
}

/**
 * The curve of `VOCevalcls.m` / `VOCevalaction.m`: rank the list by `sort(-score)` (ties in list
 * order, unscored keys last at -Inf, NaN after them); label > 0 is a TP, < 0 an FP, 0 neither;
 * `rec = cumsum(tp) / sum(label > 0)`.
 */
export function evaluateScoredList(
  labels: Int32Array,
  scores: Float64Array,
  ap: (recall: ArrayLike<number>, precision: ArrayLike<number>) => number,
  key: string,
  ndet: number,
  keepRanking = false,
): ApEntry {
  const n = labels.length;
  const order = rankDescending(scores, { nan: 'last' });
  // the outcome columns are kept only with the ranking; else one pair serves every list
  if (!keepRanking && outcomeScratch.tp.length < n) outcomeScratch = { tp: new Uint8Array(n), fp: new Uint8Array(n) };
  const tp = keepRanking ? new Uint8Array(n) : outcomeScratch.tp.subarray(0, n);
  const fp = keepRanking ? new Uint8Array(n) : outcomeScratch.fp.subarray(0, n);
  const npos = rankedOutcomes(labels, order, tp, fp);
  const { recall, precision } = precisionRecall(tp, fp, npos);
  const entry: ApEntry = { key, recall, precision, ap: ap(recall, precision), npos, ndet };
  if (keepRanking) entry.ranked = { order, tp, fp };
  return entry;
}

let outcomeScratch = { tp: new Uint8Array(0), fp: new Uint8Array(0) };

/**
 * `tp[r]` / `fp[r]` of the entry ranked `r` (label > 0 / < 0); returns the positives (labels > 0). One loop,
 * alone in its function and without branches (compiled while it runs, it meets nothing new after it).
 */
function rankedOutcomes(labels: Int32Array, order: Uint32Array, tp: Uint8Array, fp: Uint8Array): number {
  let npos = 0;
  for (let r = 0; r < order.length; r++) {
    const g = labels[order[r]];
    const pos = g > 0 ? 1 : 0;
    tp[r] = pos;
    fp[r] = g < 0 ? 1 : 0;
    npos += pos;
  }
  return npos;
}

export interface ScoredTaskSpec {
  task: 'voc2010/cls' | 'voc2010/action';
  kind: 'cls' | 'action';
  names: (options: VocClsOptions & VocActionOptions) => string[];
  listPath: (paths: VocPaths, name: string) => string;
  resultsPath: (paths: VocPaths, name: string) => string;
  parseList: typeof parseLabelledList;
  parseResults: typeof parseClsResults;
  what: 'image' | 'object';
  resultsFormat: string;
}

export const CLS_SPEC: ScoredTaskSpec = {
  task: 'voc2010/cls',
  kind: 'cls',
  names: (o) => selectNames(o.classes, VOC_CLASSES, 'classes'),
  listPath: (p, cls) => p.imageSet('Main', `${cls}_${p.set}`),
  resultsPath: clsResultsPath,
  parseList: parseLabelledList,
  parseResults: parseClsResults,
  what: 'image',
  resultsFormat: '"<image> <confidence>" lines',
};

const ACTION_SPEC: ScoredTaskSpec = {
  task: 'voc2010/action',
  kind: 'action',
  names: (o) => selectNames(o.actions, VOC_ACTIONS, 'actions'),
  listPath: (p, act) => p.imageSet('Action', `${act}_${p.set}`),
  resultsPath: actionResultsPath,
  parseList: parseActionList,
  parseResults: parseActionResults,
  what: 'object',
  resultsFormat: '"<image> <object> <confidence>" lines',
};

export interface ScoredInputs {
  paths: VocPaths;
  names: string[];
  lists: (LabelledList | undefined)[];
  scores: (Float64Array | undefined)[];
  counts: number[];
}

/**
 * The ground-truth lists of `names`, in order: from the list cache where a file is unchanged, else read
 * and parsed (each list offered the previous one's keys: the class lists of a set share their ids) and,
 * when it had no problem, kept in the cache.
 */
async function readScoredLists(spec: ScoredTaskSpec, paths: VocPaths, names: string[], problems: ProblemCollector, cacheDir: string | undefined): Promise<(LabelledList | undefined)[]> {
  const files = names.map((n) => spec.listPath(paths, n));
  const cacheModule = cacheDir ? await import('./list-cache.js') : undefined;
  const cache = cacheModule ? await cacheModule.LabelledListCache.open(cacheDir!, dirname(files[0])) : undefined;
  const stamps = cacheModule ? files.map(cacheModule.listStamp) : [];
  const lists: (LabelledList | undefined)[] = files.map((f, k) => cache?.get(f, stamps[k]));
  const listHint = firstTimeOnly(() => imageSetHint(files[0]));
  const todo = files.flatMap((_, k) => (lists[k] ? [] : [k]));
  const expected = (k: number): string => `the ${names[k]} ground-truth list`;
  const clean = spec.kind === 'cls' ? clsListsOneByOne(files, todo, expected, lists.find((l) => l !== undefined)) : undefined;
  if (clean) {
    todo.forEach((k, t) => {
      lists[k] = clean[t];
      if (cache && stamps[k]) cache.put(files[k], stamps[k]!, clean[t]);
    });
    await cache?.save();
    return lists;
  }
  // cls lists are read as bytes (small files, read synchronously); action lists as text
  const inputs: (string | Buffer | undefined)[] =
    spec.kind === 'cls'
      ? todo.map((k) => readBytesInput(files[k], expected(k), problems, listHint))
      : await Promise.all(todo.map((k) => readTextInput(files[k], expected(k), problems, listHint)));
  let previous = lists.find((l) => l !== undefined);
  todo.forEach((k, t) => {
    const input = inputs[t];
    if (input === undefined) return;
    const before = problems.size;
    previous = lists[k] = typeof input === 'string' ? spec.parseList(input, files[k], problems, previous) : parseLabelledListBytes(input, files[k], problems, previous);
    if (cache && stamps[k] && problems.size === before) cache.put(files[k], stamps[k]!, previous);
  });
  await cache?.save();
  return lists;
}

/**
 * The cls lists `todo` read one after another through one scratch buffer (no fresh memory per file: see
 * `ScratchBuffer`), each offered the previous one's keys; undefined when any file had a problem, which the
 * caller then reads again the general way, so that the problems come in its order (every read problem, then
 * every parse problem).
 */
function clsListsOneByOne(files: string[], todo: number[], expected: (k: number) => string, previous: LabelledList | undefined): LabelledList[] | undefined {
  const trial = new ProblemCollector();
  const scratch = scratchBuffer();
  const out: LabelledList[] = [];
  for (const k of todo) {
    const bytes = readBytesInput(files[k], expected(k), trial, undefined, scratch);
    if (bytes === undefined) return undefined;
    previous = parseLabelledListBytes(bytes, files[k], trial, previous, true);
    if (trial.size > 0) return undefined;
    out.push(previous);
  }
  return out;
}

/** The cls results read one after another through one scratch buffer (see `clsListsOneByOne`); undefined on any problem. */
function clsScoresOneByOne(files: string[], expected: (k: number) => string, lists: (LabelledList | undefined)[]): { scores: Float64Array[]; counts: number[] } | undefined {
  const trial = new ProblemCollector();
  const scratch = scratchBuffer();
  const scores: Float64Array[] = [];
  const counts: number[] = [];
  for (let k = 0; k < files.length; k++) {
    const list = lists[k];
    if (list === undefined) return undefined;
    const bytes = readBytesInput(files[k], expected(k), trial, undefined, scratch);
    if (bytes === undefined) return undefined;
    const read = clsScoresFromBytes(bytes, files[k], list, trial);
    if (trial.size > 0) return undefined;
    scores.push(read.scores);
    counts.push(read.count);
  }
  return { scores, counts };
}

export async function readScoredInputs(spec: ScoredTaskSpec, options: VocClsOptions & VocActionOptions, problems: ProblemCollector, cacheDir?: string): Promise<ScoredInputs> {
  const paths = resolveVocPaths(options, spec.kind);
  const names = spec.names(options);
  const lists = await readScoredLists(spec, paths, names, problems, cacheDir);
  const expected = (n: string): string => `the ${n} results: ${spec.resultsFormat}`;
  if (spec.kind === 'cls') {
    const clean = clsScoresOneByOne(
      names.map((n) => spec.resultsPath(paths, n)),
      (k) => expected(names[k]),
      lists,
    );
    if (clean) return { paths, names, lists, scores: clean.scores, counts: clean.counts };
  }
  const resultsFileHint = firstTimeOnly(() => resultsHint(spec.resultsPath(paths, names[0])));
  // cls results are read as bytes, straight into the list's order (one pass, no string per line)
  const inputs: (string | Buffer | undefined)[] =
    spec.kind === 'cls'
      ? names.map((n) => readBytesInput(spec.resultsPath(paths, n), expected(n), problems, resultsFileHint))
      : await Promise.all(names.map((n) => readTextInput(spec.resultsPath(paths, n), expected(n), problems, resultsFileHint)));
  const scores: (Float64Array | undefined)[] = [];
  const counts: number[] = [];
  names.forEach((n, k) => {
    const input = inputs[k];
    if (input === undefined) return;
    const list = lists[k];
    if (typeof input !== 'string') {
      if (!list) return void (counts[k] = countResultsLines(input, spec.resultsPath(paths, n), problems));
      const read = clsScoresFromBytes(input, spec.resultsPath(paths, n), list, problems);
      counts[k] = read.count;
      scores[k] = read.scores;
      return;
    }
    const res = spec.parseResults(input, spec.resultsPath(paths, n), problems);
    counts[k] = res.count;
    if (list) scores[k] = scoresInListOrder(list, res, problems, spec.what);
  });
  return { paths, names, lists, scores, counts };
}

/** A cls results file without its list (the list is missing or unreadable): its line problems and count, as the text reader gives them. */
function countResultsLines(bytes: Buffer, file: string, problems: ProblemCollector): number {
  return parseClsResults(decodeText(bytes, file, 'a results file'), file, problems).count;
}

async function evaluateScored(spec: ScoredTaskSpec, options: VocClsOptions & VocActionOptions, context: RunContext): Promise<Report> {
  const t0 = nowMs();
  const metric = apMetric(context);
  if (spec.kind === 'cls' && !context.perImage) {
    const report = await clsReportWithKernel(spec, options, metric, t0, context.cacheDir);
    if (report) return report;
  }
  const problems = new ProblemCollector();
  const { paths, names, lists, scores, counts } = await readScoredInputs(spec, options, problems, context.cacheDir);
  problems.throwIfAny();
  const t1 = nowMs();
  const entries = names.map((n, k) => evaluateScoredList(lists[k]!.labels, scores[k]!, metric.ap, n, counts[k], context.perImage));
  const t2 = nowMs();
  return apReport({
    task: spec.task,
    metric: metric.name,
    entries,
    timings: { totalMs: t2 - t0, readMs: t1 - t0, evaluateMs: t2 - t1 },
    extra: {
      root: paths.root,
      set: paths.set,
      comp: paths.comp,
      results: paths.resultsDir,
      ...(context.perImage ? { perImage: (await import('./per-image.js')).scoredPerImage(lists as LabelledList[], scores as Float64Array[], entries, metric.name) } : {}),
    },
  });
}

/**
 * `evaluateScored` for cls through the WebAssembly kernel (`cls-kernel.ts`): the same report, or undefined
 * when the inputs are not the kernel's clean case (then the JavaScript readers run and give the messages).
 * With a cache directory the lists come from the list cache (read and kept there the usual way) and the
 * kernel reads the results; without, it reads both.
 */
async function clsReportWithKernel(spec: ScoredTaskSpec, options: VocClsOptions, metric: ApMetricChoice, t0: number, cacheDir: string | undefined): Promise<Report | undefined> {
  const paths = resolveVocPaths(options, spec.kind);
  const names = spec.names(options);
  const results = names.map((n) => spec.resultsPath(paths, n));
  let run: ClsKernelRun | undefined;
  if (cacheDir === undefined) {
    run = evaluateClsWithKernel(
      names.map((n) => spec.listPath(paths, n)),
      results,
      metric.isVocAp,
    );
  } else {
    const trial = new ProblemCollector();
    const lists = await readScoredLists(spec, paths, names, trial, cacheDir);
    if (trial.size === 0 && lists.every((l) => l !== undefined)) run = evaluateClsResultsWithKernel(lists as LabelledList[], results, metric.isVocAp);
  }
  if (run === undefined) return undefined;
  const classes = run.classes;
  const entries = names.map((key, k): ApEntry => {
    const c = classes[k];
    return { key, recall: c.recall, precision: c.precision, ap: metric.isVocAp ? c.ap : metric.ap(c.recall, c.precision), npos: c.npos, ndet: c.ndet };
  });
  const t2 = nowMs();
  const t1 = t2 - run.evaluateMs;
  return apReport({
    task: spec.task,
    metric: metric.name,
    entries,
    timings: { totalMs: t2 - t0, readMs: t1 - t0, evaluateMs: t2 - t1 },
    extra: { root: paths.root, set: paths.set, comp: paths.comp, results: paths.resultsDir },
  });
}

async function validateScored(spec: ScoredTaskSpec, options: VocClsOptions & VocActionOptions): Promise<Diagnostic[]> {
  const problems = new ProblemCollector(1000);
  try {
    await readScoredInputs(spec, options, problems);
  } catch (e) {
    if (!(isDevkitError(e) && e.kind === 'input')) throw e;
  }
  return problemsToDiagnostics(problems, { message: 'bracketed', copyDetails: true });
}

/** `voc2010/cls`: VOCevalcls over the selected classes. */
export function evaluateCls(options: VocClsOptions, context: RunContext): Promise<Report> {
  return evaluateScored(CLS_SPEC, options, context);
}
export function validateCls(options: VocClsOptions): Promise<Diagnostic[]> {
  return validateScored(CLS_SPEC, options);
}

/** `voc2010/action`: VOCevalaction over the selected actions (annotations are not read). */
export function evaluateAction(options: VocActionOptions, context: RunContext): Promise<Report> {
  return evaluateScored(ACTION_SPEC, options, context);
}
export function validateAction(options: VocActionOptions): Promise<Diagnostic[]> {
  return validateScored(ACTION_SPEC, options);
}
