import { statSync } from 'node:fs';
import { inputError, usageError, type Diagnostic, type MergeContext, type Report, type RunContext } from '@cvdevkit/core';
import { accumulateAll } from './accumulate.js';
import type { GroundTruth, Results } from './dataset.js';
import { evaluateCoco, type CocoFixes, type EvalSetup, type IouComputer } from './evaluate.js';
import { bboxIouComputer } from './iou-bbox.js';
import { keypointsIouComputer } from './iou-keypoints.js';
import { segmIouComputer } from './iou-segm.js';
import { readGroundTruth, readResults, showValue } from './load.js';
import { fixNames, paramsFromOptions, parseFixes, type CocoOptions } from './options.js';
import type { CocoParams, IouType } from './params.js';
import { requireFile } from './require-file.js';
import { cocoReport } from './report.js';
import { reportCells } from './summarize.js';
import type { CategoryRecords } from './records.js';
import { hasOddPolygon, measureCompressed } from './segmentation.js';
import { COCO_CODES } from './codes.js';
// records files (node:zlib), per-image statistics (@cvdevkit/metrics) and the --shard parser (@cvdevkit/formats,
// whose index loads its PNG, XML and zlib readers: ~60 ms and 7 MiB) are loaded only by the runs that use them
// (--shard, --per-image, merge): a plain evaluation starts without them
import type { cocoPerImage as CocoPerImage } from './per-image.js';
import type { RecordsFileWithPerImage } from './shard-per-image.js';

/** This package's version (read from its package.json; the same from src/ and dist/). */
import { PACKAGE_VERSION } from './version.js';

export { PACKAGE_VERSION };

export interface LoadedRun {
  iouType: IouType;
  params: CocoParams;
  fixes: CocoFixes;
  gt: GroundTruth;
  dt: Results;
  diagnostics: Diagnostic[];
  timings: Record<string, number>;
}

function warning(code: keyof typeof COCO_CODES, message: string, file?: string): Diagnostic {
  return { severity: 'warning', code, message, ...(file !== undefined ? { file } : {}) };
}

/** --per-image asked for, none stored: why (the same words from evaluate and merge, so their reports agree). */
function noPerImage(why: string, rankable = true): Diagnostic {
  return warning('coco/no-per-image', `--per-image: no per-image statistics stored: ${why}${rankable ? '; compare can rank this report without --bootstrap' : ''}`);
}

const NO_AP_CELL = 'the AP is read from no single area range "all" and maxDets';

/** Keypoint lists must hold 3 numbers per sigma (pycocotools' numpy arithmetic fails or broadcasts otherwise). */
function checkKeypoints(gt: GroundTruth, dt: Results, params: CocoParams): void {
  const n = 3 * params.kptSigmas.length;
  const cats = new Set(params.catIds ?? Array.from(gt.categoryIds));
  for (let i = 0; i < gt.anns.count; i++) {
    if (!cats.has(gt.anns.categoryId[i])) continue;
    const kp = gt.anns.keypoints[i];
    if (kp === undefined) throw inputError({ code: 'coco/keypoints', file: gt.file, field: `annotations[${i}].keypoints`, expected: `keypoints: ${n} numbers (x, y, v per keypoint)`, found: 'none' });
    if (kp.length !== n) throw inputError({ code: 'coco/keypoints', file: gt.file, field: `annotations[${i}].keypoints`, expected: `${n} numbers (3 per OKS sigma; --kpt-sigmas sets ${n / 3} sigmas)`, found: `${kp.length} numbers` });
    if (gt.anns.numKeypoints[i] !== gt.anns.numKeypoints[i]) throw inputError({ code: 'coco/missing-field', file: gt.file, field: `annotations[${i}].num_keypoints`, expected: 'num_keypoints (pycocotools reads it to ignore people without keypoints)', found: 'none' });
    const b = gt.anns.bbox[4 * i];
    if (b !== b && kp.every((v, j) => j % 3 !== 2 || !(v > 0))) {
      throw inputError({ code: 'coco/missing-field', file: gt.file, field: `annotations[${i}].bbox`, expected: 'a bbox (OKS of a person without visible keypoints is measured to its box)', found: 'none' });
    }
  }
  for (let i = 0; i < dt.count; i++) {
    const kp = dt.keypoints[i];
    if (kp === undefined) throw inputError({ code: 'coco/keypoints', file: dt.file, field: `[${i}].keypoints`, expected: `keypoints: ${n} numbers`, found: 'none' });
    if (kp.length !== n) throw inputError({ code: 'coco/keypoints', file: dt.file, field: `[${i}].keypoints`, expected: `${n} numbers (3 per OKS sigma)`, found: `${kp.length} numbers: ${showValue(Array.from(kp.slice(0, 6)))}…` });
  }
}

