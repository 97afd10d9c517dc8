import { inputError } from '@cvdevkit/core';
import './codes.js';
import { CountsArena, decodeBytes, decodeBytesArea, decodeBytesMeasured, decodeString, decodeStringMeasured, fromPolygons, fromUncompressed, isRleError, merge, type MeasuredRle, type PackedCounts, type Rle } from '@cvdevkit/rle';
import type { Results } from './dataset.js';
import { showValue, type MaskMeasure } from './load.js';

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `size: [h, w]` of an RLE object. */
function rleSize(v: Record<string, unknown>, file: string, field: string): [number, number] {
  const s = v.size;
  if (!Array.isArray(s) || s.length !== 2 || typeof s[0] !== 'number' || typeof s[1] !== 'number') {
    throw inputError({ code: 'coco/segmentation', file, field: `${field}.size`, expected: 'an RLE size [height, width]', found: showValue(s) });
  }
  return [s[0], s[1]];
}

function polygonList(v: unknown[], file: string, field: string): ArrayLike<number>[] {
  const out: ArrayLike<number>[] = [];
  for (let i = 0; i < v.length; i++) {
    const p: unknown = v[i];
    if (!Array.isArray(p) || !p.every((x) => typeof x === 'number')) {
      throw inputError({ code: 'coco/segmentation', file, field: `${field}[${i}]`, expected: 'a polygon [x1, y1, x2, y2, …] of numbers', found: showValue(p) });
    }
    // as doubles (the same numbers): the rasteriser then sees one kind of array, where JSON gives integer lists and
    // fraction lists as two (its optimised code was thrown away at the first of the other kind, and compiled again);
    // a list of 4 numbers or fewer kept as given, for the error that shows it
    out.push(p.length > 4 ? Float64Array.from(p as number[]) : (p as number[]));
  }
  return out;
}

/** Rethrows a mask API error as an input error at `file [field]`, with the value. */
function located<T>(file: string, field: string, value: unknown, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (isRleError(e)) {
      throw inputError({ code: 'coco/segmentation', file, field, expected: e.expected ?? 'a valid segmentation', found: e.found ?? showValue(value), detail: e.detail ?? e.message });
    }
    throw e;
  }
}

/**
 * `COCO.annToRLE` (C:413-432): polygons are rasterised at the image's size and united; an uncompressed
 * RLE (`counts` a list) and a compressed one (`counts` a string) keep their own size.
 */
export function segmentationToRle(segm: unknown, h: number, w: number, file: string, field: string): Rle {
  return located(file, field, segm, () => {
    if (Array.isArray(segm)) {
      const polys = polygonList(segm, file, field);
      const parts = fromPolygons(polys, h, w);
      return parts.length === 1 ? parts[0] : merge(parts);
    }
    if (isObject(segm)) {
      const [rh, rw] = rleSize(segm, file, field);
      const counts = segm.counts;
      if (typeof counts === 'string') return decodeString(counts, rh, rw);
      if (Array.isArray(counts)) {
        if (!counts.every((x) => typeof x === 'number')) throw inputError({ code: 'coco/segmentation', file, field: `${field}.counts`, expected: 'run lengths (integers)', found: showValue(counts) });
        return fromUncompressed(counts as number[], rh, rw);
      }
      throw inputError({ code: 'coco/segmentation', file, field: `${field}.counts`, expected: 'RLE counts: a compressed string or a list of run lengths', found: showValue(counts) });
    }
    throw inputError({ code: 'coco/segmentation', file, field, expected: 'a segmentation: a list of polygons or an RLE {size, counts}', found: showValue(segm) });
  });
}

/**
 * A segm result's mask in loadRes' segmentation branch, with its area and box: `mask.area` and
 * `mask.toBbox` go through `_frString`, so only a compressed RLE is accepted there (pycocotools raises
 * TypeError on a list of counts or polygons). The string is parsed once for all three.
 */
export function compressedRleMeasured(segm: unknown, file: string, field: string, arena?: CountsArena): MeasuredRle {
  if (!isObject(segm) || typeof segm.counts !== 'string') {
    throw inputError({
      code: 'coco/segmentation',
      file,
      field,
      expected: 'a compressed RLE {size: [h, w], counts: "<string>"} (the first result has no bbox, so pycocotools reads every mask as compressed RLE)',
      found: showValue(segm),
      hint: 'encode masks with pycocotools.mask.encode, or give each result a bbox',
    });
  }
  const [h, w] = rleSize(segm, file, field);
  return located(file, field, segm, () => decodeStringMeasured(segm.counts as string, h, w, arena));
}

