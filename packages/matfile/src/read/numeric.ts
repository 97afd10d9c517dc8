/**
 * Numeric and logical arrays: the values of a data element decoded into the typed array of the array's MATLAB
 * class (MATLAB stores small integer values of a double array with a smaller type; `load` gives doubles), byte
 * swapped for big-endian files.
 */
import type { MatLogical, MatNumeric, MatTypedArray } from '../types.js';
import type { ArrayHeader } from './header.js';
import { makeDims } from './header.js';
import type { Reader } from './source.js';
import { FLAG_COMPLEX, FLAG_LOGICAL, STORAGE, typeName, type ClassInfo } from './tags.js';

export const HOST_LE = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Copies `nbytes` at `start` into a fresh ArrayBuffer, swapping bytes for a big-endian file. */
function copyBytes(r: Reader, start: number, nbytes: number, size: number): ArrayBuffer {
  const buf = new ArrayBuffer(nbytes);
  const u8 = new Uint8Array(buf);
  u8.set(r.bytes.subarray(start, start + nbytes));
  if (size > 1 && r.le !== HOST_LE) {
    for (let i = 0; i < nbytes; i += size) {
      for (let a = i, b = i + size - 1; a < b; a++, b--) {
        const t = u8[a];
        u8[a] = u8[b];
        u8[b] = t;
      }
    }
  }
  return buf;
}

/**
 * Reads one value of a non-64-bit-integer storage type. The cases are the literal miXXX numbers (tags.ts), not the
 * imported constants: V8 loads an imported binding from its module cell at every comparison, and this switch runs
 * once per value in `packNumbers`.
 */
export function readNumber(dv: DataView, type: number, p: number, le: boolean): number {
  switch (type) {
    case 1: // miINT8
      return dv.getInt8(p);
    case 2: // miUINT8
      return dv.getUint8(p);
    case 3: // miINT16
      return dv.getInt16(p, le);
    case 4: // miUINT16
      return dv.getUint16(p, le);
    case 5: // miINT32
      return dv.getInt32(p, le);
    case 6: // miUINT32
      return dv.getUint32(p, le);
    case 7: // miSINGLE
      return dv.getFloat32(p, le);
    default:
      return dv.getFloat64(p, le);
  }
}

/** Values this small are decoded element by element (no intermediate buffers; V8 keeps them on-heap). */
const SMALL = 16;

/** Reads `count` values of storage type `type` from [start, start+nbytes) as a `target`-typed array. */
export function decodeValues(r: Reader, type: number, start: number, nbytes: number, count: number, target: ClassInfo, at: number): MatTypedArray {
  const st = STORAGE[type];
  if (!st) r.fail(at, 'input/mat-tag', 'unknown numeric data type', 'miINT8 … miUINT64, miSINGLE or miDOUBLE', typeName(type));
  if (nbytes !== count * st.size) {
    r.fail(at, 'input/mat-size', `data size does not match the dimensions`, `${count} × ${st.size} = ${count * st.size} bytes`, `${nbytes} bytes (${typeName(type)})`);
  }
  checkAlloc(r, at, count * 8);
  if (!st.bigint && !target.bigint) {
    const out = new target.ctor(count) as Float64Array;
    if (count <= SMALL) {
      const dv = r.dv;
      const le = r.le;
      const size = st.size;
      for (let i = 0; i < count; i++) out[i] = readNumber(dv, type, start + i * size, le);
      return out;
    }
    const abs = r.bytes.byteOffset + start;
    if (st.size === 1 || (r.le === HOST_LE && abs % st.size === 0)) {
      // A view on the source (no copy), then one converting/copying set().
      const view = new st.ctor(r.bytes.buffer as ArrayBuffer, abs, count) as Float64Array;
      out.set(view);
      return out;
    }
    if (st.ctor === target.ctor) return new st.ctor(copyBytes(r, start, nbytes, st.size)) as MatTypedArray;
    out.set(new st.ctor(copyBytes(r, start, nbytes, st.size)) as Float64Array);
    return out;
  }
  const raw = new st.ctor(copyBytes(r, start, nbytes, st.size)) as MatTypedArray;
  if (st.ctor === target.ctor) return raw;
  const out = new target.ctor(count) as MatTypedArray;
  if (target.bigint === st.bigint) {
    (out as BigInt64Array).set(raw as BigInt64Array);
  } else if (target.bigint) {
    const o = out as BigInt64Array;
    const s = raw as Float64Array;
    for (let i = 0; i < count; i++) {
      const v = s[i];
      o[i] = Number.isFinite(v) ? BigInt(Math.trunc(v)) : 0n;
    }
  } else {
    const o = out as Float64Array;
    const s = raw as BigInt64Array;
    for (let i = 0; i < count; i++) o[i] = Number(s[i]);
  }
  return out;
}

export function checkAlloc(r: Reader, at: number, bytes: number): void {
  if (bytes > r.maxBytes) {
    r.fail(at, 'input/mat-too-large', 'array larger than allowed', `at most ${r.maxBytes} bytes (option maxBytes)`, `${bytes} bytes`);
  }
}

/** The empty double `[]` (MATLAB writes [] cell/field contents as an empty miMATRIX). */
export function emptyDouble(): MatNumeric {
  return { kind: 'numeric', class: 'double', dims: makeDims([0, 0]), data: new Float64Array(0) };
}

/**
 * A numeric or logical array of class `numeric` whose header is `h`, once the tag of its real part (at h.bodyAt)
 * has been read.
 */
export function parseNumeric(r: Reader, h: ArrayHeader, numeric: ClassInfo, count: number, end: number): MatNumeric | MatLogical {
  const { flags, dims } = h;
  const at = h.bodyAt;
  const type = r.tagType;
  const data = decodeValues(r, type, r.tagData, r.tagBytes, count, numeric, at);
  const p = r.tagNext;
  if ((flags & FLAG_LOGICAL) !== 0) {
    const d = data instanceof Uint8Array ? data : new Uint8Array(count);
    if (!(data instanceof Uint8Array)) for (let i = 0; i < count; i++) d[i] = (data as Float64Array)[i] ? 1 : 0;
    else for (let i = 0; i < count; i++) if (d[i] > 1) d[i] = 1;
    const v: MatLogical = { kind: 'logical', dims: makeDims(dims), data: d };
    return v;
  }
  const st = STORAGE[type]!;
  const v: MatNumeric =
    st.ctor !== numeric.ctor
      ? { kind: 'numeric', class: numeric.name, dims: makeDims(dims), data, stored: st.name }
      : { kind: 'numeric', class: numeric.name, dims: makeDims(dims), data };
  if ((flags & FLAG_COMPLEX) !== 0) {
    const ati = p;
    r.readTag(p, end);
    v.imag = decodeValues(r, r.tagType, r.tagData, r.tagBytes, count, numeric, ati);
  }
  return v;
}