function checkBoxes(gt: GroundTruth, params: CocoParams): void {
  const cats = new Set(params.catIds ?? Array.from(gt.categoryIds));
  for (let i = 0; i < gt.anns.count; i++) {
    if (!cats.has(gt.anns.categoryId[i])) continue;
    const b = gt.anns.bbox[4 * i];
    if (b !== b) throw inputError({ code: 'coco/missing-field', file: gt.file, field: `annotations[${i}].bbox`, expected: 'a box [x, y, w, h] (bbox evaluation)', found: 'none' });
  }
}

/** Reads and checks everything a run needs; the warnings pycocotools would not give. */
/**
 * `keepMask` of readResults for an evaluation: a result's mask is needed only by a unit with ground truth,
 * one of the same image and category (all categories of the image without useCats).
 */
function masksWithGroundTruth(gt: GroundTruth, useCats: boolean): (imageId: number, categoryId: number) => boolean {
  const cats = new Map<number, Set<number>>();
  for (let i = 0; i < gt.anns.count; i++) {
    const image = gt.anns.imageId[i];
    let set = cats.get(image);
    if (set === undefined) cats.set(image, (set = new Set()));
    set.add(gt.anns.categoryId[i]);
  }
  let lastImage = NaN;
  let last: Set<number> | undefined;
  return (imageId, categoryId) => {
    if (imageId !== lastImage) {
      lastImage = imageId;
      last = cats.get(imageId);
    }
    return last !== undefined && (!useCats || last.has(categoryId));
  };
}

/**
 * Reads and checks everything a run needs; the warnings pycocotools would not give. `forEvaluation`: the
 * masks no unit with ground truth holds are measured and dropped while the results are read (evaluate only:
 * validate and analyze look at every mask).
 */
