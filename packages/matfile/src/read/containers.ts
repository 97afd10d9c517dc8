/**
 * Values and containers: `parseChild` / `parseMatrix` / `parseMatrixBody` parse one miMATRIX element (dispatching on
 * its class), and cell and struct arrays hold such elements. Containers with at most `EAGER_MAX` values are decoded
 * at once; larger ones record where each element starts (tags only) and decode an element on its first read
 * (`CellArray`, `StructArray`, through a `LazyRef` to the bytes).
 */
import { DevkitError } from '@cvdevkit/core';
import type { MatCell, MatStruct, MatValue } from '../types.js';
import { parseChar } from './char.js';
import { makeDims, prod, readArrayHeader, readName, type ArrayHeader } from './header.js';
import { emptyDouble, parseNumeric } from './numeric.js';
import { Reader, type LazyRef } from './source.js';
import { isOctaveSparseLogical, parseSparse } from './sparse.js';
import { className, FLAG_COMPLEX, FLAG_LOGICAL, miCOMPRESSED, miINT8, miINT32, miMATRIX, miUINT8, miUTF8, mxCELL, mxCHAR, mxFUNCTION, mxOBJECT, mxOPAQUE, mxSPARSE, mxSTRUCT, NUMERIC_CLASS, typeName } from './tags.js';

/** Containers with at most this many values are decoded at once, up to this nesting depth. */
const EAGER_MAX = 16;
const EAGER_DEPTH = 32;

/** Parses the miMATRIX element at p (or an miCOMPRESSED one holding it); sets r.tagNext past it. */
export function parseChild(r: Reader, p: number, end: number): MatValue {
  r.readTag(p, end);
  const next = r.tagNext;
  let v: MatValue;
  if (r.tagType === miMATRIX) {
    v = parseMatrix(r, r.tagData, r.tagData + r.tagBytes);
  } else if (r.tagType === miCOMPRESSED) {
    v = r.withInflated((s, e) => {
      r.readTag(s, e);
      if (r.tagType !== miMATRIX) r.fail(s, 'input/mat-tag', 'unexpected element', 'miMATRIX', typeName(r.tagType));
      return parseMatrix(r, r.tagData, r.tagData + r.tagBytes);
    });
  } else {
    r.fail(p, 'input/mat-tag', 'unexpected element', 'miMATRIX', typeName(r.tagType));
  }
  r.tagNext = next;
  return v;
}

/** Parses an miMATRIX body [p, end). */
function parseMatrix(r: Reader, p: number, end: number): MatValue {
  if (p === end) return emptyDouble(); // MATLAB writes [] cell/field contents as an empty miMATRIX.
  return parseMatrixBody(r, readArrayHeader(r, p, end), end);
}

/** Parses the class-specific part [h.bodyAt, end) of an array whose header is `h`. */
export function parseMatrixBody(r: Reader, h: ArrayHeader, end: number): MatValue {
  const { cls, flags, dims } = h;
  const p = h.bodyAt;
  const count = prod(dims);
  const numeric = NUMERIC_CLASS[cls];
  if (numeric) {
    r.readTag(p, end);
    if (isOctaveSparseLogical(r, h, count, end)) return parseSparse(r, p, end, dims, h.nzmax, true, (flags & FLAG_COMPLEX) !== 0);
    return parseNumeric(r, h, numeric, count, end);
  }
  switch (cls) {
    case mxCHAR:
      return parseChar(r, p, end, dims, count);
    case mxCELL:
      return parseCell(r, p, end, dims, count);
    case mxSTRUCT:
      return parseStruct(r, p, end, dims, count);
    case mxSPARSE:
      if (dims.length !== 2) r.fail(p, 'input/mat-dims', 'sparse array must be 2-D', '2 dimensions', `${dims.length}`);
      return parseSparse(r, p, end, dims, h.nzmax, (flags & FLAG_LOGICAL) !== 0, (flags & FLAG_COMPLEX) !== 0);
    case mxOBJECT:
    case mxFUNCTION:
    case mxOPAQUE:
      return r.fail(p, 'input/mat-unsupported', `MATLAB ${className(cls)} arrays are not supported`, 'numeric, logical, char, cell, struct or sparse', className(cls), 'convert the value to a struct or numeric array in MATLAB, or skip it with the `variables` option');
    default:
      return r.fail(p, 'input/mat-class', 'unknown array class', 'a MATLAB class 1..15', `${cls}`);
  }
}

