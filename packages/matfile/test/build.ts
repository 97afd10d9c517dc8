/** A tiny MAT-file Level 5 writer for tests: builds elements byte by byte in either byte order. */
import { deflateSync } from 'node:zlib';

export const mi = { INT8: 1, UINT8: 2, INT16: 3, UINT16: 4, INT32: 5, UINT32: 6, SINGLE: 7, DOUBLE: 9, INT64: 12, UINT64: 13, MATRIX: 14, COMPRESSED: 15, UTF8: 16, UTF16: 17, UTF32: 18 } as const;
export const mx = { CELL: 1, STRUCT: 2, OBJECT: 3, CHAR: 4, SPARSE: 5, DOUBLE: 6, SINGLE: 7, INT8: 8, UINT8: 9, INT16: 10, UINT16: 11, INT32: 12, UINT32: 13, INT64: 14, UINT64: 15 } as const;

const SIZE: Record<number, number> = { 1: 1, 2: 1, 3: 2, 4: 2, 5: 4, 6: 4, 7: 4, 9: 8, 12: 8, 13: 8, 16: 1, 17: 2, 18: 4 };

export function concat(parts: Uint8Array[]): Uint8Array {
  const n = parts.reduce((s, p) => s + p.length, 0);
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** Encodes values of a data type in the given byte order. */
export function encode(type: number, values: ArrayLike<number | bigint>, le: boolean): Uint8Array {
  const size = SIZE[type];
  const out = new Uint8Array(values.length * size);
  const dv = new DataView(out.buffer);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    const p = i * size;
    switch (type) {
      case mi.INT8: dv.setInt8(p, Number(v)); break;
      case mi.UINT8: case mi.UTF8: dv.setUint8(p, Number(v)); break;
      case mi.INT16: dv.setInt16(p, Number(v), le); break;
      case mi.UINT16: case mi.UTF16: dv.setUint16(p, Number(v), le); break;
      case mi.INT32: dv.setInt32(p, Number(v), le); break;
      case mi.UINT32: case mi.UTF32: dv.setUint32(p, Number(v), le); break;
      case mi.SINGLE: dv.setFloat32(p, Number(v), le); break;
      case mi.DOUBLE: dv.setFloat64(p, Number(v), le); break;
      case mi.INT64: dv.setBigInt64(p, BigInt(v), le); break;
      case mi.UINT64: dv.setBigUint64(p, BigInt(v), le); break;
    }
  }
  return out;
}

/** One data element: tag + data + padding to 8. `small` uses the 4-byte-data form (nbytes <= 4). */
export function element(type: number, data: Uint8Array, le: boolean, opts: { small?: boolean; pad?: boolean; nbytes?: number } = {}): Uint8Array {
  if (opts.small) {
    if (data.length > 4) throw new Error('small element holds at most 4 bytes');
    const out = new Uint8Array(8);
    const dv = new DataView(out.buffer);
    dv.setUint32(0, ((data.length << 16) | type) >>> 0, le);
    out.set(data, 4);
    return out;
  }
  const padded = opts.pad === false ? data.length : (data.length + 7) & ~7;
  const out = new Uint8Array(8 + padded);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, type, le);
  dv.setUint32(4, opts.nbytes ?? data.length, le);
  out.set(data, 8);
  return out;
}

export function values(type: number, vals: ArrayLike<number | bigint>, le: boolean, small = false): Uint8Array {
  const data = encode(type, vals, le);
  return element(type, data, le, { small: small && data.length <= 4 });
}

export interface MatrixSpec {
  cls: number;
  flags?: number;
  nzmax?: number;
  dims: number[];
  name?: string;
  body: Uint8Array[];
  smallName?: boolean;
}

export function matrix(spec: MatrixSpec, le: boolean): Uint8Array {
  const flags = encode(mi.UINT32, [((spec.flags ?? 0) | spec.cls) >>> 0, spec.nzmax ?? 0], le);
  const name = new TextEncoder().encode(spec.name ?? '');
  const parts = [
    element(mi.UINT32, flags, le),
    element(mi.INT32, encode(mi.INT32, spec.dims, le), le),
    element(mi.INT8, name, le, { small: spec.smallName !== false && name.length <= 4 && name.length > 0 }),
    ...spec.body,
  ];
  return element(mi.MATRIX, concat(parts), le);
}

export function compressed(el: Uint8Array, le: boolean): Uint8Array {
  return element(mi.COMPRESSED, deflateSync(el), le, { pad: false });
}

export function header(le: boolean, text = 'MATLAB 5.0 MAT-file, Platform: test, Created on: now'): Uint8Array {
  const h = new Uint8Array(128).fill(0x20);
  h.set(new TextEncoder().encode(text), 0);
  h.fill(0, 116, 124);
  const dv = new DataView(h.buffer);
  dv.setUint16(124, 0x0100, le);
  // The 16-bit value 'MI' in the file's byte order: 'IM' in a little-endian file.
  h.set(new TextEncoder().encode(le ? 'IM' : 'MI'), 126);
  return h;
}

export function matFile(le: boolean, elements: Uint8Array[]): Uint8Array {
  return concat([header(le), ...elements]);
}

// Convenience builders for common arrays.
export function double(name: string, dims: number[], vals: number[], le: boolean, storage: number = mi.DOUBLE): Uint8Array {
  return matrix({ cls: mx.DOUBLE, dims, name, body: [values(storage, vals, le, true)] }, le);
}

export function char(name: string, rows: string[], le: boolean, storage: number = mi.UINT16): Uint8Array {
  const r = rows.length;
  const c = r ? rows[0].length : 0;
  const codes: number[] = [];
  for (let j = 0; j < c; j++) for (let i = 0; i < r; i++) codes.push(rows[i].charCodeAt(j));
  const body = storage === mi.UTF8 ? element(mi.UTF8, new TextEncoder().encode(String.fromCharCode(...codes)), le) : values(storage, codes, le, true);
  return matrix({ cls: mx.CHAR, dims: [r, c], name, body: [body] }, le);
}
