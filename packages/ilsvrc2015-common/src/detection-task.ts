import { statSync } from 'node:fs';
import {
  createReport,
  createRunContext,
  problemsToDiagnostics,
  inputError,
  isDevkitError,
  usageError,
  type Diagnostic,
  type Report,
  readPackageIdentity, type RunContext, type ErrorCode } from '@cvdevkit/core';
import { evaluateDetections, type DetectionEvalResult } from './evaluate.js';
import { detectionPerImage } from './per-image.js';
import { readGroundTruthCache, readGroundTruthXml, type GroundTruth } from './ground-truth.js';
import { readBlacklist, readImageList, readPredictions, type Blacklist, type ImageList, type Predictions } from './inputs.js';
import { checkGroundTruthClasses, readSynsets, type Synsets } from './meta.js';

/** This library's package name and version, for the `versions` of the reports it helps build. */
const IDENTITY = readPackageIdentity(new URL('../package.json', import.meta.url));
export const PACKAGE_NAME: string = IDENTITY.name;
export const VERSION: string = IDENTITY.version;

/** The official metric: VOCap area AP per class with the ILSVRC matching rule. */
export const ILSVRC_AP = 'ilsvrc-ap';

/** What differs between the DET and VID evaluations. */
export interface DetectionTaskSettings {
  task: string;
  dataset: string;
  packageName: string;
  version: string;
  /** Concatenation order before the global sort (`index` = eval_detection.m, `line` = STMN VID). */
  order: 'index' | 'line';
  /** Predictions on images not in the list: error (DET) or dropped (VID). */
  outside: 'error' | 'drop';
  /** VID: leave out frames that hold a generated box (needs XML). */
  excludeGenerated?: boolean;
  /** Extra versions for the report. */
  versions?: Record<string, string>;
}