/** A cell array of dims `dims` (`count` elements) whose elements start at p. */
function parseCell(r: Reader, p: number, end: number, dims: number[], count: number): MatCell {
  if (count * 8 > end - p) {
    r.fail(p, 'input/mat-dims', 'cell array larger than its data', `at most ${Math.floor((end - p) / 8)} elements`, `${count} (dims ${dims.join('x')})`);
  }
  if (count <= EAGER_MAX && r.depth < EAGER_DEPTH) {
    // Small cell arrays are decoded at once (a lazy wrapper would cost more than it saves).
    const cells = new Array<MatValue>(count);
    const path = r.path;
    const d = path.length;
    r.depth++;
    path.push(0);
    for (let i = 0; i < count; i++) {
      path[d] = i;
      cells[i] = parseChild(r, p, end);
      p = r.tagNext;
    }
    path.length = d;
    r.depth--;
    const v: MatCell = { kind: 'cell', dims: makeDims(dims), cells };
    return v;
  }
  // Check that every element is there (cheap: tags only); decode them when `cells` is first read. (The imported
  // tag numbers in locals: this loop runs once per element.)
  const first = p;
  const MATRIX = miMATRIX;
  const COMPRESSED = miCOMPRESSED;
  for (let i = 0; i < count; i++) {
    r.readTag(p, end);
    if (r.tagType !== MATRIX && r.tagType !== COMPRESSED) {
      r.path.push(i);
      r.fail(p, 'input/mat-tag', 'unexpected element in a cell array', 'miMATRIX', typeName(r.tagType));
    }
    p = r.tagNext;
  }
  return new CellArray(makeDims(dims), count, r.lazyRef(), first, end);
}

/** Decodes the `count` cell elements starting at `p` (each an miMATRIX or miCOMPRESSED element). */
function decodeCells(ref: LazyRef, p: number, end: number, count: number): MatValue[] {
  const r = new Reader(ref.ctx, ref.src, ref);
  const cells = new Array<MatValue>(count);
  const path = r.path;
  for (let i = 0; i < count; i++) {
    path[0] = i;
    cells[i] = parseChild(r, p, end);
    p = r.tagNext;
  }
  return cells;
}

/**
 * A cell array whose elements are decoded on the first read of `cells` (once; the decoded array
 * then replaces the getter as a plain own property).
 */
export class CellArray implements MatCell {
  readonly kind = 'cell' as const;
  constructor(
    readonly dims: number[],
    /** @internal */ readonly _count: number,
    /** @internal */ readonly _ref: LazyRef | null,
    /** @internal */ readonly _start: number,
    /** @internal */ readonly _end: number,
  ) {}

  get cells(): MatValue[] {
    const cells = this._ref ? decodeCells(this._ref, this._start, this._end, this._count) : [];
    Object.defineProperty(this, 'cells', { value: cells, enumerable: true, writable: true, configurable: true });
    return cells;
  }

  /** @internal True once `cells` has been decoded. */
  get _decoded(): boolean {
    return Object.prototype.hasOwnProperty.call(this, 'cells');
  }
}

/**
 * A struct array. Field values are decoded on first access (each at most once): a struct array of
 * 176k elements costs one Float64Array of offsets until its fields are read.
 */
export class StructArray implements MatStruct {
  readonly kind = 'struct' as const;
  readonly length: number;
  private readonly index: Map<string, number>;
  private values: (MatValue | undefined)[] | undefined;
  constructor(
    readonly dims: number[],
    fields: FieldList,
    /** @internal Element-major offsets of the field values: _pos[i * nfields + f] (null: all decoded). */
    readonly _pos: Float64Array | null,
    /** @internal */ readonly _end: number,
    /** @internal */ readonly _ref: LazyRef,
    values?: MatValue[],
  ) {
    this.values = values;
    this.length = prod(dims);
    this.fieldNames = fields.names;
    this.index = fields.index;
  }
  readonly fieldNames: string[];

  /** @internal */
  _fieldIndex(field: string): number {
    const f = this.index.get(field);
    if (f === undefined) {
      throw new DevkitError({
        kind: 'input',
        code: 'input/mat-field',
        file: this._ref.ctx.file,
        field: `${this._ref.where}.${field}`,
        detail: 'struct has no such field',
        expected: `one of ${this.fieldNames.join(', ') || '(no fields)'}`,
        found: field,
      });
    }
    return f;
  }

  /** @internal Value k (= i * nfields + f), decoded on first use. */
  _value(k: number): MatValue {
    const values = (this.values ??= new Array<MatValue | undefined>(this._pos!.length));
    let v = values[k];
    if (v === undefined) {
      const nf = this.fieldNames.length;
      const i = Math.floor(k / nf);
      const r = new Reader(this._ref.ctx, this._ref.src, this._ref);
      if (this.length > 1) r.path.push(-(i + 1));
      r.path.push(this.fieldNames[k - i * nf]);
      v = values[k] = parseChild(r, this._pos![k], this._end);
    }
    return v;
  }

  get(i: number, field: string): MatValue {
    const f = this._fieldIndex(field);
    if (!Number.isInteger(i) || i < 0 || i >= this.length) {
      throw new DevkitError({
        kind: 'input',
        code: 'input/mat-index',
        file: this._ref.ctx.file,
        field: `${this._ref.where}.${field}`,
        detail: 'struct element index out of range',
        expected: `0 <= index < ${this.length}`,
        found: String(i),
      });
    }
    return this._value(i * this.fieldNames.length + f);
  }

