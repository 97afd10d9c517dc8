import { statSync } from 'node:fs';
import { inputError, type DevkitError } from '@cvdevkit/core';
import { isJsonColumnsError, readJsonColumns, type JsonColumnsError, type Layout, type ReadOptions, type ReadResult, type RecordColumns, type RleSink } from '@cvdevkit/json-columns';
import type { GroundTruth, Results, ResultsKind } from './dataset.js';
import { readSegmResultsWithKernel } from './results-kernel.js';

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

function bad(file: string, field: string, expected: string, found: unknown, code: Parameters<typeof inputError>[0]['code'] = 'coco/missing-field', hint?: string): DevkitError {
  return inputError({ code, file, field, expected, found: showValue(found), hint });
}

/** The reader's error as an input error at `file` (byte offset, record path, the value). */
export function fromReaderError(e: JsonColumnsError, file: string): DevkitError {
  const code = e.reason === 'syntax' ? 'input/json' : e.reason === 'read' ? 'input/read' : e.reason === 'inexact-integer' ? 'input/number' : e.reason === 'type' ? 'coco/field-type' : 'coco/file-layout';
  return inputError({ code, file, offset: e.reason === 'read' ? undefined : e.offset, field: e.path, expected: e.expected, found: e.found });
}

function read(path: string, layout: Layout, options?: ReadOptions): ReadResult {
  try {
    return readJsonColumns(path, layout, options);
  } catch (e) {
    if (isJsonColumnsError(e)) throw fromReaderError(e, path);
    throw e;
  }
}

function requirePresent(c: RecordColumns, list: string, field: string, file: string, expected: string): void {
  const present = c.present[field];
  for (let i = 0; i < c.count; i++) if (!present[i]) throw bad(file, `${list}[${i}].${field}`, expected, undefined);
}

function lists(c: RecordColumns, field: string): (Float64Array | undefined)[] {
  const l = c.lists[field];
  // no record has the field: every entry undefined, without a view per record (and without writing n
  // entries: an array this long with nothing in it is held as an empty dictionary)
  if (c.present[field].indexOf(1) < 0) return new Array<undefined>(c.count);
  const out = new Array<Float64Array | undefined>(c.count);
  for (let i = 0; i < c.count; i++) if (l.length[i] >= 0) out[i] = l.values.subarray(l.start[i], l.start[i] + l.length[i]);
  return out;
}

/**
 * `COCO(gt)`, streamed: the ground truth's images, categories and annotations in columns; ids checked
 * unique, present and exact. Segmentations are built only when `segmentation` is set (segm).
 */
export function readGroundTruth(file: string, options: { segmentation: boolean }): GroundTruth {
  const r = read(file, {
    root: 'object',
    lists: {
      images: { id: 'id', height: 'number', width: 'number', file_name: 'string' },
      categories: { id: 'id', name: 'string', supercategory: 'string' },
      annotations: {
        id: 'id',
        image_id: 'id',
        category_id: 'id',
        area: 'number',
        iscrowd: 'number',
        ignore: 'number',
        bbox: 'numbers',
        num_keypoints: 'number',
        keypoints: 'numbers',
        ...(options.segmentation ? { segmentation: 'value' as const } : {}),
      },
    },
  });
  for (const k of r.missing) throw bad(file, k, `a list "${k}" (a COCO instances or person_keypoints file)`, undefined, 'coco/file-layout');
  const images = r.lists.images;
  const categories = r.lists.categories;
  const a = r.lists.annotations;
  requirePresent(images, 'images', 'id', file, 'an image id');
  requirePresent(categories, 'categories', 'id', file, 'a category id');
  uniqueIds(images.numbers.id, file, 'images', 'image ids listed once');
  uniqueIds(categories.numbers.id, file, 'categories', 'category ids listed once');
  requirePresent(a, 'annotations', 'id', file, 'an annotation id (pycocotools indexes annotations by id)');
  uniqueIds(a.numbers.id, file, 'annotations', 'unique annotation ids', 'pycocotools would drop the first and count the second twice');
  requirePresent(a, 'annotations', 'image_id', file, 'an image id');
  requirePresent(a, 'annotations', 'category_id', file, 'a category id');
  requirePresent(a, 'annotations', 'area', file, 'an area (pycocotools reads it for the area ranges)');
  requirePresent(a, 'annotations', 'iscrowd', file, 'iscrowd 0 or 1 (pycocotools requires it)');
  const bl = a.lists.bbox;
  const bbox = new Float64Array(4 * a.count).fill(NaN);
  for (let i = 0; i < a.count; i++) {
    if (bl.length[i] < 0) continue;
    if (bl.length[i] !== 4) throw bad(file, `annotations[${i}].bbox`, 'a box of 4 numbers [x, y, w, h]', Array.from(bl.values.subarray(bl.start[i], bl.start[i] + bl.length[i])), 'input/box');
    bbox.set(bl.values.subarray(bl.start[i], bl.start[i] + 4), 4 * i);
  }
  const names = categories.strings.name.map((n, i) => n ?? String(categories.numbers.id[i]));
  return {
    file,
    imageIds: images.numbers.id,
    imageHeights: images.numbers.height,
    imageWidths: images.numbers.width,
    categoryIds: categories.numbers.id,
    categoryNames: names,
    imageFileNames: images.strings.file_name,
    categorySupercategories: categories.strings.supercategory,
    anns: {
      count: a.count,
      id: a.numbers.id,
      imageId: a.numbers.image_id,
      categoryId: a.numbers.category_id,
      area: a.numbers.area,
      iscrowd: a.numbers.iscrowd,
      ignore: a.numbers.ignore,
      bbox,
      numKeypoints: a.numbers.num_keypoints,
      keypoints: lists(a, 'keypoints'),
      segmentation: a.values.segmentation ?? new Array<unknown>(a.count),
    },
  };
}

