import { inputError, type DevkitError } from '@cvdevkit/core';
import type { GroundTruth, GtAnnotations, Results, ResultsKind } from './dataset.js';

/** A short text of a JSON value for an error message (the value itself, cut to 80 characters). */
export function showValue(v: unknown): string {
  let s: string;
  if (v === undefined) return 'nothing';
  if (typeof v === 'number' && !Number.isFinite(v)) s = String(v);
  else {
    try {
      s = JSON.stringify(v) ?? String(v);
    } catch {
      s = String(v);
    }
  }
  return s.length > 80 ? `${s.slice(0, 77)}…` : s;
}

function bad(file: string, field: string, expected: string, found: unknown, code: Parameters<typeof inputError>[0]['code'] = 'input/invalid', hint?: string): DevkitError {
  return inputError({ code, file, field, expected, found: showValue(found), hint });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A JSON number (Python's json gives int or float; `true`/`false` are ints in Python arithmetic). */
function num(v: unknown, file: string, field: string, expected: string): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  throw bad(file, field, expected, v, 'input/number');
}

function optNum(v: unknown, file: string, field: string, expected: string): number {
  return v === undefined ? NaN : num(v, file, field, expected);
}

function numbers(v: unknown, file: string, field: string, expected: string): Float64Array {
  if (!Array.isArray(v)) throw bad(file, field, expected, v);
  const out = new Float64Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = num(v[i], file, `${field}[${i}]`, 'a number');
  return out;
}

/** `COCO(gt)`: the ground truth's images, categories and annotations in columns; ids checked unique and non-zero. */
export function groundTruthFromJson(data: unknown, file: string): GroundTruth {
  if (!isObject(data)) throw bad(file, '(top level)', 'a JSON object with images, annotations and categories', data, 'input/json');
  const images = data.images;
  const categories = data.categories;
  const annotations = data.annotations;
  if (!Array.isArray(images)) throw bad(file, 'images', 'a list of images', images);
  if (!Array.isArray(categories)) throw bad(file, 'categories', 'a list of categories', categories);
  if (!Array.isArray(annotations)) throw bad(file, 'annotations', 'a list of annotations', annotations);

  const imageIds = new Float64Array(images.length);
  const imageHeights = new Float64Array(images.length);
  const imageWidths = new Float64Array(images.length);
  const seenImages = new Map<number, number>();
  for (let i = 0; i < images.length; i++) {
    const im: unknown = images[i];
    if (!isObject(im)) throw bad(file, `images[${i}]`, 'an object {id, height, width}', im);
    const id = num(im.id, file, `images[${i}].id`, 'an integer image id');
    const prev = seenImages.get(id);
    if (prev !== undefined) throw bad(file, `images[${i}].id`, `image ids listed once (images[${prev}] has the same id)`, id, 'input/duplicate-id');
    seenImages.set(id, i);
    imageIds[i] = id;
    imageHeights[i] = optNum(im.height, file, `images[${i}].height`, 'the image height');
    imageWidths[i] = optNum(im.width, file, `images[${i}].width`, 'the image width');
  }
  const categoryIds = new Float64Array(categories.length);
  const categoryNames: string[] = [];
  const seenCats = new Map<number, number>();
  for (let i = 0; i < categories.length; i++) {
    const c: unknown = categories[i];
    if (!isObject(c)) throw bad(file, `categories[${i}]`, 'an object {id, name}', c);
    const id = num(c.id, file, `categories[${i}].id`, 'an integer category id');
    const prev = seenCats.get(id);
    if (prev !== undefined) throw bad(file, `categories[${i}].id`, `category ids listed once (categories[${prev}] has the same id)`, id, 'input/duplicate-id');
    seenCats.set(id, i);
    categoryIds[i] = id;
    categoryNames.push(typeof c.name === 'string' ? c.name : String(id));
  }

  const n = annotations.length;
  const anns: GtAnnotations = {
    count: n,
    id: new Float64Array(n),
    imageId: new Float64Array(n),
    categoryId: new Float64Array(n),
    area: new Float64Array(n),
    iscrowd: new Float64Array(n),
    ignore: new Float64Array(n),
    bbox: new Float64Array(4 * n).fill(NaN),
    numKeypoints: new Float64Array(n),
    keypoints: new Array<Float64Array | undefined>(n),
    segmentation: new Array<unknown>(n),
  };
  const seenIds = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const a: unknown = annotations[i];
    const at = `annotations[${i}]`;
    if (!isObject(a)) throw bad(file, at, 'an annotation object', a);
    if (a.id === undefined) throw bad(file, `${at}.id`, 'an annotation id (pycocotools indexes annotations by id)', a.id, 'input/invalid');
    const id = num(a.id, file, `${at}.id`, 'an integer annotation id');
    const prev = seenIds.get(id);
    if (prev !== undefined) {
      throw bad(file, `${at}.id`, `unique annotation ids (annotations[${prev}] has the same id; pycocotools would drop the first and count the second twice)`, id, 'input/duplicate-id');
    }
    seenIds.set(id, i);
    anns.id[i] = id;
    anns.imageId[i] = num(a.image_id, file, `${at}.image_id`, 'an image id');
    anns.categoryId[i] = num(a.category_id, file, `${at}.category_id`, 'a category id');
    if (a.area === undefined) throw bad(file, `${at}.area`, 'an area (pycocotools reads it for the area ranges)', a.area);
    anns.area[i] = num(a.area, file, `${at}.area`, 'a number');
    if (a.iscrowd === undefined) throw bad(file, `${at}.iscrowd`, 'iscrowd 0 or 1 (pycocotools requires it)', a.iscrowd);
    anns.iscrowd[i] = num(a.iscrowd, file, `${at}.iscrowd`, 'iscrowd 0 or 1');
    anns.ignore[i] = optNum(a.ignore, file, `${at}.ignore`, 'a number');
    if (a.bbox !== undefined) {
      const b = numbers(a.bbox, file, `${at}.bbox`, 'a box [x, y, w, h]');
      if (b.length !== 4) throw bad(file, `${at}.bbox`, 'a box of 4 numbers [x, y, w, h]', a.bbox, 'input/box');
      anns.bbox.set(b, 4 * i);
    }
    anns.numKeypoints[i] = optNum(a.num_keypoints, file, `${at}.num_keypoints`, 'a number');
    if (a.keypoints !== undefined) anns.keypoints[i] = numbers(a.keypoints, file, `${at}.keypoints`, 'a list [x1, y1, v1, …]');
    anns.segmentation[i] = a.segmentation;
  }
  return { file, imageIds, imageHeights, imageWidths, categoryIds, categoryNames, anns };
}