  column(field: string): MatValue[] {
    const f = this._fieldIndex(field);
    const nf = this.fieldNames.length;
    const out = new Array<MatValue>(this.length);
    for (let i = 0; i < this.length; i++) out[i] = this._value(i * nf + f);
    return out;
  }

  /** Plain-object view for debugging / JSON. */
  toJSON(): unknown {
    return { kind: 'struct', dims: this.dims, fieldNames: this.fieldNames, length: this.length };
  }
}

/** Field names of a struct, shared (frozen) by every struct with the same stored names. */
interface FieldList {
  raw: Uint8Array;
  len: number;
  names: string[];
  index: Map<string, number>;
}
const FIELD_LISTS = new Map<number, FieldList>();

function fieldList(r: Reader, start: number, nbytes: number, len: number, nfields: number): FieldList {
  const b = r.bytes;
  let h = 0x811c9dc5 ^ len;
  for (let i = 0; i < nbytes; i++) h = Math.imul(h ^ b[start + i], 0x01000193);
  const hit = FIELD_LISTS.get(h);
  if (hit && hit.len === len && hit.raw.length === nbytes) {
    let same = true;
    for (let i = 0; i < nbytes && same; i++) same = hit.raw[i] === b[start + i];
    if (same) return hit;
  }
  const names = new Array<string>(nfields);
  const index = new Map<string, number>();
  for (let f = 0; f < nfields; f++) {
    names[f] = readName(r, start + f * len, len);
    if (!index.has(names[f])) index.set(names[f], f);
  }
  const list: FieldList = { raw: b.slice(start, start + nbytes), len, names: Object.freeze(names) as string[], index };
  if (FIELD_LISTS.size >= 1024) FIELD_LISTS.clear();
  FIELD_LISTS.set(h, list);
  return list;
}

function parseStruct(r: Reader, p: number, end: number, dims: number[], count: number): MatStruct {
  r.readTag(p, end);
  if (r.tagType !== miINT32 || r.tagBytes !== 4) {
    r.fail(p, 'input/mat-tag', 'bad field name length subelement', 'miINT32 with 4 bytes', `${typeName(r.tagType)} with ${r.tagBytes} bytes`);
  }
  const len = r.i32(r.tagData);
  p = r.tagNext;
  r.readTag(p, end);
  const namesType = r.tagType as number;
  if (namesType !== miINT8 && namesType !== miUINT8 && namesType !== miUTF8) {
    r.fail(p, 'input/mat-tag', 'bad field names subelement', 'miINT8', typeName(r.tagType));
  }
  let nfields = 0;
  if (r.tagBytes > 0) {
    if (len <= 0 || r.tagBytes % len !== 0) {
      r.fail(p, 'input/mat-tag', 'field names do not fit the field name length', `a multiple of ${len} bytes`, `${r.tagBytes} bytes`);
    }
    nfields = r.tagBytes / len;
  }
  const fields = fieldList(r, r.tagData, r.tagBytes, len, nfields);
  const fieldNames = fields.names;
  p = r.tagNext;
  const total = count * nfields;
  if (total * 8 > end - p) {
    r.fail(p, 'input/mat-dims', 'struct array larger than its data', `at most ${Math.floor((end - p) / 8)} field values`, `${count} elements x ${nfields} fields`);
  }
  if (total <= EAGER_MAX && r.depth < EAGER_DEPTH) {
    const values = new Array<MatValue>(total);
    const path = r.path;
    const d = path.length;
    r.depth++;
    if (count > 1) path.push(-1);
    path.push('');
    const fd = path.length - 1;
    for (let k = 0; k < total; k++) {
      const i = Math.floor(k / nfields);
      if (count > 1) path[d] = -(i + 1);
      path[fd] = fieldNames[k - i * nfields];
      values[k] = parseChild(r, p, end);
      p = r.tagNext;
    }
    path.length = d;
    r.depth--;
    return new StructArray(makeDims(dims), fields, null, end, r.lazyRef(), values);
  }
  // Record where each field value starts (tags only); values are decoded on first access.
  const pos = new Float64Array(total);
  const MATRIX = miMATRIX;
  const COMPRESSED = miCOMPRESSED;
  for (let k = 0; k < total; k++) {
    r.readTag(p, end);
    if ((r.tagType as number) !== MATRIX && (r.tagType as number) !== COMPRESSED) {
      const i = Math.floor(k / nfields);
      if (count > 1) r.path.push(-(i + 1));
      r.path.push(fieldNames[k - i * nfields]);
      r.fail(p, 'input/mat-tag', 'unexpected element in a struct array', 'miMATRIX', typeName(r.tagType));
    }
    pos[k] = p;
    p = r.tagNext;
  }
  return new StructArray(makeDims(dims), fields, pos, end, r.lazyRef());
}

