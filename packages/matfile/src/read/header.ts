/**
 * The header of an miMATRIX element: array flags (class, complex/logical flags, nzmax), dimensions and name.
 * `readArrayHeader` returns them as an `ArrayHeader`, together with where the class-specific body starts.
 * Also the shared dims arrays of small 2-D shapes and `readName` (NUL-padded names).
 */
import { miINT8, miINT32, miUINT8, miUINT32, miUTF8, typeName } from './tags.js';
import type { Reader } from './source.js';

/** The header of one array (its miMATRIX element's first three subelements). */
export interface ArrayHeader {
  /** Array class (mxXXX_CLASS). */
  cls: number;
  /** The whole flags word (FLAG_COMPLEX, FLAG_LOGICAL, class in the low byte). */
  flags: number;
  /** Sparse arrays: the allocated number of nonzeros. */
  nzmax: number;
  dims: number[];
  name: string;
  /** Where the class-specific part of the body starts. */
  bodyAt: number;
}

/**
 * Frozen, shared dims arrays for the small 2-D shapes (saves one array per cell element).
 * They are frozen so that a consumer cannot change the dims of every 4x1 array at once.
 */
const DIMS_CACHE: (number[] | undefined)[] = new Array(64 * 64);
function smallDims(d0: number, d1: number): number[] {
  const key = d0 * 64 + d1;
  return (DIMS_CACHE[key] ??= Object.freeze([d0, d1]) as number[]);
}

/** `d`, or the shared frozen copy when it is a small 2-D shape. */
export function makeDims(d: number[]): number[] {
  return d.length === 2 && d[0] < 64 && d[1] < 64 ? smallDims(d[0], d[1]) : d;
}

/** The number of elements of dims `d`. */
export function prod(d: number[]): number {
  let n = 1;
  for (let i = 0; i < d.length; i++) n *= d[i];
  return n;
}

/** A NUL-padded name of at most n bytes at `start`. */
export function readName(r: Reader, start: number, n: number): string {
  const b = r.bytes;
  let e = start;
  const end = start + n;
  while (e < end && b[e] !== 0) e++;
  return e === start ? '' : String.fromCharCode.apply(null, b.subarray(start, e) as unknown as number[]);
}

/**
 * Reads array flags, dimensions and name of an miMATRIX body [p, end). Returns a new `ArrayHeader`, or fills `into`
 * and returns it (for a flat loop over many elements that reads each header before the next: `packNumbers`).
 */
export function readArrayHeader(r: Reader, p: number, end: number, into?: ArrayHeader): ArrayHeader {
  r.readTag(p, end);
  if (r.tagType !== miUINT32 || r.tagBytes !== 8) {
    r.fail(p, 'input/mat-tag', 'bad array flags subelement', 'miUINT32 with 8 bytes', `${typeName(r.tagType)} with ${r.tagBytes} bytes`);
  }
  const flags = r.u32(r.tagData);
  const nzmax = r.u32(r.tagData + 4);
  p = r.tagNext;
  r.readTag(p, end);
  if ((r.tagType as number) !== miINT32 || r.tagBytes % 4 !== 0 || r.tagBytes < 8) {
    r.fail(p, 'input/mat-tag', 'bad dimensions subelement', 'miINT32 with at least 2 dimensions', `${typeName(r.tagType)} with ${r.tagBytes} bytes`);
  }
  const nd = r.tagBytes / 4;
  let dims: number[];
  if (nd === 2) {
    const d0 = r.i32(r.tagData);
    const d1 = r.i32(r.tagData + 4);
    if (d0 < 0 || d1 < 0) r.fail(p, 'input/mat-dims', 'negative dimension', 'dimensions >= 0', `${d0}x${d1}`);
    dims = d0 < 64 && d1 < 64 ? smallDims(d0, d1) : [d0, d1];
  } else {
    dims = new Array<number>(nd);
    for (let i = 0; i < nd; i++) {
      const d = r.i32(r.tagData + 4 * i);
      if (d < 0) r.fail(p, 'input/mat-dims', 'negative dimension', 'dimensions >= 0', String(d));
      dims[i] = d;
    }
  }
  p = r.tagNext;
  r.readTag(p, end);
  const nameType = r.tagType as number;
  if (nameType !== miINT8 && nameType !== miUINT8 && nameType !== miUTF8) {
    r.fail(p, 'input/mat-tag', 'bad array name subelement', 'miINT8', typeName(r.tagType));
  }
  const name = (r.tagBytes as number) === 0 ? '' : readName(r, r.tagData, r.tagBytes);
  if (into === undefined) return { cls: flags & 0xff, flags, nzmax, dims, name, bodyAt: r.tagNext };
  into.cls = flags & 0xff;
  into.flags = flags;
  into.nzmax = nzmax;
  into.dims = dims;
  into.name = name;
  into.bodyAt = r.tagNext;
  return into;
}
