/**
 * `packNumbers`: the numbers of every element of a cell array (or of one field of a struct array) in one
 * Float64Array. Elements of a container not decoded yet are read straight from the bytes (tag, array header,
 * data) without a MatValue each; anything unusual (empty, logical, compressed, already decoded) goes through its
 * MatValue.
 */
import { DevkitError } from '@cvdevkit/core';
import type { MatCell, MatStruct, MatValue } from '../types.js';
import { CellArray, parseChild, StructArray } from './containers.js';
import { prod, readArrayHeader, type ArrayHeader } from './header.js';
import { readNumber } from './numeric.js';
import { Reader, type LazyRef } from './source.js';
import { FLAG_LOGICAL, miINT64, miMATRIX, NUMERIC_CLASS, STORAGE, typeName } from './tags.js';

/** The numbers of many small arrays in one buffer (see `packNumbers`). */
export interface PackedNumbers {
  /** Every element's values, one element after the other (each column-major). */
  values: Float64Array;
  /** Element i's values are `values[offsets[i] .. offsets[i+1])`; length n+1. */
  offsets: Float64Array;
  /** dims[0] of element i. */
  rows: Int32Array;
  /** Product of dims[1..] of element i. */
  cols: Int32Array;
}

function notNumeric(file: string | undefined, what: string, v: MatValue): DevkitError {
  return new DevkitError({
    kind: 'input',
    code: 'input/mat-shape',
    file,
    field: what,
    expected: 'a numeric or logical array',
    found: `${v.dims.join('x')} ${v.kind}`,
  });
}

/** The elements of the container given to `packNumbers`, and where they are when it has not been decoded yet. */
interface Elements {
  n: number;
  /** The path of element i, for error messages. */
  label: (i: number) => string;
  /** Set when the elements are read from the bytes: the container's bytes and each element's offset. */
  ref: LazyRef | undefined;
  positions: Float64Array | undefined;
  end: number;
}

function locateElements(container: MatCell | MatStruct, field: string | undefined): Elements {
  let ref: LazyRef | undefined;
  let positions: Float64Array | undefined;
  let end = 0;
  let n: number;
  let label: (i: number) => string;
  if (container.kind === 'cell') {
    n = container.dims.length ? prod(container.dims) : 0;
    const where = container instanceof CellArray ? container._ref?.where ?? '' : '';
    label = (i) => `${where}{${i + 1}}`;
    if (container instanceof CellArray && !container._decoded && container._ref) {
      ref = container._ref;
      end = container._end;
      positions = new Float64Array(n);
      const r = new Reader(ref.ctx, ref.src, ref);
      let p = container._start;
      for (let i = 0; i < n; i++) {
        positions[i] = p;
        r.readTag(p, end);
        p = r.tagNext;
      }
    }
  } else {
    if (field === undefined) throw new TypeError('packNumbers(struct) needs a field name');
    n = container.length;
    const s = container as StructArray;
    const where = container instanceof StructArray ? s._ref.where : '';
    label = (i) => (n > 1 ? `${where}(${i + 1}).${field}` : `${where}.${field}`);
    if (container instanceof StructArray && s._pos) {
      const f = s._fieldIndex(field);
      const nf = s.fieldNames.length;
      ref = s._ref;
      end = s._end;
      positions = new Float64Array(n);
      for (let i = 0; i < n; i++) positions[i] = s._pos[i * nf + f];
    }
  }
  return { n, label, ref, positions, end };
}

/** Where the numbers of the elements read from the bytes are: the offset and data type of each one's real part. */
interface RawData {
  dataPos: Float64Array;
  dataType: Uint8Array;
}

/**
 * The real values of the numeric/logical elements of a cell array, or of one field of a struct array,
 * packed into one Float64Array. When the container has not been decoded yet this reads the values
 * straight from the file data without creating a MatValue per element (the fast way to read
 * ILSVRC's 176,126-element `gt_obj_bboxes`).
 */