/** What the segm results need from the mask API: a compressed RLE's area and box (`mask.area`, `mask.toBbox`). */
export interface MaskMeasure {
  (segmentation: unknown, field: string): { area: number; bbox: ArrayLike<number> };
}

export interface LoadResultsOptions {
  /** Measures compressed RLEs (segmentation branch; `--fix mask-area`). */
  measureMask?: MaskMeasure;
  /** `--fix mask-area`: a result with a mask takes the mask's area even when it carries a bbox. */
  maskArea?: boolean;
}

/**
 * `COCO.loadRes` (C:305-364): the branch is chosen by the first result (bbox, then segmentation, then
 * keypoints); ids become 1..N; every image id must be a GT image. An empty list is valid (kind `empty`).
 */
export function resultsFromJson(data: unknown, file: string, gt: GroundTruth, options: LoadResultsOptions = {}): Results {
  if (!Array.isArray(data)) throw bad(file, '(top level)', 'a JSON list of results [{image_id, category_id, score, …}]', data, 'input/json');
  const n = data.length;
  let kind: ResultsKind = 'empty';
  if (n > 0) {
    const first: unknown = data[0];
    if (!isObject(first)) throw bad(file, '[0]', 'a result object', first);
    if (first.bbox !== undefined && !(Array.isArray(first.bbox) && first.bbox.length === 0)) kind = 'bbox';
    else if (first.segmentation !== undefined) kind = 'segmentation';
    else if (first.keypoints !== undefined) kind = 'keypoints';
    else throw bad(file, '[0]', 'a result with bbox, segmentation or keypoints', first);
  }
  const r: Results = {
    file,
    kind,
    count: n,
    imageId: new Float64Array(n),
    categoryId: new Float64Array(n),
    score: new Float64Array(n),
    area: new Float64Array(n),
    bbox: new Float64Array(4 * n),
    keypoints: new Array<Float64Array | undefined>(n),
    segmentation: new Array<unknown>(n),
    hasSegmentation: new Uint8Array(n),
  };
  const images = new Set<number>(gt.imageIds);
  for (let i = 0; i < n; i++) {
    const d: unknown = data[i];
    const at = `[${i}]`;
    if (!isObject(d)) throw bad(file, at, 'a result object', d);
    const imageId = num(d.image_id, file, `${at}.image_id`, 'an image id');
    if (!images.has(imageId)) {
      throw bad(file, `${at}.image_id`, `an image id of the ground truth ${gt.file}`, imageId, 'input/unknown-image', 'pycocotools stops here: "Results do not correspond to current coco set"');
    }
    r.imageId[i] = imageId;
    r.categoryId[i] = num(d.category_id, file, `${at}.category_id`, 'a category id');
    r.score[i] = num(d.score, file, `${at}.score`, 'a score');
    if (d.segmentation !== undefined) {
      r.segmentation[i] = d.segmentation;
      r.hasSegmentation[i] = 1;
    }
    if (d.keypoints !== undefined) r.keypoints[i] = numbers(d.keypoints, file, `${at}.keypoints`, 'a list [x1, y1, v1, …]');
    if (kind === 'bbox') {
      const b = numbers(d.bbox, file, `${at}.bbox`, 'a box [x, y, w, h] (the first result has one, so every result needs one)');
      if (b.length !== 4) throw bad(file, `${at}.bbox`, 'a box of 4 numbers [x, y, w, h]', d.bbox, 'input/box');
      r.bbox.set(b, 4 * i);
      r.area[i] = b[2] * b[3];
      if (options.maskArea && r.hasSegmentation[i] && options.measureMask) r.area[i] = options.measureMask(d.segmentation, `${at}.segmentation`).area;
    } else if (kind === 'segmentation') {
      if (d.segmentation === undefined) throw bad(file, `${at}.segmentation`, 'a compressed RLE {size, counts} (the first result has one, so every result needs one)', undefined);
      if (!options.measureMask) throw bad(file, `${at}.segmentation`, 'segmentation results only with the mask API', d.segmentation);
      const m = options.measureMask(d.segmentation, `${at}.segmentation`);
      r.area[i] = m.area;
      if (d.bbox !== undefined) {
        const b = numbers(d.bbox, file, `${at}.bbox`, 'a box [x, y, w, h]');
        if (b.length !== 4) throw bad(file, `${at}.bbox`, 'a box of 4 numbers [x, y, w, h]', d.bbox, 'input/box');
        r.bbox.set(b, 4 * i);
      } else r.bbox.set(m.bbox, 4 * i);
    } else {
      const kp = r.keypoints[i];
      if (kp === undefined) throw bad(file, `${at}.keypoints`, 'keypoints [x1, y1, v1, …] (the first result has them, so every result needs them)', undefined);
      if (kp.length < 3) throw bad(file, `${at}.keypoints`, 'at least one keypoint [x, y, v]', d.keypoints);
      let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
      let nanX = false, nanY = false;
      for (let j = 0; j + 1 < kp.length; j += 3) {
        const x = kp[j], y = kp[j + 1];
        if (x !== x) nanX = true;
        if (y !== y) nanY = true;
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        if (y > y1) y1 = y;
      }
      if (nanX) x0 = x1 = NaN;
      if (nanY) y0 = y1 = NaN;
      r.area[i] = (x1 - x0) * (y1 - y0);
      r.bbox[4 * i] = x0;
      r.bbox[4 * i + 1] = y0;
      r.bbox[4 * i + 2] = x1 - x0;
      r.bbox[4 * i + 3] = y1 - y0;
    }
  }
  return r;
}