export function loadRun(iouType: IouType, options: CocoOptions, forEvaluation = false): LoadedRun {
  const params = paramsFromOptions(iouType, options);
  const fixes = parseFixes(options.fix);
  const gtPath = requireFile(options.gt, 'gt', 'the ground-truth JSON (instances_*.json or person_keypoints_*.json)');
  const resPath = requireFile(options.results, 'results', 'the results JSON list');
  const t0 = performance.now();
  const c0 = cpuMs();
  const gt = readGroundTruth(gtPath, { segmentation: iouType === 'segm' });
  const t1 = performance.now();
  const c1 = cpuMs();
  const measureMask = measureCompressed(resPath);
  const keepMask = forEvaluation && iouType === 'segm' ? masksWithGroundTruth(gt, params.useCats) : undefined;
  const dt = readResults(resPath, gt, { measureMask, maskArea: fixes.maskArea && iouType === 'segm', ...(keepMask ? { keepMask } : {}) });
  const t2 = performance.now();
  const c2 = cpuMs();
  const diagnostics: Diagnostic[] = [];
  if (dt.count === 0) {
    diagnostics.push(warning('coco/empty-results', `${resPath}: the result list is empty: every AP and AR of a category with ground truth is 0 (pycocotools crashes on an empty list)`));
  }
  const gtCats = new Set(gt.categoryIds);
  let unknownCats = 0;
  const examples = new Set<number>();
  for (let i = 0; i < dt.count; i++) {
    if (!gtCats.has(dt.categoryId[i])) {
      unknownCats++;
      if (examples.size < 5) examples.add(dt.categoryId[i]);
    }
  }
  if (unknownCats > 0) {
    diagnostics.push(warning('coco/unknown-category', `${resPath}: ${unknownCats} result(s) name a category that is not in the ground truth (${[...examples].join(', ')}${examples.size < unknownCats ? ', …' : ''}); they are ignored, as pycocotools ignores them`));
  }
  if (iouType === 'keypoints') checkKeypoints(gt, dt, params);
  if (iouType === 'bbox') checkBoxes(gt, params);
  if (iouType === 'segm') {
    let oddGt = 0;
    for (let i = 0; i < gt.anns.count; i++) if (hasOddPolygon(gt.anns.segmentation[i])) oddGt++;
    let oddDt = 0;
    for (let i = 0; i < dt.count; i++) if (dt.hasSegmentation[i] && hasOddPolygon(dt.segmentation[i])) oddDt++;
    if (oddGt > 0) diagnostics.push(warning('coco/odd-polygon', `${gtPath}: ${oddGt} annotation(s) have a polygon with an odd number of coordinates; its last number is dropped, as pycocotools does`));
    if (oddDt > 0) diagnostics.push(warning('coco/odd-polygon', `${resPath}: ${oddDt} result(s) have a polygon with an odd number of coordinates; its last number is dropped, as pycocotools does`));
  }
  if (params.imgIds) {
    const known = new Set(gt.imageIds);
    const unknown = params.imgIds.filter((id) => !known.has(id));
    if (unknown.length > 0) diagnostics.push(warning('coco/unknown-img-ids', `--img-ids: ${unknown.length} id(s) are not images of the ground truth (${unknown.slice(0, 5).join(', ')}); they have nothing to evaluate`));
  }
  if (params.catIds) {
    const unknown = params.catIds.filter((id) => !gtCats.has(id));
    if (unknown.length > 0) diagnostics.push(warning('coco/unknown-cat-ids', `--cat-ids: ${unknown.length} id(s) are not categories of the ground truth (${unknown.slice(0, 5).join(', ')}); their AP is -1`));
  }
  return { iouType, params, fixes, gt, dt, diagnostics, timings: { readGtMs: t1 - t0, readResultsMs: t2 - t1, readGtCpuMs: c1 - c0, readResultsCpuMs: c2 - c1 } };
}

export function iouComputerFor(run: LoadedRun): IouComputer {
  if (run.iouType === 'keypoints') return keypointsIouComputer(run.gt, run.dt, run.params.kptSigmas);
  if (run.iouType === 'segm') return segmIouComputer(run.gt, run.dt);
  return bboxIouComputer(run.gt, run.dt);
}

export function categoryNames(gt: GroundTruth): Map<number, string> {
  const names = new Map<number, string>();
  gt.categoryIds.forEach((id, i) => names.set(id, gt.categoryNames[i]));
  return names;
}