export interface DetectionTaskInputs {
  pred: string;
  meta: string;
  list?: string;
  gt: string;
  blacklist?: string;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function checkMetric(context: RunContext): string {
  const m = context.metric ?? ILSVRC_AP;
  if (m !== ILSVRC_AP) throw usageError(`unknown metric "${m}" for this task`, 'usage/unknown-metric', `the ILSVRC detection tasks accept only ${ILSVRC_AP}`);
  return m;
}

/** What `readDetectionInputs` read: the submission, and the ground truth (parsing in workers, or a cache). */
interface ReadInputs {
  synsets: Synsets;
  list?: ImageList;
  predictions: Predictions;
  blacklist?: Blacklist;
  /** XML ground truth being parsed by worker threads (undefined: read the cache `inputs.gt`). */
  gtXml?: Promise<GroundTruth>;
}

/**
 * Phase 1, read inputs: meta, list, predictions and blacklist. XML ground truth is parsed by worker
 * threads while this thread reads the submission; a bad submission stops that parse.
 */
function readDetectionInputs(inputs: DetectionTaskInputs, settings: DetectionTaskSettings, context: RunContext): ReadInputs {
  for (const k of ['pred', 'meta', 'gt'] as const) {
    if (!inputs[k]) throw usageError(`missing option --${k}`, 'usage/missing-option');
  }
  const synsets = readSynsets(inputs.meta);
  const useCache = isFile(inputs.gt) && /\.mat$/i.test(inputs.gt);
  let list: ImageList | undefined;
  if (inputs.list) list = readImageList(inputs.list);
  else if (!useCache) throw usageError('missing option --list (the image list is needed to read XML ground truth)', 'usage/missing-option');
  let gtXml: Promise<GroundTruth> | undefined;
  const stopGt = new AbortController();
  if (!useCache) {
    const onAbort = () => stopGt.abort();
    context.signal.addEventListener('abort', onAbort, { once: true });
    gtXml = readGroundTruthXml(inputs.gt, list!, synsets, { ...context, signal: stopGt.signal }, settings.version);
    gtXml.catch(() => undefined).finally(() => context.signal.removeEventListener('abort', onAbort));
  } else if (settings.excludeGenerated) {
    throw usageError('--exclude-generated needs the XML annotations (a ground-truth cache has no "generated" flags)', 'usage/exclude-generated-cache');
  }
  try {
    // with a list, an image index outside it is found in the same pass as syntax problems (DET; VID drops them)
    const predictions = readPredictions(inputs.pred, list && settings.outside === 'error' ? { imageIds: new Set(list.ids) } : {});
    const blacklist = inputs.blacklist ? readBlacklist(inputs.blacklist, synsets) : undefined;
    return { synsets, list, predictions, blacklist, gtXml };
  } catch (e) {
    stopGt.abort(); // a bad submission: stop parsing the ground truth
    throw e;
  }
}

/** Phase 2, load ground truth: the workers' XML parse, or the cache (warning when the list differs). */
async function loadGroundTruth(read: ReadInputs, gtPath: string, diagnostics: Diagnostic[]): Promise<GroundTruth> {
  let gt: GroundTruth;
  if (read.gtXml) {
    gt = await read.gtXml;
  } else {
    gt = readGroundTruthCache(gtPath);
    const list = read.list;
    if (list && !sameIds(list.ids, gt.imageIds)) {
      const message = `the image list ${list.file} (${list.ids.length} entries) differs from gt_img_ids of the cache ${gtPath} (${gt.imageIds.length}); as the official code, the cache's list is used`;
      diagnostics.push({ severity: 'warning', code: 'ilsvrc/list-cache-mismatch', message, file: list.file });
    }
  }
  checkGroundTruthClasses(gt.numPos.length, read.synsets, gtPath);
  if (gt.numPos.length === 0) {
    throw inputError({ code: 'input/no-ground-truth', file: gtPath, expected: 'at least one ground-truth object (the official code evaluates classes 1..largest label)', found: 'no objects' });
  }
  return gt;
}

/** VID `--exclude-generated`: the list entries (frames) that hold a generated box. */
function generatedEntries(gt: GroundTruth, diagnostics: Diagnostic[]): Uint8Array {
  const exclude = new Uint8Array(gt.imageIds.length);
  let frames = 0;
  for (let i = 0; i < gt.imageIds.length; i++) {
    for (let k = gt.objStart[i]; k < gt.objStart[i + 1]; k++) if (gt.generated[k]) exclude[i] = 1;
    frames += exclude[i];
  }
  diagnostics.push({ severity: 'info', code: 'ilsvrc/excluded-generated', message: `${frames} frame(s) with a generated box left out (--exclude-generated; the official code counts them)` });
  return exclude;
}

/** Phase 4, diagnose: what the evaluation counted that the user should know (all as the official code does). */
function evaluationDiagnostics(result: DetectionEvalResult, read: ReadInputs, numClasses: number, diagnostics: Diagnostic[]): void {
  const warn = (code: ErrorCode, message: string, extra: Partial<Diagnostic> = {}) => diagnostics.push({ severity: 'warning', code, message, ...extra });
  const file = read.predictions.file;
  const s = result.stats;
  if (s.dropped > 0) {
    diagnostics.push({ severity: 'info', code: 'ilsvrc/dropped', message: `${s.dropped} detection(s) on frames not in the list (or excluded) were dropped, as the official VID code does`, file });
  }
  if (s.outOfRange > 0) {
    warn('ilsvrc/class-out-of-range', `${s.outOfRange} detection(s) have a class id outside 1..${numClasses} (the classes evaluated); they count as false positives in no curve, as in the official code`, { file, line: s.firstOutOfRangeLine });
  }
  if (s.inverted > 0) {
    warn('ilsvrc/inverted-box', `${s.inverted} detection(s) have xmax < xmin or ymax < ymin; they overlap nothing (false positives), as in the official code`, { file, line: s.firstInvertedLine });
  }
  if (s.duplicateIds > 0) {
    warn('ilsvrc/duplicate-index', `${s.duplicateIds} list line(s) repeat an image index; detections are matched to the last line with that index, as in the official code`, { file: read.list?.file });
  }
  for (const c of result.classes) {
    if (c.npos === 0 && c.ndet > 0) warn('ilsvrc/no-positives', `class ${c.label} (${read.synsets.wnids[c.label - 1] ?? '?'}) has detections but no ground truth: recall 0/0, AP NaN (and so the mean AP), as in the official code`);
  }
}

/** Reads every input, evaluates, and builds the report (shared by ilsvrc2015/det and ilsvrc2015/vid). */
export async function runDetectionTask(inputs: DetectionTaskInputs, settings: DetectionTaskSettings, context: RunContext): Promise<Report> {
  const t0 = performance.now();
  const metric = checkMetric(context);
  const diagnostics: Diagnostic[] = [];
  const read = readDetectionInputs(inputs, settings, context);
  const tRead = performance.now();
  const gt = await loadGroundTruth(read, inputs.gt, diagnostics);
  const tGt = performance.now();
  // Phase 3, match and accumulate (evaluateDetections)
  const exclude = settings.excludeGenerated ? generatedEntries(gt, diagnostics) : undefined;
  const result = evaluateDetections(gt, read.predictions, read.blacklist, {
    order: settings.order,
    outside: exclude ? 'drop' : settings.outside,
    exclude,
    keepRanking: context.perImage === true,
  });
  const tEval = performance.now();
  if (result.stats.detections === 0) {
    // The official code fails here (img_ids(1) of an empty list).
    throw inputError({ code: 'input/no-detections', file: read.predictions.file, expected: 'at least one detection on an image (frame) of the list', found: `none of ${read.predictions.count} detection(s)` });
  }
  evaluationDiagnostics(result, read, gt.numPos.length, diagnostics);
  const timings = { totalMs: performance.now() - t0, readInputsMs: tRead - t0, groundTruthMs: tGt - tRead, evaluateMs: tEval - tGt };
  return detectionReport({ settings, metric, read, gt, exclude, result, diagnostics, timings });
}

/** Phase 5, report: rows and curves per class, versions, timings and the extra counts. */
function detectionReport(r: {
  settings: DetectionTaskSettings;
  metric: string;
  read: ReadInputs;
  gt: GroundTruth;
  exclude: Uint8Array | undefined;
  result: DetectionEvalResult;
  diagnostics: Diagnostic[];
  timings: Report['timings'];
}): Report {
  const { settings, read, gt, result } = r;
  const { synsets, predictions, blacklist } = read;
  const s = result.stats;
  return createReport({
    dataset: settings.dataset,
    task: settings.task,
    metric: r.metric,
    summary: { meanAP: result.meanAP, medianAP: result.medianAP },
    rows: result.classes.map((c) => ({
      key: classKey(synsets, c.label),
      ap: c.ap,
      name: synsets.names[c.label - 1] ?? '',
      id: c.label,
      npos: c.npos,
      ndet: c.ndet,
    })),
    curves: result.classes.map((c) => ({ key: classKey(synsets, c.label), recall: c.recall, precision: c.precision })),
    diagnostics: r.diagnostics,
    versions: { [settings.packageName]: settings.version, [PACKAGE_NAME]: VERSION, ...settings.versions },
    timings: r.timings,
    extra: {
      numClasses: gt.numPos.length,
      numSynsets: synsets.wnids.length,
      groundTruth: gt.source,
      images: gt.imageIds.length,
      objects: gt.labels.length,
      detections: s.detections,
      dropped: s.dropped,
      blacklisted: s.blacklisted,
      ...(result.ranking ? { perImage: detectionPerImage(settings.task, gt, predictions, blacklist, r.exclude, result, (label) => classKey(synsets, label)) } : {}),
    },
  });
}

function classKey(synsets: Synsets, label: number): string {
  return synsets.wnids[label - 1] ?? `class_${label}`;
}

function sameIds(a: Float64Array, b: Float64Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Checks the submission (prediction file against the list and meta) without scoring. */
export async function validateDetectionInputs(inputs: DetectionTaskInputs, settings: DetectionTaskSettings): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  const push = (e: unknown) => {
    if (!isDevkitError(e) || e.kind === 'internal') throw e;
    // the location goes in file/line; the message is the rest
    out.push(...problemsToDiagnostics(e));
  };
  let synsets: Synsets | undefined;
  let list: ImageList | undefined;
  try {
    synsets = readSynsets(inputs.meta);
    } catch (e) {
    push(e);
  }
  try {
    // a ground-truth cache is read whole (small): its classes must be synsets of the meta, as eval checks
    if (synsets && isFile(inputs.gt) && /\.mat$/i.test(inputs.gt)) checkGroundTruthClasses(readGroundTruthCache(inputs.gt).numPos.length, synsets, inputs.gt);
  } catch (e) {
    push(e);
  }
  try {
    if (inputs.list) list = readImageList(inputs.list);
  } catch (e) {
    push(e);
  }
  try {
    // XML ground truth is parsed as eval parses it (unknown WNIDs, missing fields), without the cache
    if (synsets && list && !(isFile(inputs.gt) && /\.mat$/i.test(inputs.gt))) await readGroundTruthXml(inputs.gt, list, synsets, createRunContext(), settings.version);
  } catch (e) {
    push(e);
  }
  try {
    // one pass: syntax problems and indices outside the list together
    const preds = readPredictions(inputs.pred, list && settings.outside === 'error' ? { imageIds: new Set(list.ids) } : {});
    // what eval warns about, one line per kind: the count and the first three lines
    const outOfRange: string[] = [];
    const inverted: string[] = [];
    let nOut = 0;
    let nInv = 0;
    for (let d = 0; d < preds.count; d++) {
      const label = preds.labels[d];
      if (synsets && !(label >= 1 && label <= synsets.wnids.length)) {
        if (nOut++ < 3) outOfRange.push(`line ${preds.lines[d]}: ${label}`);
      }
      const b = 4 * d;
      if (preds.boxes[b + 2] < preds.boxes[b] || preds.boxes[b + 3] < preds.boxes[b + 1]) {
        if (nInv++ < 3) inverted.push(`line ${preds.lines[d]}`);
      }
    }
    const eg = (n: number, ex: string[]) => (n > ex.length ? `e.g. ${ex.join(', ')}, …` : ex.join(', '));
    if (nOut > 0) {
      out.push({ severity: 'warning', code: 'ilsvrc/class-out-of-range', message: `${nOut} detection(s) have a class id outside 1..${synsets!.wnids.length} (${eg(nOut, outOfRange)}); they count as false positives in no curve, as in the official code`, file: preds.file });
    }
    if (nInv > 0) {
      out.push({ severity: 'warning', code: 'ilsvrc/inverted-box', message: `${nInv} detection(s) have xmax < xmin or ymax < ymin (${eg(nInv, inverted)}); they overlap nothing (false positives), as in the official code`, file: preds.file });
    }
  } catch (e) {
    push(e);
  }
  try {
    if (inputs.blacklist && synsets) readBlacklist(inputs.blacklist, synsets);
  } catch (e) {
    push(e);
  }
  return out;
}
