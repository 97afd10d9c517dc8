import { usageError } from '@cvdevkit/core';
import type { CocoFixes } from './evaluate.js';
import { COCO17_SIGMAS, CROWDPOSE14_SIGMAS, defaultParams, type AreaRange, type CocoParams, type IouType } from './params.js';

/** Options of `coco/bbox`, `coco/segm` and `coco/keypoints` (CLI flags are the kebab-case names). */
export interface CocoOptions {
  /** Ground truth: instances_*.json / person_keypoints_*.json. */
  gt: string;
  /** Results: a JSON list [{image_id, category_id, score, bbox | segmentation | keypoints}]. */
  results: string;
  /** IoU thresholds, comma-separated (default numpy's linspace(.5, .95, 10)). */
  iouThrs?: string;
  /** Recall thresholds, comma-separated (default linspace(0, 1, 101)). */
  recThrs?: string;
  /** maxDets, comma-separated (default 1,10,100; keypoints 20). */
  maxDets?: string;
  /** Area ranges "label=lo,hi;…" (default all, small, medium, large; keypoints without small). */
  areaRng?: string;
  /** 1 (default): per category; 0: categories pooled. */
  useCats?: number;
  /** Evaluate only these image ids (comma-separated). */
  imgIds?: string;
  /** Evaluate only these category ids (comma-separated). */
  catIds?: string;
  /** OKS sigmas: 17 numbers, `coco17` or `crowdpose14` (keypoints). */
  kptSigmas?: string;
  /** pycocotools defects to fix: `maxdets`, `ignore`, `mask-area` (comma-separated). */
  fix?: string;
  /** Put pycocotools' precision, recall and scores arrays in the report (top level). */
  arrays?: boolean;
  /** Evaluate slice i of n of the images ("2/3", "auto", "auto/n"); needs --records-out. */
  shard?: string;
  /** Where a shard writes its records (JSON, for `cvdevkit merge`). */
  recordsOut?: string;
}

declare module '@cvdevkit/core' {
  interface TaskRegistry {
    'coco/bbox': CocoOptions;
    'coco/segm': CocoOptions;
    'coco/keypoints': CocoOptions;
  }
}

function numberList(text: string, flag: string, what: string): number[] {
  const parts = text.split(',').map((s) => s.trim());
  if (parts.length === 0 || parts.some((p) => p === '')) throw usageError(`--${flag}: expected ${what}, found ${JSON.stringify(text)}`, 'usage/invalid');
  return parts.map((p) => {
    const v = Number(p);
    if (!Number.isFinite(v)) throw usageError(`--${flag}: expected ${what}, found ${JSON.stringify(p)}`, 'usage/invalid');
    return v;
  });
}

function integerList(text: string, flag: string, what: string): number[] {
  const v = numberList(text, flag, what);
  for (const x of v) if (!Number.isSafeInteger(x)) throw usageError(`--${flag}: expected ${what}, found ${x}`, 'usage/invalid');
  return v;
}

/** "all=0,1e10;small=0,1024;…" → labelled ranges (labels unique). */
export function parseAreaRanges(text: string): AreaRange[] {
  const out: AreaRange[] = [];
  for (const part of text.split(';').map((s) => s.trim())) {
    if (part === '') continue;
    const m = /^([^=]+)=\s*([^,]+?)\s*,\s*(.+?)\s*$/.exec(part);
    const lo = m ? Number(m[2]) : NaN;
    const hi = m ? Number(m[3]) : NaN;
    if (!m || Number.isNaN(lo) || Number.isNaN(hi)) throw usageError(`--area-rng: expected "label=lo,hi;…" (for example "all=0,1e10;small=0,1024"), found ${JSON.stringify(part)}`, 'usage/invalid');
    const label = m[1].trim();
    if (out.some((a) => a.label === label)) throw usageError(`--area-rng: expected each label once, found "${label}" twice`, 'usage/invalid');
    out.push({ label, lo, hi });
  }
  if (out.length === 0) throw usageError(`--area-rng: expected at least one range "label=lo,hi", found ${JSON.stringify(text)}`, 'usage/invalid');
  return out;
}