/** `coco/<iouType>`: the whole evaluation, pycocotools' evaluate → accumulate → summarize; with --shard, one block of the images. */
export async function evaluateCocoTask(iouType: IouType, options: CocoOptions, context: RunContext): Promise<Report> {
  const t0 = performance.now();
  const c0 = cpuMs();
  const shards = options.shard !== undefined ? await import('./shard.js') : undefined;
  const shard = shards && options.shard !== undefined ? shards.parseShard(options.shard) : undefined;
  if (shard && !options.recordsOut) throw usageError('--shard needs --records-out <file>: a shard writes its records there for `cvdevkit merge coco/' + iouType + '`', 'usage/missing-option');
  const run = loadRun(iouType, options, true);
  context.progress.begin('coco: evaluate', 0);
  const t1 = performance.now();
  const imgCount = new Set(run.params.imgIds ?? Array.from(run.gt.imageIds)).size;
  const range: [number, number] = shards ? shards.shardRange(imgCount, shard) : [0, imgCount];
  const c1 = cpuMs();
  // without --arrays, only the precision cells the report reads, and no scores array
  const cells = options.arrays ? undefined : reportCells(run.params, run.fixes.maxdets === true);
  // every category's records are kept only where they are written out (--shard) or read again (per-image
  // statistics); otherwise each category is accumulated as soon as it is matched
  const keepRecords = shard !== undefined || context.perImage === true;
  const out = evaluateCoco(run.gt, run.dt, run.params, run.fixes, iouComputerFor(run), range, keepRecords ? undefined : { cells, withScores: options.arrays === true });
  const t2 = performance.now();
  const c2 = cpuMs();
  const A = run.params.areaRanges.length;
  const acc = out.acc ?? accumulateAll(out.records, out.setup.K, A, run.params.iouThrs.length, run.params.recThrs, run.params.maxDets, cells, options.arrays === true);
  const t3 = performance.now();
  const c3 = cpuMs();
  const streamedMs = out.accumulateMs ?? 0;
  const streamedShare = t2 > t1 ? Math.min(1, streamedMs / (t2 - t1)) : 0;
  context.progress.end();
  const diagnostics = [...run.diagnostics];
  if (shard && options.recordsOut) {
    const { paramsRecord, recordsToFile, writeRecordsFile } = await import('./records-file.js');
    const { shardPerImage } = await import('./shard-per-image.js');
    const file: RecordsFileWithPerImage = recordsToFile(
      {
        task: `coco/${iouType}`,
        version: PACKAGE_VERSION,
        shard,
        images: range,
        params: paramsRecord(run.params),
        fixes: run.fixes,
        setup: { imgIds: out.setup.imgIds.length, catIds: out.setup.catIds, kCatIds: out.setup.kCatIds },
        names: [...categoryNames(run.gt)],
        inputs: { gt: statSync(options.gt).size, results: statSync(options.results).size },
        diagnostics: run.diagnostics,
      },
      out.records,
      out.dtCount,
    );
    // what a merge needs for --per-image (always written: small, and no shard has to be run again for it)
    const part = shardPerImage(run.gt, run.params, run.fixes, out.setup, range);
    if (part !== null) file.perImage = part;
    writeRecordsFile(options.recordsOut, file);
    diagnostics.push({ severity: 'warning', code: 'coco/shard', message: `this report covers shard ${shard.index}/${shard.count} (images ${range[0] + 1}–${range[1]} of ${imgCount}); merge the shards' records for the score: cvdevkit merge coco/${iouType} <records files>` });
  }
  let perImage: ReturnType<typeof CocoPerImage> = null;
  if (context.perImage === true) {
    const { cocoPerImage } = await import('./per-image.js');
    perImage = shard ? null : cocoPerImage({ task: `coco/${iouType}`, gt: run.gt, params: run.params, fixes: run.fixes, setup: out.setup, records: out.records });
    if (perImage === null) {
      diagnostics.push(noPerImage(shard ? `a shard holds part of the images (its records file holds what the statistics need: cvdevkit merge coco/${iouType} --per-image <records files>)` : NO_AP_CELL, !shard));
    }
  }
  return cocoReport({
    task: `coco/${iouType}`,
    ...(perImage ? { extra: { perImage } } : {}),
    params: run.params,
    fixes: run.fixes,
    setup: out.setup,
    acc,
    names: categoryNames(run.gt),
    ngt: Array.from({ length: out.setup.K }, (_, k) => out.npig[k * A + allAreaIndex(run.params)]),
    ndet: out.dtCount,
    arrays: options.arrays,
    diagnostics,
    version: PACKAGE_VERSION,
    timings: {
      ...run.timings,
      // (accumulated as a stream, each category's accumulate is timed inside the match)
      matchMs: t2 - t1 - streamedMs,
      accumulateMs: t3 - t2 + streamedMs,
      totalMs: performance.now() - t0,
      // CPU time (user + system) of the same phases: the figures that hold on a loaded machine (the streamed
      // accumulate's share of the match's CPU time is its share of the wall time: CPU time is read per phase only)
      matchCpuMs: (c2 - c1) * (1 - streamedShare),
      accumulateCpuMs: c3 - c2 + (c2 - c1) * streamedShare,
      totalCpuMs: cpuMs() - c0,
      processCpuMs: cpuMs(),
    },
  });
}