function uniqueIds(ids: Float64Array, file: string, list: string, expected: string, why?: string): void {
  // sorted, equal ids are neighbours: a typed-array sort is cheaper than a Map of tens of thousands of
  // ids; only when some id repeats (or there is more than one NaN, which the sort does not put together
  // as equal) does the Map below find the first repeat in file order for the message
  const sorted = ids.slice().sort();
  let repeated = false;
  let nans = 0;
  for (let i = 0; i < sorted.length; i++) {
    if (sorted[i] !== sorted[i]) nans++;
    else if (i > 0 && sorted[i] === sorted[i - 1]) repeated = true;
  }
  if (!repeated && nans < 2) return;
  const seen = new Map<number, number>();
  for (let i = 0; i < ids.length; i++) {
    const prev = seen.get(ids[i]);
    if (prev !== undefined) throw bad(file, `${list}[${i}].id`, `${expected} (${list}[${prev}] has the same id${why ? `; ${why}` : ''})`, ids[i], 'input/duplicate-id');
    seen.set(ids[i], i);
  }
}

/** What the segm results need from the mask API: a compressed RLE's area and box (`mask.area`, `mask.toBbox`). */
export interface MaskMeasure {
  (segmentation: unknown, field: string): { area: number; bbox: ArrayLike<number>; mask?: unknown };
  /**
   * The same for result i's `{size: [h, w], counts}` as the reader kept it (the counts string as the bytes
   * src[start..end)): the area into areas[i], the box into boxes[4i … 4i+3]. Errors as the call above
   * gives them for `[i].segmentation`.
   */
  bytes?: (src: Uint8Array, start: number, end: number, h: number, w: number, areas: Float64Array, boxes: Float64Array, i: number) => void;
  /** `bytes` without its errors, false where it would throw (nothing written then); and the area alone the same way. */
  tryBytes?: {
    box: (src: Uint8Array, start: number, end: number, h: number, w: number, areas: Float64Array, boxes: Float64Array, i: number) => boolean;
    area: (src: Uint8Array, start: number, end: number, h: number, w: number, areas: Float64Array, i: number) => boolean;
  };
}

export interface LoadResultsOptions {
  /** Measures compressed RLEs (segmentation branch; `--fix mask-area`). */
  measureMask?: MaskMeasure;
  /** `--fix mask-area`: a result with a mask takes the mask's area even when it carries a bbox. */
  maskArea?: boolean;
  /**
   * Segmentation branch, masks in the byte form: whether the mask of a result on this image and category
   * is needed after loading (by the IoU of a unit with ground truth). The others are measured while the file
   * is read and their strings are not kept (most of a results file's bytes, never read again); their
   * `maskBytes.length` is -2, and only their area is measured (their `bbox` is NaN: nothing reads it).
   * Undefined: every mask is kept (validate, analyze).
   */
  keepMask?: (imageId: number, categoryId: number) => boolean;
  /** Read with the JavaScript reader even where the WebAssembly kernel would answer (tests compare the two). */
  javascriptReader?: boolean;
}