export function packNumbers(container: MatCell | MatStruct, field?: string): PackedNumbers {
  const { n, label, ref, positions, end } = locateElements(container, field);
  const offsets = new Float64Array(n + 1);
  const rows = new Int32Array(n);
  const cols = new Int32Array(n);
  // Per element: where its data are (raw) or its decoded value (anything unusual).
  const raw: RawData = { dataPos: new Float64Array(n), dataType: new Uint8Array(n) };
  const { dataPos, dataType } = raw;
  const decoded = new Array<Float64Array | undefined>(n);
  let total = 0;
  const r = ref ? new Reader(ref.ctx, ref.src, ref) : undefined;
  const path = r?.path ?? [];
  const isCell = container.kind === 'cell';
  if (!isCell && n > 1) path.push(-1);
  if (isCell) path.push(0);
  else path.push(field!);
  const setPath = isCell ? (i: number) => (path[0] = i) : n > 1 ? (i: number) => (path[0] = -(i + 1)) : () => 0;
  // One header object for the whole loop (each element's header is read and used before the next one's), and the
  // imported constants in locals: this loop runs once per element (measured: 5 % of packNumbers when it was a
  // function of its own and allocated a header per element).
  const header: ArrayHeader = { cls: 0, flags: 0, nzmax: 0, dims: [], name: '', bodyAt: 0 };
  const MATRIX = miMATRIX;
  const LOGICAL = FLAG_LOGICAL;
  for (let i = 0; i < n; i++) {
    let dims: number[] | undefined;
    if (r && positions) {
      // The fast way: a real, non-logical numeric array stored in place; its data are read in `gatherValues`.
      const p = positions[i];
      r.readTag(p, end);
      if (r.tagType === MATRIX && r.tagBytes > 0) {
        const bodyEnd = r.tagData + r.tagBytes;
        setPath(i);
        const h = readArrayHeader(r, r.tagData, bodyEnd, header);
        if (NUMERIC_CLASS[h.cls] && (h.flags & LOGICAL) === 0 && h.bodyAt < bodyEnd) {
          const count = prod(h.dims);
          const at = h.bodyAt;
          r.readTag(at, bodyEnd);
          const st = STORAGE[r.tagType];
          if (!st) return r.fail(at, 'input/mat-tag', 'unknown numeric data type', 'miINT8 … miUINT64, miSINGLE or miDOUBLE', typeName(r.tagType));
          if (r.tagBytes !== count * st.size) {
            r.fail(at, 'input/mat-size', 'data size does not match the dimensions', `${count * st.size} bytes`, `${r.tagBytes} bytes (${typeName(r.tagType)})`);
          }
          dims = h.dims;
          dataPos[i] = r.tagData;
          dataType[i] = r.tagType;
        }
      }
    }
    if (dims === undefined) {
      // Decoded container, or an unusual element (empty, logical, compressed…): go through its MatValue.
      let v: MatValue;
      if (r && positions) {
        setPath(i);
        v = parseChild(r, positions[i], end);
      } else v = container.kind === 'cell' ? container.cells[i] : container.get(i, field!);
      if (v.kind !== 'numeric' && v.kind !== 'logical') throw notNumeric(ref?.ctx.file, label(i), v);
      const d = v.kind === 'numeric' && v.data instanceof Float64Array ? v.data : Float64Array.from(v.data as ArrayLike<number>, (x) => Number(x));
      decoded[i] = d;
      dims = v.dims;
    }
    const count = prod(dims);
    rows[i] = dims[0];
    cols[i] = dims.length > 1 ? count / Math.max(1, dims[0]) || 0 : 1;
    offsets[i] = total;
    total += count;
  }
  offsets[n] = total;
  return { values: gatherValues(r, offsets, decoded, raw), offsets, rows, cols };
}

/** The values of every element, one after the other: decoded ones copied, raw ones read from the bytes. */
function gatherValues(r: Reader | undefined, offsets: Float64Array, decoded: (Float64Array | undefined)[], raw: RawData): Float64Array {
  const n = decoded.length;
  const values = new Float64Array(offsets[n]);
  const { dataPos, dataType } = raw;
  for (let i = 0; i < n; i++) {
    const d = decoded[i];
    const o = offsets[i];
    if (d) {
      values.set(d, o);
      continue;
    }
    const type = dataType[i];
    const st = STORAGE[type]!;
    const count = offsets[i + 1] - o;
    const p = dataPos[i];
    const dv = r!.dv;
    const le = r!.le;
    if (st.bigint) {
      for (let k = 0; k < count; k++) values[o + k] = Number(type === miINT64 ? dv.getBigInt64(p + 8 * k, le) : dv.getBigUint64(p + 8 * k, le));
    } else {
      const size = st.size;
      for (let k = 0; k < count; k++) values[o + k] = readNumber(dv, type, p + k * size, le);
    }
  }
  return values;
}