function allAreaIndex(p: CocoParams): number {
  return Math.max(0, p.areaRanges.findIndex((r) => r.label === 'all'));
}

function paramsFromRecord(r: Record<string, unknown>): CocoParams {
  return {
    iouType: r.iouType as IouType,
    iouThrs: Float64Array.from(r.iouThrs as number[]),
    recThrs: Float64Array.from(r.recThrs as number[]),
    maxDets: r.maxDets as number[],
    areaRanges: r.areaRanges as CocoParams['areaRanges'],
    useCats: r.useCats as boolean,
    imgIds: (r.imgIds as number[] | null) ?? undefined,
    catIds: (r.catIds as number[] | null) ?? undefined,
    kptSigmas: Float64Array.from(r.kptSigmas as number[]),
  };
}

/** The options that shape the evaluation itself: set on `eval --shard`, read from the records by a merge. */
const EVAL_ONLY = ['iouThrs', 'recThrs', 'maxDets', 'areaRng', 'useCats', 'imgIds', 'catIds', 'kptSigmas', 'fix', 'shard', 'recordsOut'] as const;
const flagOf = (name: string) => `--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/**
 * The task options given to a merge: the records hold the params, fixes and inputs the shards ran with, so an
 * option that would change them is refused when it disagrees with them (exit 1: never a report of other
 * params than asked for), and accepted when it repeats them (the same command line for eval and merge).
 */
function checkMergeOptions(iouType: IouType, options: Partial<CocoOptions>, first: RecordsFileWithPerImage, path: string, paramsRecord: (p: CocoParams) => Record<string, unknown>): void {
  for (const name of EVAL_ONLY) {
    const value = options[name];
    if (value === undefined) continue;
    const flag = flagOf(name);
    if (name === 'shard' || name === 'recordsOut') throw usageError(`${flag}: for eval (each shard); merge reads the shards' records files`, 'usage/invalid');
    const shards = name === 'fix' ? fixNames(first.fixes).join(',') : JSON.stringify(first.params[paramOf[name]]);
    const given = name === 'fix' ? fixNames(parseFixes(options.fix)).join(',') : JSON.stringify(paramsRecord(paramsFromOptions(iouType, { gt: '', results: '', [name]: value }))[paramOf[name]]);
    if (given !== shards) throw usageError(`${flag}: the shards ran with ${shards || 'none'} (${path}), found ${given || 'none'}: merge takes the shards' settings; give ${flag} to eval --shard`, 'usage/invalid');
  }
  for (const name of ['gt', 'results'] as const) {
    const file = options[name];
    if (file === undefined) continue;
    const size = fileSize(file);
    if (size !== first.inputs[name]) throw inputError({ code: 'input/counts-mismatch', file, field: `--${name}`, expected: `the ${name} file the shards read (${first.inputs[name]} bytes, ${path})`, found: size === undefined ? 'no such file' : `${size} bytes` });
  }
}

const paramOf: Record<Exclude<(typeof EVAL_ONLY)[number], 'fix' | 'shard' | 'recordsOut'>, string> = {
  iouThrs: 'iouThrs',
  recThrs: 'recThrs',
  maxDets: 'maxDets',
  areaRng: 'areaRanges',
  useCats: 'useCats',
  imgIds: 'imgIds',
  catIds: 'catIds',
  kptSigmas: 'kptSigmas',
};

function fileSize(path: string): number | undefined {
  try {
    return statSync(path).size;
  } catch {
    return undefined;
  }
}

/**
 * `cvdevkit merge coco/<iouType> <records files>`: the shards' records concatenated in image order, then
 * accumulate and summarize: the same numbers as one run over all images, bit for bit.
 */