/** An area per result and a box per result, grown while a file is read (the sink's measures). */
class Measures {
  area: Float64Array;
  box: Float64Array;
  /** 1 where the row was measured. */
  done: Uint8Array;
  /** Room for `rows` rows at once (pages of fresh arrays cost memory only where written: room to spare is free). */
  constructor(rows: number, measured?: { area: Float64Array; box: Float64Array }) {
    this.area = measured ? measured.area : new Float64Array(rows);
    this.box = measured ? measured.box : new Float64Array(4 * rows);
    this.done = new Uint8Array(rows);
  }
  reserve(i: number): void {
    if (i < this.done.length) return;
    const n = Math.max(i + 1, 2 * this.done.length);
    const area = new Float64Array(n);
    area.set(this.area);
    this.area = area;
    const box = new Float64Array(4 * n);
    box.set(this.box);
    this.box = box;
    const done = new Uint8Array(n);
    done.set(this.done);
    this.done = done;
  }
}

/**
 * The sink that measures the masks of the segmentation branch as the file is read (see `keepMask`): the
 * branch is the first result's (a bbox in it, or no mask in the byte form: every string is kept and measured
 * after, as without a sink). A string the mask API rejects is kept: it is measured again in order after the
 * reading, where it fails with its error.
 */
function maskSink(keepMask: (imageId: number, categoryId: number) => boolean, tryMeasure: NonNullable<MaskMeasure['tryBytes']>, m: Measures): RleSink {
  let measuring: boolean | undefined;
  return (i, h, w, bytes, start, end, record) => {
    measuring ??= i === 0 && !record.has('bbox');
    if (!measuring) return true;
    m.reserve(i);
    if (keepMask(record.number('image_id'), record.number('category_id'))) {
      if (tryMeasure.box(bytes, start, end, h, w, m.area, m.box, i)) m.done[i] = 1;
      return true;
    }
    // never compared: the area alone (the box is NaN: nothing reads it)
    if (!tryMeasure.area(bytes, start, end, h, w, m.area, i)) return true;
    m.box.fill(NaN, 4 * i, 4 * i + 4);
    m.done[i] = 1;
    return false;
  };
}

/**
 * The columns and the sink's measures of the JavaScript reader with `maskSink`, from the kernel's reading
 * (`results-kernel.ts`; undefined where it does not answer): every mask measured, and the strings of the
 * masks `keepMask` does not keep dropped as the sink drops them (length -2, box NaN, the area kept).
 */
function kernelColumns(file: string, keepMask: (imageId: number, categoryId: number) => boolean): { c: RecordColumns; measures: Measures } | undefined {
  const k = readSegmResultsWithKernel(file, keepMask);
  if (k === undefined) return undefined;
  const measures = new Measures(k.c.count, k);
  measures.done.fill(1);
  return { c: k.c, measures };
}

function fileSize(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0; // the reader reports the file
  }
}

/** Record i's `{size, counts}` kept as bytes by the reader, as the value it stands for. */
function rleValue(rl: RecordColumns['rles'][string], i: number): { size: number[]; counts: string } {
  let counts = '';
  for (let k = rl.start[i], end = k + rl.length[i]; k < end; k++) counts += String.fromCharCode(rl.bytes[k]);
  return { size: [rl.h[i], rl.w[i]], counts };
}

/** The first index whose image id is not in `images` (-1: none); one lookup per run of equal ids. */
function firstUnknownImage(ids: Float64Array, images: Set<number>): number {
  let last = NaN;
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i];
    if (id !== last && !images.has(id)) return i;
    last = id;
  }
  return -1;
}

/** area[i] = w·h of box i (`boxes` [x, y, w, h] each). */
function boxAreas(boxes: Float64Array, area: Float64Array, n: number): void {
  for (let i = 0; i < n; i++) area[i] = boxes[4 * i + 2] * boxes[4 * i + 3];
}

/** Every one of the n records has a list of exactly 4 values, record i's at 4i (then `values` is the n boxes). */
function boxesInOrder(l: RecordColumns['lists'][string], n: number): boolean {
  if (l.values.length !== 4 * n) return false;
  for (let i = 0; i < n; i++) if (l.length[i] !== 4 || l.start[i] !== 4 * i) return false;
  return true;
}