export const FIX_NAMES = ['maxdets', 'ignore', 'mask-area'] as const;

export function parseFixes(text: string | undefined): CocoFixes {
  const fixes: CocoFixes = {};
  if (text === undefined || text.trim() === '') return fixes;
  for (const f of text.split(',').map((s) => s.trim().toLowerCase())) {
    if (f === '') continue;
    if (f === 'maxdets') fixes.maxdets = true;
    else if (f === 'ignore') fixes.ignore = true;
    else if (f === 'mask-area') fixes.maskArea = true;
    else throw usageError(`--fix: expected some of ${FIX_NAMES.join(', ')}, found ${JSON.stringify(f)}`, 'usage/invalid');
  }
  return fixes;
}

/** The fixes in force, by name ("" when none: the official protocol). */
export function fixNames(f: CocoFixes): string[] {
  return [...(f.maxdets ? ['maxdets'] : []), ...(f.ignore ? ['ignore'] : []), ...(f.maskArea ? ['mask-area'] : [])];
}

export function parseSigmas(text: string): Float64Array {
  const t = text.trim().toLowerCase();
  if (t === 'coco17') return COCO17_SIGMAS.slice();
  if (t === 'crowdpose14') return CROWDPOSE14_SIGMAS.slice();
  const v = numberList(text, 'kpt-sigmas', 'coco17, crowdpose14 or one positive number per keypoint');
  if (v.some((x) => !(x > 0))) throw usageError(`--kpt-sigmas: expected positive numbers, found ${JSON.stringify(text)}`, 'usage/invalid');
  return Float64Array.from(v);
}

/** The Params of a run: the iouType's defaults with the options applied. */
export function paramsFromOptions(iouType: IouType, o: CocoOptions): CocoParams {
  const p = defaultParams(iouType);
  if (o.iouThrs !== undefined) p.iouThrs = Float64Array.from(numberList(o.iouThrs, 'iou-thrs', 'comma-separated IoU thresholds such as 0.5,0.75'));
  if (o.recThrs !== undefined) p.recThrs = Float64Array.from(numberList(o.recThrs, 'rec-thrs', 'comma-separated recall thresholds such as 0,0.1,…,1'));
  if (o.maxDets !== undefined) {
    const m = integerList(o.maxDets, 'max-dets', 'comma-separated non-negative integers such as 1,10,100');
    if (m.some((x) => x < 0)) throw usageError(`--max-dets: expected non-negative integers, found ${JSON.stringify(o.maxDets)}`, 'usage/invalid');
    p.maxDets = m.sort((a, b) => a - b);
  }
  if (iouType !== 'keypoints' && p.maxDets.length < 3) {
    throw usageError(`--max-dets: expected at least 3 values for ${iouType} (pycocotools' summary reads maxDets[0], [1] and [2]), found ${JSON.stringify(o.maxDets)}`, 'usage/invalid');
  }
  if (o.areaRng !== undefined) p.areaRanges = parseAreaRanges(o.areaRng);
  if (o.useCats !== undefined) {
    if (o.useCats !== 0 && o.useCats !== 1) throw usageError(`--use-cats: expected 0 or 1, found ${o.useCats}`, 'usage/invalid');
    p.useCats = o.useCats === 1;
  }
  if (o.imgIds !== undefined) p.imgIds = integerList(o.imgIds, 'img-ids', 'comma-separated image ids');
  if (o.catIds !== undefined) {
    const c = integerList(o.catIds, 'cat-ids', 'comma-separated category ids');
    if (new Set(c).size !== c.length) throw usageError(`--cat-ids: expected each id once, found ${JSON.stringify(o.catIds)}`, 'usage/invalid');
    p.catIds = c;
  }
  if (o.kptSigmas !== undefined) {
    if (iouType !== 'keypoints') throw usageError(`--kpt-sigmas: only coco/keypoints uses OKS sigmas`, 'usage/invalid');
    p.kptSigmas = parseSigmas(o.kptSigmas);
  }
  return p;
}