export async function mergeCocoShards(iouType: IouType, files: readonly string[], context: MergeContext<CocoOptions>, arrays = false): Promise<Report> {
  const t0 = performance.now();
  if (files.length === 0) throw usageError(`merge coco/${iouType}: expected the records files of the shards`, 'usage/missing-argument');
  const { appendCategory, categoryFromFile, paramsRecord, readRecordsFile } = await import('./records-file.js');
  const all: { path: string; file: RecordsFileWithPerImage }[] = files.map((path) => ({ path, file: readRecordsFile(path) }));
  const first = all[0].file;
  const same = (path: string, field: string, a: unknown, b: unknown) => {
    if (JSON.stringify(a) !== JSON.stringify(b)) throw inputError({ code: 'input/counts-mismatch', file: path, field, expected: `the same ${field} as ${all[0].path}: ${JSON.stringify(b).slice(0, 80)}`, found: JSON.stringify(a).slice(0, 80) });
  };
  for (const { path, file } of all) {
    same(path, 'task', file.task, `coco/${iouType}`);
    for (const f of ['params', 'fixes', 'setup', 'inputs'] as const) same(path, f, file[f], first[f]);
    same(path, 'shard count', file.shard.count, first.shard.count);
  }
  all.sort((a, b) => a.file.shard.index - b.file.shard.index);
  for (let i = 0; i < all.length; i++) {
    const idx = all[i].file.shard.index;
    if (idx !== i + 1) {
      const dup = all.findIndex((x, j) => j !== i && x.file.shard.index === idx);
      throw inputError({ code: dup >= 0 ? 'input/counts-conflict' : 'input/counts-incomplete', file: all[i].path, field: 'shard', expected: `shards 1…${first.shard.count}, each once`, found: dup >= 0 ? `shard ${idx} twice (also ${all[dup].path})` : `shard ${i + 1} missing` });
    }
  }
  if (all.length !== first.shard.count) throw inputError({ code: 'input/counts-incomplete', file: all[all.length - 1].path, field: 'shard', expected: `${first.shard.count} shards`, found: `${all.length}` });
  checkMergeOptions(iouType, context.options ?? {}, first, all[0].path, paramsRecord);
  const params = paramsFromRecord(first.params);
  const T = params.iouThrs.length;
  const A = params.areaRanges.length;
  const K = first.setup.kCatIds.length;
  const records: CategoryRecords[] = [];
  const ndet = new Float64Array(K);
  for (let k = 0; k < K; k++) {
    const r = categoryFromFile(all[0].file.categories[k], T, A);
    ndet[k] += all[0].file.categories[k].ndet;
    for (let s = 1; s < all.length; s++) {
      appendCategory(r, categoryFromFile(all[s].file.categories[k], T, A));
      ndet[k] += all[s].file.categories[k].ndet;
    }
    records.push(r);
  }
  const diagnostics = [...first.diagnostics];
  let setup: EvalSetup = { imgIds: new Float64Array(first.setup.imgIds), catIds: first.setup.catIds, K, kCatIds: first.setup.kCatIds };
  let perImage: ReturnType<typeof CocoPerImage> = null;
  if (context.perImage === true) {
    const { apCell, cocoPerImage } = await import('./per-image.js');
    const { mergeShardPerImage } = await import('./shard-per-image.js');
    // the statistics of one run over all images, from the records and the shards' per-image counts
    const cell = apCell(params, first.fixes);
    const joined = cell === null ? NO_AP_CELL : mergeShardPerImage(all, cell, K, first.setup.imgIds);
    if (typeof joined === 'string') diagnostics.push(noPerImage(joined));
    else {
      setup = { ...setup, imgIds: joined.imgIds };
      perImage = cocoPerImage({ task: `coco/${iouType}`, npig: joined.npig, params, fixes: first.fixes, setup, records });
    }
  }
  context.progress.begin('coco: merge', 0);
  const acc = accumulateAll(records, K, A, T, params.recThrs, params.maxDets, arrays ? undefined : reportCells(params, first.fixes.maxdets === true), arrays);
  context.progress.end();
  return cocoReport({
    task: `coco/${iouType}`,
    ...(perImage ? { extra: { perImage } } : {}),
    params,
    fixes: first.fixes,
    setup,
    acc,
    names: new Map(first.names),
    ngt: records.map((r) => r.npig[allAreaIndex(params)]),
    ndet,
    arrays,
    diagnostics,
    version: PACKAGE_VERSION,
    timings: { totalMs: performance.now() - t0 },
  });
}

/** CPU time (user + system) of this process so far, in ms. */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}
