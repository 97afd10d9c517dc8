import { readFileSync } from 'node:fs';
import { inputError, type Diagnostic, type Report, type RunContext } from '@cvdevkit/core';
import { accumulateAll } from './accumulate.js';
import type { GroundTruth, Results } from './dataset.js';
import { evaluateCoco, type CocoFixes, type IouComputer } from './evaluate.js';
import { bboxIouComputer } from './iou-bbox.js';
import { keypointsIouComputer } from './iou-keypoints.js';
import { segmIouComputer } from './iou-segm.js';
import { readGroundTruth, readResults, showValue } from './load.js';
import { paramsFromOptions, parseFixes, type CocoOptions } from './options.js';
import type { CocoParams, IouType } from './params.js';
import { requireFile } from './require-file.js';
import { cocoReport } from './report.js';
import { hasOddPolygon, measureCompressed } from './segmentation.js';

/** This package's version (read from its package.json; the same from src/ and dist/). */
export const PACKAGE_VERSION: string = (() => {
  try {
    return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
})();

export interface LoadedRun {
  iouType: IouType;
  params: CocoParams;
  fixes: CocoFixes;
  gt: GroundTruth;
  dt: Results;
  diagnostics: Diagnostic[];
  timings: Record<string, number>;
}

function warning(message: string): Diagnostic {
  return { severity: 'warning', code: 'task/log', message };
}

/** Keypoint lists must hold 3 numbers per sigma (pycocotools' numpy arithmetic fails or broadcasts otherwise). */
function checkKeypoints(gt: GroundTruth, dt: Results, params: CocoParams): void {
  const n = 3 * params.kptSigmas.length;
  const cats = new Set(params.catIds ?? Array.from(gt.categoryIds));
  for (let i = 0; i < gt.anns.count; i++) {
    if (!cats.has(gt.anns.categoryId[i])) continue;
    const kp = gt.anns.keypoints[i];
    if (kp === undefined) throw inputError({ code: 'input/invalid', file: gt.file, field: `annotations[${i}].keypoints`, expected: `keypoints: ${n} numbers (x, y, v per keypoint)`, found: 'none' });
    if (kp.length !== n) throw inputError({ code: 'input/invalid', file: gt.file, field: `annotations[${i}].keypoints`, expected: `${n} numbers (3 per OKS sigma; --kpt-sigmas sets ${n / 3} sigmas)`, found: `${kp.length} numbers` });
    if (gt.anns.numKeypoints[i] !== gt.anns.numKeypoints[i]) throw inputError({ code: 'input/invalid', file: gt.file, field: `annotations[${i}].num_keypoints`, expected: 'num_keypoints (pycocotools reads it to ignore people without keypoints)', found: 'none' });
    const b = gt.anns.bbox[4 * i];
    if (b !== b && kp.every((v, j) => j % 3 !== 2 || !(v > 0))) {
      throw inputError({ code: 'input/invalid', file: gt.file, field: `annotations[${i}].bbox`, expected: 'a bbox (OKS of a person without visible keypoints is measured to its box)', found: 'none' });
    }
  }
  for (let i = 0; i < dt.count; i++) {
    const kp = dt.keypoints[i];
    if (kp === undefined) throw inputError({ code: 'input/invalid', file: dt.file, field: `[${i}].keypoints`, expected: `keypoints: ${n} numbers`, found: 'none' });
    if (kp.length !== n) throw inputError({ code: 'input/invalid', file: dt.file, field: `[${i}].keypoints`, expected: `${n} numbers (3 per OKS sigma)`, found: `${kp.length} numbers: ${showValue(Array.from(kp.slice(0, 6)))}…` });
  }
}

function checkBoxes(gt: GroundTruth, params: CocoParams): void {
  const cats = new Set(params.catIds ?? Array.from(gt.categoryIds));
  for (let i = 0; i < gt.anns.count; i++) {
    if (!cats.has(gt.anns.categoryId[i])) continue;
    const b = gt.anns.bbox[4 * i];
    if (b !== b) throw inputError({ code: 'input/box', file: gt.file, field: `annotations[${i}].bbox`, expected: 'a box [x, y, w, h] (bbox evaluation)', found: 'none' });
  }
}

/** Reads and checks everything a run needs; the warnings pycocotools would not give. */
export function loadRun(iouType: IouType, options: CocoOptions): LoadedRun {
  const params = paramsFromOptions(iouType, options);
  const fixes = parseFixes(options.fix);
  const gtPath = requireFile(options.gt, 'gt', 'the ground-truth JSON (instances_*.json or person_keypoints_*.json)');
  const resPath = requireFile(options.results, 'results', 'the results JSON list');
  const t0 = performance.now();
  const gt = readGroundTruth(gtPath, { segmentation: iouType === 'segm' });
  const t1 = performance.now();
  const measureMask = measureCompressed(resPath);
  const dt = readResults(resPath, gt, { measureMask, maskArea: fixes.maskArea && iouType === 'segm' });
  const t2 = performance.now();
  const diagnostics: Diagnostic[] = [];
  if (dt.count === 0) {
    diagnostics.push(warning(`${resPath}: the result list is empty: every AP and AR of a category with ground truth is 0 (pycocotools crashes on an empty list)`));
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
    diagnostics.push(warning(`${resPath}: ${unknownCats} result(s) name a category that is not in the ground truth (${[...examples].join(', ')}${examples.size < unknownCats ? ', …' : ''}); they are ignored, as pycocotools ignores them`));
  }
  if (iouType === 'keypoints') checkKeypoints(gt, dt, params);
  if (iouType === 'bbox') checkBoxes(gt, params);
  if (iouType === 'segm') {
    let oddGt = 0;
    for (let i = 0; i < gt.anns.count; i++) if (hasOddPolygon(gt.anns.segmentation[i])) oddGt++;
    let oddDt = 0;
    for (let i = 0; i < dt.count; i++) if (dt.hasSegmentation[i] && hasOddPolygon(dt.segmentation[i])) oddDt++;
    if (oddGt > 0) diagnostics.push(warning(`${gtPath}: ${oddGt} annotation(s) have a polygon with an odd number of coordinates; its last number is dropped, as pycocotools does`));
    if (oddDt > 0) diagnostics.push(warning(`${resPath}: ${oddDt} result(s) have a polygon with an odd number of coordinates; its last number is dropped, as pycocotools does`));
  }
  if (params.imgIds) {
    const known = new Set(gt.imageIds);
    const unknown = params.imgIds.filter((id) => !known.has(id));
    if (unknown.length > 0) diagnostics.push(warning(`--img-ids: ${unknown.length} id(s) are not images of the ground truth (${unknown.slice(0, 5).join(', ')}); they have nothing to evaluate`));
  }
  if (params.catIds) {
    const unknown = params.catIds.filter((id) => !gtCats.has(id));
    if (unknown.length > 0) diagnostics.push(warning(`--cat-ids: ${unknown.length} id(s) are not categories of the ground truth (${unknown.slice(0, 5).join(', ')}); their AP is -1`));
  }
  return { iouType, params, fixes, gt, dt, diagnostics, timings: { readGtMs: t1 - t0, readResultsMs: t2 - t1 } };
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

/** `coco/<iouType>`: the whole evaluation, pycocotools' evaluate → accumulate → summarize. */
export async function evaluateCocoTask(iouType: IouType, options: CocoOptions, context: RunContext): Promise<Report> {
  const t0 = performance.now();
  const run = loadRun(iouType, options);
  context.progress.begin('coco: evaluate', 0);
  const t1 = performance.now();
  const out = evaluateCoco(run.gt, run.dt, run.params, run.fixes, iouComputerFor(run));
  const t2 = performance.now();
  const acc = accumulateAll(out.records, out.setup.K, run.params.areaRanges.length, run.params.iouThrs.length, run.params.recThrs, run.params.maxDets);
  const t3 = performance.now();
  context.progress.end();
  const allIndex = Math.max(0, run.params.areaRanges.findIndex((r) => r.label === 'all'));
  const ngt = out.records.map((r) => r.npig[allIndex]);
  return cocoReport({
    task: `coco/${iouType}`,
    params: run.params,
    fixes: run.fixes,
    setup: out.setup,
    acc,
    names: categoryNames(run.gt),
    ngt,
    ndet: out.dtCount,
    arrays: options.arrays,
    diagnostics: run.diagnostics,
    version: PACKAGE_VERSION,
    timings: { ...run.timings, matchMs: t2 - t1, accumulateMs: t3 - t2, totalMs: performance.now() - t0 },
  });
}