/** The mask of `compressedRleMeasured`. */
export function compressedRle(segm: unknown, file: string, field: string): Rle {
  return compressedRleMeasured(segm, file, field).rle;
}

/** True when a polygon list holds a polygon of odd length (pycocotools drops its last number). */
export function hasOddPolygon(segm: unknown): boolean {
  return Array.isArray(segm) && segm.some((p) => Array.isArray(p) && p.length % 2 === 1);
}

/** loadRes' `mask.area(segm)` and `mask.toBbox(segm)` of a compressed-RLE result (`bytes`: of one the reader kept as bytes). */
export interface CompressedMeasure {
  (segm: unknown, field: string): { area: number; bbox: Float64Array; mask: Rle };
  bytes(src: Uint8Array, start: number, end: number, h: number, w: number, areas: Float64Array, boxes: Float64Array, i: number): void;
  tryBytes: NonNullable<MaskMeasure['tryBytes']>;
}

export function measureCompressed(file: string): CompressedMeasure {
  const arena = new CountsArena(); // the results' masks live together: their counts share chunks
  const measure = (segm: unknown, field: string) => {
    const m = compressedRleMeasured(segm, file, field, arena);
    return { area: m.area, bbox: m.bbox, mask: m.rle };
  };
  // the byte form is always {size: [two numbers], counts: "<string>"}: only the mask API's checks can
  // fail; the counts are not kept (the IoU decodes the bytes again)
  const bytes = (src: Uint8Array, start: number, end: number, h: number, w: number, areas: Float64Array, boxes: Float64Array, i: number): void => {
    try {
      decodeBytesMeasured(src, start, end, h, w, undefined, areas, boxes, i);
    } catch (e) {
      if (!isRleError(e)) throw e;
      // the same error as the value's: measured again from the value, where it fails the same way
      compressedRleMeasured({ size: [h, w], counts: bytesText(src, start, end) }, file, `[${i}].segmentation`);
      throw e;
    }
  };
  // the same without the errors (the sink that measures while the file is read: a failure is kept and
  // measured again, in order, by `bytes`)
  const tryBytes = {
    box: (src: Uint8Array, start: number, end: number, h: number, w: number, areas: Float64Array, boxes: Float64Array, i: number): boolean => {
      try {
        decodeBytesMeasured(src, start, end, h, w, undefined, areas, boxes, i);
        return true;
      } catch (e) {
        if (!isRleError(e)) throw e;
        return false;
      }
    },
    area: (src: Uint8Array, start: number, end: number, h: number, w: number, areas: Float64Array, i: number): boolean => {
      try {
        decodeBytesArea(src, start, end, h, w, areas, i);
        return true;
      } catch (e) {
        if (!isRleError(e)) throw e;
        return false;
      }
    },
  };
  return Object.assign(measure, { bytes, tryBytes });
}

/** The string the bytes src[start..end) spell (one character per byte). */
function bytesText(src: Uint8Array, start: number, end: number): string {
  let s = '';
  for (let k = start; k < end; k++) s += String.fromCharCode(src[k]);
  return s;
}

/**
 * The mask of result i that loadRes measured from the file's bytes (`Results.maskBytes`), decoded
 * again: its counts appended to `packed` (a view of them is returned); undefined when result i is not
 * one of those.
 */
export function maskFromBytes(mb: NonNullable<Results['maskBytes']>, i: number, packed: PackedCounts): Rle | undefined {
  const len = mb.length[i];
  // -2: measured while the file was read and not kept, as no unit with ground truth holds it (never asked for)
  if (len === -2) throw new Error(`coco: the mask of result ${i} was not kept (a unit without ground truth holds it)`);
  if (len < 0) return undefined;
  const at = mb.start[i];
  const h = mb.h[i];
  const w = mb.w[i];
  const base = packed.length;
  const m = decodeBytes(mb.bytes, at, at + len, h, w, packed);
  return packed.rle(h, w, base, m);
}