/**
 * `COCO.loadRes` (C:305-364), streamed: the branch is chosen by the first result (bbox, then
 * segmentation, then keypoints); ids become 1..N; every image id must be a GT image. An empty list is
 * valid (kind `empty`).
 */
export function readResults(file: string, gt: GroundTruth, options: LoadResultsOptions = {}): Results {
  const tryMeasure = options.keepMask && !options.maskArea ? options.measureMask?.tryBytes : undefined;
  // the plain segm file of an evaluation: read by the WebAssembly kernel (undefined for anything else)
  const kernel = tryMeasure && options.keepMask && !options.javascriptReader ? kernelColumns(file, options.keepMask) : undefined;
  // a result is at least ~64 bytes of JSON: room for all at once (grown if not), at most 4 M rows reserved
  const sunk = kernel ? kernel.measures : tryMeasure ? new Measures(Math.min(1 << 22, Math.max(1024, Math.ceil(fileSize(file) / 64)))) : undefined;
  const sinks = !kernel && sunk && tryMeasure && options.keepMask ? { '': { segmentation: maskSink(options.keepMask, tryMeasure, sunk) } } : undefined;
  const c = kernel ? kernel.c : read(file, { root: 'array', record: { image_id: 'id', category_id: 'id', score: 'number', bbox: 'numbers', keypoints: 'numbers', segmentation: 'rle' } }, sinks ? { rleSinks: sinks } : undefined).lists[''];
  const n = c.count;
  const bl = c.lists.bbox;
  const hasSeg = c.present.segmentation;
  // segmentations: compressed RLEs as the reader's bytes (rl), the others as values (seg); when no result
  // has one, neither is looked at (the reader makes a field's columns only then)
  const anySeg = hasSeg.indexOf(1) >= 0;
  const seg = anySeg ? c.values.segmentation : new Array<unknown>(n);
  const rl = anySeg ? c.rles.segmentation : undefined;
  let kind: ResultsKind = 'empty';
  if (n > 0) {
    if (bl.length[0] > 0) kind = 'bbox';
    else if (hasSeg[0]) kind = 'segmentation';
    else if (c.present.keypoints[0]) kind = 'keypoints';
    else throw bad(file, '[0]', 'a result with bbox, segmentation or keypoints', bl.length[0] === 0 ? 'an empty bbox' : 'none of them', 'coco/missing-field');
  }
  // the byte form is decoded straight into masks in the segmentation branch; elsewhere it becomes the value it stands for
  const measureBytes = kind === 'segmentation' ? options.measureMask?.bytes : undefined;
  if (rl !== undefined && measureBytes === undefined) for (let i = 0; i < n; i++) if (rl.length[i] >= 0) seg[i] = rleValue(rl, i);
  requirePresent(c, '', 'image_id', file, 'an image id');
  requirePresent(c, '', 'category_id', file, 'a category id');
  requirePresent(c, '', 'score', file, 'a score');
  // the measures the sink took while reading (segmentation branch): the areas and the masks' boxes, and
  // the boxes themselves when no result carries one
  const sinkMeasures = sunk !== undefined && kind === 'segmentation' && sunk.done.indexOf(1) >= 0 ? sunk : undefined;
  sinkMeasures?.reserve(n - 1);
  const sunkBoxes = sinkMeasures?.box.subarray(0, 4 * n);
  const noBoxes = sunkBoxes !== undefined && c.present.bbox.indexOf(1) < 0;
  const res: Results = {
    file,
    kind,
    count: n,
    imageId: c.numbers.image_id,
    categoryId: c.numbers.category_id,
    score: c.numbers.score,
    area: sinkMeasures ? sinkMeasures.area.subarray(0, n) : new Float64Array(n),
    // every result a box of 4, in order: the reader's list values are the boxes as they are (no copy)
    bbox: kind === 'bbox' && boxesInOrder(bl, n) ? bl.values : noBoxes ? sunkBoxes : new Float64Array(4 * n),
    keypoints: lists(c, 'keypoints'),
    segmentation: seg,
    hasSegmentation: hasSeg,
    ...(sunkBoxes !== undefined ? { maskBoxes: sunkBoxes } : {}),
  };
  const inPlace = res.bbox === bl.values;
  const images = new Set<number>(gt.imageIds);
  // the common case, every result a box of 4 in order (checked by boxesInOrder) and no mask area to
  // take: two small loops (each compiled on its own, early) instead of the general one below
  if (inPlace && !(options.maskArea && anySeg && options.measureMask)) {
    const i = firstUnknownImage(res.imageId, images);
    if (i >= 0) throw bad(file, `[${i}].image_id`, `an image id of the ground truth ${gt.file}`, res.imageId[i], 'input/unknown-image', 'pycocotools stops here: "Results do not correspond to current coco set"');
    boxAreas(res.bbox, res.area, n);
    return res;
  }
  let lastImage = NaN; // results come image by image: one set lookup per image
  for (let i = 0; i < n; i++) {
    const imageId = res.imageId[i];
    if (imageId !== lastImage && !images.has(imageId)) {
      throw bad(file, `[${i}].image_id`, `an image id of the ground truth ${gt.file}`, imageId, 'input/unknown-image', 'pycocotools stops here: "Results do not correspond to current coco set"');
    }
    lastImage = imageId;
    const blen = bl.length[i];
    if (kind === 'bbox') {
      if (blen < 0) throw bad(file, `[${i}].bbox`, 'a box [x, y, w, h] (the first result has one, so every result needs one)', undefined);
      const b0 = bl.start[i];
      if (blen !== 4) throw bad(file, `[${i}].bbox`, 'a box of 4 numbers [x, y, w, h]', Array.from(bl.values.subarray(b0, b0 + blen)), 'input/box');
      const v = bl.values;
      if (!inPlace) {
        res.bbox[4 * i] = v[b0];
        res.bbox[4 * i + 1] = v[b0 + 1];
        res.bbox[4 * i + 2] = v[b0 + 2];
        res.bbox[4 * i + 3] = v[b0 + 3];
      }
      res.area[i] = v[b0 + 2] * v[b0 + 3];
      if (options.maskArea && res.hasSegmentation[i] && options.measureMask) res.area[i] = options.measureMask(seg[i], `[${i}].segmentation`).area;
    } else if (kind === 'segmentation') {
      const box = blen >= 0 ? bl.values.subarray(bl.start[i], bl.start[i] + blen) : undefined;
      if (!hasSeg[i]) throw bad(file, `[${i}].segmentation`, 'a compressed RLE {size, counts} (the first result has one, so every result needs one)', undefined);
      if (!options.measureMask) throw bad(file, `[${i}].segmentation`, 'segmentation results only with the mask API', seg[i], 'coco/segmentation');
      let measured: ArrayLike<number>;
      if (measureBytes !== undefined && rl !== undefined && rl.length[i] !== -1) {
        const boxes = (res.maskBoxes ??= sunkBoxes ?? new Float64Array(4 * n));
        res.maskBytes = rl;
        // measured while reading (a string not kept, length -2, always was), or now
        if (sinkMeasures?.done[i] !== 1) {
          const at = rl.start[i];
          measureBytes(rl.bytes, at, at + rl.length[i], rl.h[i], rl.w[i], res.area, boxes, i);
        }
        if (box === undefined) {
          if (res.bbox !== boxes) for (let k = 4 * i; k < 4 * i + 4; k++) res.bbox[k] = boxes[k];
          continue;
        }
        measured = boxes;
      } else {
        const m = options.measureMask(seg[i], `[${i}].segmentation`);
        res.area[i] = m.area;
        if (m.mask !== undefined) {
          (res.masks ??= new Array<unknown>(n))[i] = m.mask;
          (res.maskBoxes ??= new Float64Array(4 * n)).set(m.bbox, 4 * i);
        }
        measured = m.bbox;
      }
      if (box !== undefined) {
        if (box.length !== 4) throw bad(file, `[${i}].bbox`, 'a box of 4 numbers [x, y, w, h]', Array.from(box), 'input/box');
        res.bbox.set(box, 4 * i);
      } else res.bbox.set(measured, 4 * i);
    } else {
      const kp = res.keypoints[i];
      if (kp === undefined) throw bad(file, `[${i}].keypoints`, 'keypoints [x1, y1, v1, …] (the first result has them, so every result needs them)', undefined, 'coco/keypoints');
      if (kp.length < 3) throw bad(file, `[${i}].keypoints`, 'at least one keypoint [x, y, v]', Array.from(kp), 'coco/keypoints');
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
      res.area[i] = (x1 - x0) * (y1 - y0);
      res.bbox[4 * i] = x0;
      res.bbox[4 * i + 1] = y0;
      res.bbox[4 * i + 2] = x1 - x0;
      res.bbox[4 * i + 3] = y1 - y0;
    }
  }
  return res;
}
