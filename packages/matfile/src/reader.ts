/**
 * MAT-file Level 5 reader (MATLAB -v6 and -v7 files; Octave's -v6/-v7 too).
 *
 * Layout reference: "MAT-File Format" (MathWorks, R2013+), chapter 1 "Level 5 MAT-files":
 * a 128-byte header (116 bytes text, 8 bytes subsystem offset, version 0x0100, endian indicator 'IM'),
 * then data elements `[type u32][nbytes u32][data, padded to 8]`, or the small form
 * `[nbytes u16 | type u16][4 bytes data]` when nbytes <= 4. miCOMPRESSED (15) holds a zlib stream
 * that inflates to one more element; MATLAB does not pad it to 8 bytes.
 */
import { inflateSync, constants as zlibConstants } from 'node:zlib';
import { DevkitError } from '@cvdevkit/core';
import { setOrigin } from './helpers.js';
import type {
  MatCell,
  MatChar,
  MatLogical,
  MatNumeric,
  MatNumericClass,
  MatSparse,
  MatStorageType,
  MatStruct,
  MatTypedArray,
  MatValue,
  MatVariables,
  ReadMatOptions,
} from './types.js';

// Data types (miXXX).
const miINT8 = 1;
const miUINT8 = 2;
const miINT16 = 3;
const miUINT16 = 4;
const miINT32 = 5;
const miUINT32 = 6;
const miSINGLE = 7;
const miDOUBLE = 9;
const miINT64 = 12;
const miUINT64 = 13;
const miMATRIX = 14;
const miCOMPRESSED = 15;
const miUTF8 = 16;
const miUTF16 = 17;
const miUTF32 = 18;

// Array classes (mxXXX_CLASS).
const mxCELL = 1;
const mxSTRUCT = 2;
const mxOBJECT = 3;
const mxCHAR = 4;
const mxSPARSE = 5;
const mxFUNCTION = 16;
const mxOPAQUE = 17;

const FLAG_COMPLEX = 0x800;
const FLAG_LOGICAL = 0x200;

/** Default cap for one inflated element / one array: 512 MiB. */
export const DEFAULT_MAX_BYTES = 512 * 1024 * 1024;

type TypedCtor =
  | Float64ArrayConstructor
  | Float32ArrayConstructor
  | Int8ArrayConstructor
  | Uint8ArrayConstructor
  | Int16ArrayConstructor
  | Uint16ArrayConstructor
  | Int32ArrayConstructor
  | Uint32ArrayConstructor
  | BigInt64ArrayConstructor
  | BigUint64ArrayConstructor;

interface StorageInfo {
  name: MatStorageType;
  size: number;
  ctor: TypedCtor;
  bigint: boolean;
}

const STORAGE: (StorageInfo | undefined)[] = [];
STORAGE[miINT8] = { name: 'int8', size: 1, ctor: Int8Array, bigint: false };
STORAGE[miUINT8] = { name: 'uint8', size: 1, ctor: Uint8Array, bigint: false };
STORAGE[miINT16] = { name: 'int16', size: 2, ctor: Int16Array, bigint: false };
STORAGE[miUINT16] = { name: 'uint16', size: 2, ctor: Uint16Array, bigint: false };
STORAGE[miINT32] = { name: 'int32', size: 4, ctor: Int32Array, bigint: false };
STORAGE[miUINT32] = { name: 'uint32', size: 4, ctor: Uint32Array, bigint: false };
STORAGE[miSINGLE] = { name: 'single', size: 4, ctor: Float32Array, bigint: false };
STORAGE[miDOUBLE] = { name: 'double', size: 8, ctor: Float64Array, bigint: false };
STORAGE[miINT64] = { name: 'int64', size: 8, ctor: BigInt64Array, bigint: true };
STORAGE[miUINT64] = { name: 'uint64', size: 8, ctor: BigUint64Array, bigint: true };

interface ClassInfo {
  name: MatNumericClass;
  ctor: TypedCtor;
  bigint: boolean;
}
const NUMERIC_CLASS: (ClassInfo | undefined)[] = [];
NUMERIC_CLASS[6] = { name: 'double', ctor: Float64Array, bigint: false };
NUMERIC_CLASS[7] = { name: 'single', ctor: Float32Array, bigint: false };
NUMERIC_CLASS[8] = { name: 'int8', ctor: Int8Array, bigint: false };
NUMERIC_CLASS[9] = { name: 'uint8', ctor: Uint8Array, bigint: false };
NUMERIC_CLASS[10] = { name: 'int16', ctor: Int16Array, bigint: false };
NUMERIC_CLASS[11] = { name: 'uint16', ctor: Uint16Array, bigint: false };
NUMERIC_CLASS[12] = { name: 'int32', ctor: Int32Array, bigint: false };
NUMERIC_CLASS[13] = { name: 'uint32', ctor: Uint32Array, bigint: false };
NUMERIC_CLASS[14] = { name: 'int64', ctor: BigInt64Array, bigint: true };
NUMERIC_CLASS[15] = { name: 'uint64', ctor: BigUint64Array, bigint: true };

const TYPE_NAMES: Record<number, string> = {
  1: 'miINT8', 2: 'miUINT8', 3: 'miINT16', 4: 'miUINT16', 5: 'miINT32', 6: 'miUINT32', 7: 'miSINGLE',
  9: 'miDOUBLE', 12: 'miINT64', 13: 'miUINT64', 14: 'miMATRIX', 15: 'miCOMPRESSED', 16: 'miUTF8',
  17: 'miUTF16', 18: 'miUTF32',
};
const CLASS_NAMES: Record<number, string> = {
  1: 'cell', 2: 'struct', 3: 'object', 4: 'char', 5: 'sparse', 6: 'double', 7: 'single', 8: 'int8', 9: 'uint8',
  10: 'int16', 11: 'uint16', 12: 'int32', 13: 'uint32', 14: 'int64', 15: 'uint64', 16: 'function_handle', 17: 'opaque',
};
function typeName(t: number): string {
  return TYPE_NAMES[t] ?? `unknown data type ${t}`;
}
function className(c: number): string {
  return CLASS_NAMES[c] ?? `unknown class ${c}`;
}

const HOST_LE = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * Frozen, shared dims arrays for the small 2-D shapes (saves one array per cell element).
 * They are frozen so that a consumer cannot change the dims of every 4x1 array at once.
 */
const DIMS_CACHE: (number[] | undefined)[] = new Array(64 * 64);
function smallDims(d0: number, d1: number): number[] {
  const key = d0 * 64 + d1;
  return (DIMS_CACHE[key] ??= Object.freeze([d0, d1]) as number[]);
}
function makeDims(d: number[]): number[] {
  return d.length === 2 && d[0] < 64 && d[1] < 64 ? smallDims(d[0], d[1]) : d;
}

function prod(d: number[]): number {
  let n = 1;
  for (let i = 0; i < d.length; i++) n *= d[i];
  return n;
}

/** Parser state for one file. `bytes` is the file or the inflated data of one miCOMPRESSED element. */
/** The settings of one read. */
interface FileCtx {
  le: boolean;
  file: string | undefined;
  maxBytes: number;
}

/** One stretch of bytes being parsed: the file itself or the inflated data of one miCOMPRESSED element. */
interface Source {
  bytes: Uint8Array;
  dv: DataView;
  /** Offset of the miCOMPRESSED element in the file, or -1 for the file itself. */
  compressedAt: number;
}

function sourceOf(bytes: Uint8Array, compressedAt: number): Source {
  return { bytes, dv: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), compressedAt };
}

type PathPart = number | string;

/** Renders a location: `base` then `{i}` for cell index i >= 0, `(k)` for struct element -k, `.f` for field f. */
function renderWhere(base: string, parts: readonly PathPart[]): string {
  let s = base;
  for (const part of parts) {
    if (typeof part === 'string') s += `.${part}`;
    else if (part >= 0) s += `{${part + 1}}`;
    else s += `(${-part})`;
  }
  return s;
}

/**
 * Where a container's children are (the bytes) and where the container is (for error messages; the
 * text is only built when an error needs it).
 */
class LazyRef {
  constructor(
    readonly ctx: FileCtx,
    readonly src: Source,
    private readonly base: string | LazyRef,
    private readonly parts: readonly PathPart[],
  ) {}
  get where(): string {
    return renderWhere(typeof this.base === 'string' ? this.base : this.base.where, this.parts);
  }
}

class Reader {
  bytes: Uint8Array;
  dv: DataView;
  /** Offset of the current miCOMPRESSED element in the file, or -1 when reading the file itself. */
  compressedAt: number;
  private src: Source;
  readonly le: boolean;
  readonly file: string | undefined;
  readonly maxBytes: number;
  /** What `path` is relative to: the variable name, or a lazily decoded container; '' = header level. */
  base: string | LazyRef;
  /** Path below `base`: >= 0 cell index, < 0 struct element -(i+1), string field name. */
  readonly path: PathPart[] = [];
  /** Nesting of eagerly decoded containers (bounded so that hostile nesting cannot overflow the stack). */
  depth = 0;

  // Last tag read (readTag).
  tType = 0;
  tBytes = 0;
  tData = 0;
  tNext = 0;
  tAt = 0;

  constructor(
    readonly ctx: FileCtx,
    src: Source,
    base: string | LazyRef = '',
  ) {
    this.src = src;
    this.bytes = src.bytes;
    this.dv = src.dv;
    this.compressedAt = src.compressedAt;
    this.le = ctx.le;
    this.file = ctx.file;
    this.maxBytes = ctx.maxBytes;
    this.base = base;
  }

  /** A handle for decoding a child of the current container later. */
  lazyRef(): LazyRef {
    return new LazyRef(this.ctx, this.src, this.base, this.path.slice());
  }

  /** Switches to another stretch of bytes; returns the previous one. */
  setSource(src: Source): Source {
    const old = this.src;
    this.src = src;
    this.bytes = src.bytes;
    this.dv = src.dv;
    this.compressedAt = src.compressedAt;
    return old;
  }

  u32(p: number): number {
    return this.dv.getUint32(p, this.le);
  }
  i32(p: number): number {
    return this.dv.getInt32(p, this.le);
  }

  where(): string {
    return renderWhere(typeof this.base === 'string' ? this.base : this.base.where, this.path);
  }

  fail(pos: number, code: string, detail: string, expected?: string, found?: string, hint?: string): never {
    const inflated = this.compressedAt >= 0;
    throw new DevkitError({
      kind: 'input',
      code,
      file: this.file,
      field: this.base !== '' ? this.where() : undefined,
      offset: inflated ? this.compressedAt : pos,
      detail: inflated ? `${detail} (byte ${pos} of the inflated miCOMPRESSED element)` : detail,
      expected,
      found,
      hint,
    });
  }

  /** Reads the data element tag at p (both forms); the element must end by `end`. */
  readTag(p: number, end: number): void {
    if (p + 8 > end) this.fail(p, 'input/mat-truncated', 'data element tag cut off', '8 bytes for a tag', `${Math.max(0, end - p)} bytes left`);
    const w = this.u32(p);
    this.tAt = p;
    if (w >>> 16 !== 0) {
      // Small data element: [nbytes u16 | type u16] then up to 4 bytes of data.
      this.tType = w & 0xffff;
      this.tBytes = w >>> 16;
      if (this.tBytes > 4) this.fail(p, 'input/mat-tag', 'bad small data element', 'at most 4 bytes', `${this.tBytes} bytes`);
      this.tData = p + 4;
      this.tNext = p + 8;
      return;
    }
    this.tType = w;
    const n = this.u32(p + 4);
    this.tBytes = n;
    this.tData = p + 8;
    if (n > end - this.tData) {
      const what = end < this.bytes.length ? 'its enclosing element' : this.compressedAt >= 0 ? 'the inflated data' : 'the file (truncated?)';
      this.fail(p, 'input/mat-truncated', `${typeName(w)} element runs past the end of ${what}`, `at most ${end - this.tData} bytes`, `${n} bytes`);
    }
    // miCOMPRESSED is not padded by MATLAB; everything else is padded to 8 bytes (the last one may not be).
    this.tNext = w === miCOMPRESSED ? this.tData + n : Math.min(end, this.tData + ((n + 7) & ~7));
  }

  /** Runs `fn` on the inflated data of the miCOMPRESSED element whose tag was just read. */
  withInflated<T>(fn: (start: number, end: number) => T): T {
    const at = this.compressedAt >= 0 ? this.compressedAt : this.tAt;
    const inflated = this.inflate(this.tData, this.tBytes, at);
    const saved = this.setSource(sourceOf(inflated, at));
    try {
      return fn(0, inflated.length);
    } finally {
      this.setSource(saved);
    }
  }

  /** An error located at a byte offset of the file itself (not of inflated data). */
  failFile(at: number, code: string, detail: string, expected?: string, found?: string): never {
    const saved = this.compressedAt;
    this.compressedAt = -1;
    try {
      this.fail(at, code, detail, expected, found);
    } finally {
      this.compressedAt = saved;
    }
  }

  private zfail(at: number, detail: string, e: unknown, expected?: string): never {
    const msg = e instanceof Error ? e.message : String(e);
    this.failFile(at, 'input/mat-compressed', detail, expected, msg);
  }

  /** The first bytes of a zlib stream (without inflating all of it), at least `want` when available. */
  peek(start: number, n: number, at: number, want: number): Uint8Array {
    const src = this.bytes.subarray(start, start + n);
    let out: Uint8Array = new Uint8Array(0);
    for (const inLen of [64, 1024, 16384]) {
      const len = Math.min(inLen, src.length);
      try {
        out = inflateSync(src.subarray(0, len), { finishFlush: zlibConstants.Z_SYNC_FLUSH });
      } catch (e) {
        this.zfail(at, 'corrupt zlib stream in miCOMPRESSED element', e);
      }
      if (out.length >= want || len === src.length) break;
    }
    return out;
  }

  /** Inflates a whole miCOMPRESSED payload, never producing more than the inner element declares. */
  inflate(start: number, n: number, at: number): Uint8Array {
    const head = this.peek(start, n, at, 8);
    if (head.length < 8) {
      this.failFile(at, 'input/mat-compressed', 'miCOMPRESSED element holds no data element', 'an 8-byte tag', `${head.length} bytes`);
    }
    const dv = new DataView(head.buffer, head.byteOffset, head.byteLength);
    const w = dv.getUint32(0, this.le);
    const declared = w >>> 16 !== 0 ? 8 : 8 + dv.getUint32(4, this.le);
    // The inner element may be padded to 8 bytes.
    const cap = Math.min(this.maxBytes, declared + 8);
    if (declared > this.maxBytes) {
      this.failFile(at, 'input/mat-too-large', 'miCOMPRESSED element declares more data than allowed', `at most ${this.maxBytes} bytes (option maxBytes)`, `${declared} bytes`);
    }
    try {
      // One output chunk of the expected size avoids zlib's final concatenation copy (2x faster on
      // 34 MB). Deflate cannot expand more than ~1032:1, so a lying size cannot make this chunk large.
      const chunkSize = Math.max(64, Math.min(cap, n * 1040 + 1024, 64 * 1024 * 1024));
      return inflateSync(this.bytes.subarray(start, start + n), { maxOutputLength: Math.max(cap, 1), chunkSize });
    } catch (e) {
      if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
        this.zfail(at, 'miCOMPRESSED element inflates to more than its data element declares', e, `at most ${cap} bytes`);
      }
      this.zfail(at, 'corrupt or truncated zlib stream in miCOMPRESSED element', e);
    }
  }
}

// Header fields of the array being parsed (set by readArrayHeader).
let hClass = 0;
let hFlags = 0;
let hNzmax = 0;
let hDims: number[] = [];
let hName = '';
let hPos = 0;

function readName(r: Reader, start: number, n: number): string {
  const b = r.bytes;
  let e = start;
  const end = start + n;
  while (e < end && b[e] !== 0) e++;
  return e === start ? '' : String.fromCharCode.apply(null, b.subarray(start, e) as unknown as number[]);
}

/** Reads array flags, dimensions and name of an miMATRIX body [p, end). */
function readArrayHeader(r: Reader, p: number, end: number): void {
  r.readTag(p, end);
  if (r.tType !== miUINT32 || r.tBytes !== 8) {
    r.fail(p, 'input/mat-tag', 'bad array flags subelement', 'miUINT32 with 8 bytes', `${typeName(r.tType)} with ${r.tBytes} bytes`);
  }
  const f = r.u32(r.tData);
  hFlags = f;
  hClass = f & 0xff;
  hNzmax = r.u32(r.tData + 4);
  p = r.tNext;
  r.readTag(p, end);
  if ((r.tType as number) !== miINT32 || r.tBytes % 4 !== 0 || r.tBytes < 8) {
    r.fail(p, 'input/mat-tag', 'bad dimensions subelement', 'miINT32 with at least 2 dimensions', `${typeName(r.tType)} with ${r.tBytes} bytes`);
  }
  const nd = r.tBytes / 4;
  if (nd === 2) {
    const d0 = r.i32(r.tData);
    const d1 = r.i32(r.tData + 4);
    if (d0 < 0 || d1 < 0) r.fail(p, 'input/mat-dims', 'negative dimension', 'dimensions >= 0', `${d0}x${d1}`);
    hDims = d0 < 64 && d1 < 64 ? smallDims(d0, d1) : [d0, d1];
  } else {
    const dims = new Array<number>(nd);
    for (let i = 0; i < nd; i++) {
      const d = r.i32(r.tData + 4 * i);
      if (d < 0) r.fail(p, 'input/mat-dims', 'negative dimension', 'dimensions >= 0', String(d));
      dims[i] = d;
    }
    hDims = dims;
  }
  p = r.tNext;
  r.readTag(p, end);
  const nameType = r.tType as number;
  if (nameType !== miINT8 && nameType !== miUINT8 && nameType !== miUTF8) {
    r.fail(p, 'input/mat-tag', 'bad array name subelement', 'miINT8', typeName(r.tType));
  }
  hName = (r.tBytes as number) === 0 ? '' : readName(r, r.tData, r.tBytes);
  hPos = r.tNext;
}

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

/** Reads one value of a non-64-bit-integer storage type. */
function readNumber(dv: DataView, type: number, p: number, le: boolean): number {
  switch (type) {
    case miINT8:
      return dv.getInt8(p);
    case miUINT8:
      return dv.getUint8(p);
    case miINT16:
      return dv.getInt16(p, le);
    case miUINT16:
      return dv.getUint16(p, le);
    case miINT32:
      return dv.getInt32(p, le);
    case miUINT32:
      return dv.getUint32(p, le);
    case miSINGLE:
      return dv.getFloat32(p, le);
    default:
      return dv.getFloat64(p, le);
  }
}

/** Values this small are decoded element by element (no intermediate buffers; V8 keeps them on-heap). */
const SMALL = 16;

/** Reads `count` values of storage type `type` from [start, start+nbytes) as a `target`-typed array. */
function decodeValues(r: Reader, type: number, start: number, nbytes: number, count: number, target: ClassInfo, at: number): MatTypedArray {
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

function checkAlloc(r: Reader, at: number, bytes: number): void {
  if (bytes > r.maxBytes) {
    r.fail(at, 'input/mat-too-large', 'array larger than allowed', `at most ${r.maxBytes} bytes (option maxBytes)`, `${bytes} bytes`);
  }
}

const DOUBLE: ClassInfo = NUMERIC_CLASS[6]!;
const INT32: ClassInfo = NUMERIC_CLASS[12]!;

function emptyDouble(): MatNumeric {
  return { kind: 'numeric', class: 'double', dims: makeDims([0, 0]), data: new Float64Array(0) };
}

/** Parses the miMATRIX element at p (or an miCOMPRESSED one holding it); sets r.tNext past it. */
function parseChild(r: Reader, p: number, end: number): MatValue {
  r.readTag(p, end);
  const next = r.tNext;
  let v: MatValue;
  if (r.tType === miMATRIX) {
    v = parseMatrix(r, r.tData, r.tData + r.tBytes);
  } else if (r.tType === miCOMPRESSED) {
    v = r.withInflated((s, e) => {
      r.readTag(s, e);
      if (r.tType !== miMATRIX) r.fail(s, 'input/mat-tag', 'unexpected element', 'miMATRIX', typeName(r.tType));
      return parseMatrix(r, r.tData, r.tData + r.tBytes);
    });
  } else {
    r.fail(p, 'input/mat-tag', 'unexpected element', 'miMATRIX', typeName(r.tType));
  }
  r.tNext = next;
  return v;
}

/** Parses an miMATRIX body [p, end). */
function parseMatrix(r: Reader, p: number, end: number): MatValue {
  if (p === end) return emptyDouble(); // MATLAB writes [] cell/field contents as an empty miMATRIX.
  readArrayHeader(r, p, end);
  return parseMatrixBody(r, end);
}

/** Parses the class-specific part of an array whose header readArrayHeader just read. */
function parseMatrixBody(r: Reader, end: number): MatValue {
  const cls = hClass;
  const flags = hFlags;
  const dims = hDims;
  const nzmax = hNzmax;
  let p = hPos;
  const count = prod(dims);
  const numeric = NUMERIC_CLASS[cls];
  if (numeric) {
    r.readTag(p, end);
    const at = p;
    if ((flags & FLAG_LOGICAL) !== 0 && dims.length === 2 && r.tType === miINT32 && !(r.tBytes === count * 4 && r.tNext >= end)) {
      // Octave's sparse logical: class uint8 + logical flag, with an ir/jc/pr body.
      return parseSparse(r, p, end, dims, nzmax, true, (flags & FLAG_COMPLEX) !== 0);
    }
    const type = r.tType;
    const data = decodeValues(r, type, r.tData, r.tBytes, count, numeric, at);
    p = r.tNext;
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
      v.imag = decodeValues(r, r.tType, r.tData, r.tBytes, count, numeric, ati);
    }
    return v;
  }
  switch (cls) {
    case mxCHAR:
      return parseChar(r, p, end, dims, count);
    case mxCELL: {
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
          p = r.tNext;
        }
        path.length = d;
        r.depth--;
        const v: MatCell = { kind: 'cell', dims: makeDims(dims), cells };
        return v;
      }
      // Check that every element is there (cheap: tags only); decode them when `cells` is first read.
      const first = p;
      for (let i = 0; i < count; i++) {
        r.readTag(p, end);
        if (r.tType !== miMATRIX && r.tType !== miCOMPRESSED) {
          r.path.push(i);
          r.fail(p, 'input/mat-tag', 'unexpected element in a cell array', 'miMATRIX', typeName(r.tType));
        }
        p = r.tNext;
      }
      return new CellArray(makeDims(dims), count, r.lazyRef(), first, end);
    }
    case mxSTRUCT:
      return parseStruct(r, p, end, dims, count);
    case mxSPARSE:
      if (dims.length !== 2) r.fail(p, 'input/mat-dims', 'sparse array must be 2-D', '2 dimensions', `${dims.length}`);
      return parseSparse(r, p, end, dims, nzmax, (flags & FLAG_LOGICAL) !== 0, (flags & FLAG_COMPLEX) !== 0);
    case mxOBJECT:
    case mxFUNCTION:
    case mxOPAQUE:
      return r.fail(p, 'input/mat-unsupported', `MATLAB ${className(cls)} arrays are not supported`, 'numeric, logical, char, cell, struct or sparse', className(cls), 'convert the value to a struct or numeric array in MATLAB, or skip it with the `variables` option');
    default:
      return r.fail(p, 'input/mat-class', 'unknown array class', 'a MATLAB class 1..15', `${cls}`);
  }
}

function parseChar(r: Reader, p: number, end: number, dims: number[], count: number): MatChar {
  if (count === 0 && p >= end) return { kind: 'char', dims: makeDims(dims), codes: new Uint16Array(0) };
  r.readTag(p, end);
  const type = r.tType;
  const n = r.tBytes;
  let codes: Uint16Array;
  if (type === miUTF8) {
    const text = new TextDecoder('utf-8').decode(r.bytes.subarray(r.tData, r.tData + n));
    if (text.length !== count) {
      r.fail(p, 'input/mat-size', 'char data size does not match the dimensions', `${count} characters`, `${text.length}`);
    }
    codes = new Uint16Array(count);
    for (let i = 0; i < count; i++) codes[i] = text.charCodeAt(i);
  } else if (type === miUTF16 || type === miUINT16 || type === miINT16) {
    codes = decodeValues(r, miUINT16, r.tData, n, count, NUMERIC_CLASS[11]!, p) as Uint16Array;
  } else if (type === miUINT8 || type === miINT8) {
    codes = decodeValues(r, miUINT8, r.tData, n, count, NUMERIC_CLASS[11]!, p) as Uint16Array;
  } else if (type === miUTF32 || type === miUINT32 || type === miINT32) {
    codes = decodeValues(r, miUINT32, r.tData, n, count, NUMERIC_CLASS[11]!, p) as Uint16Array;
  } else {
    r.fail(p, 'input/mat-tag', 'bad char data element', 'miUINT16, miUTF8, miUTF16 or miUINT8', typeName(type));
  }
  return { kind: 'char', dims: makeDims(dims), codes };
}

/** Containers with at most this many values are decoded at once, up to this nesting depth. */
const EAGER_MAX = 16;
const EAGER_DEPTH = 32;

/** Decodes the `count` cell elements starting at `p` (each an miMATRIX or miCOMPRESSED element). */
function decodeCells(ref: LazyRef, p: number, end: number, count: number): MatValue[] {
  const r = new Reader(ref.ctx, ref.src, ref);
  const cells = new Array<MatValue>(count);
  const path = r.path;
  for (let i = 0; i < count; i++) {
    path[0] = i;
    cells[i] = parseChild(r, p, end);
    p = r.tNext;
  }
  return cells;
}

/**
 * A cell array whose elements are decoded on the first read of `cells` (once; the decoded array
 * then replaces the getter as a plain own property).
 */
class CellArray implements MatCell {
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
class StructArray implements MatStruct {
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
  if (r.tType !== miINT32 || r.tBytes !== 4) {
    r.fail(p, 'input/mat-tag', 'bad field name length subelement', 'miINT32 with 4 bytes', `${typeName(r.tType)} with ${r.tBytes} bytes`);
  }
  const len = r.i32(r.tData);
  p = r.tNext;
  r.readTag(p, end);
  const namesType = r.tType as number;
  if (namesType !== miINT8 && namesType !== miUINT8 && namesType !== miUTF8) {
    r.fail(p, 'input/mat-tag', 'bad field names subelement', 'miINT8', typeName(r.tType));
  }
  let nfields = 0;
  if (r.tBytes > 0) {
    if (len <= 0 || r.tBytes % len !== 0) {
      r.fail(p, 'input/mat-tag', 'field names do not fit the field name length', `a multiple of ${len} bytes`, `${r.tBytes} bytes`);
    }
    nfields = r.tBytes / len;
  }
  const fields = fieldList(r, r.tData, r.tBytes, len, nfields);
  const fieldNames = fields.names;
  p = r.tNext;
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
      p = r.tNext;
    }
    path.length = d;
    r.depth--;
    return new StructArray(makeDims(dims), fields, null, end, r.lazyRef(), values);
  }
  // Record where each field value starts (tags only); values are decoded on first access.
  const pos = new Float64Array(total);
  for (let k = 0; k < total; k++) {
    r.readTag(p, end);
    if ((r.tType as number) !== miMATRIX && (r.tType as number) !== miCOMPRESSED) {
      const i = Math.floor(k / nfields);
      if (count > 1) r.path.push(-(i + 1));
      r.path.push(fieldNames[k - i * nfields]);
      r.fail(p, 'input/mat-tag', 'unexpected element in a struct array', 'miMATRIX', typeName(r.tType));
    }
    pos[k] = p;
    p = r.tNext;
  }
  return new StructArray(makeDims(dims), fields, pos, end, r.lazyRef());
}

function parseSparse(r: Reader, p: number, end: number, dims: number[], nzmax: number, logical: boolean, complex: boolean): MatSparse {
  const rows = dims[0];
  const cols = dims[1];
  // ir
  r.readTag(p, end);
  const irAt = p;
  const irStore = STORAGE[r.tType];
  if (!irStore || irStore.bigint || irStore.ctor === Float64Array || irStore.ctor === Float32Array) {
    r.fail(p, 'input/mat-tag', 'bad sparse row index (ir) element', 'miINT32', typeName(r.tType));
  }
  const irCount = r.tBytes / irStore.size;
  if (!Number.isInteger(irCount)) r.fail(p, 'input/mat-size', 'sparse ir size is not a whole number of values', `a multiple of ${irStore.size}`, `${r.tBytes} bytes`);
  const ir = decodeValues(r, r.tType, r.tData, r.tBytes, irCount, INT32, irAt) as Int32Array;
  p = r.tNext;
  // jc
  r.readTag(p, end);
  const jcAt = p;
  const jcStore = STORAGE[r.tType];
  if (!jcStore || jcStore.bigint || jcStore.ctor === Float64Array || jcStore.ctor === Float32Array) {
    r.fail(p, 'input/mat-tag', 'bad sparse column start (jc) element', 'miINT32', typeName(r.tType));
  }
  if (r.tBytes !== (cols + 1) * jcStore.size) {
    r.fail(p, 'input/mat-size', 'sparse jc length does not match the column count', `${cols + 1} values`, `${r.tBytes / jcStore.size}`);
  }
  const jc = decodeValues(r, r.tType, r.tData, r.tBytes, cols + 1, INT32, jcAt) as Int32Array;
  p = r.tNext;
  const nnz = jc[cols];
  if (jc[0] !== 0) r.fail(jcAt, 'input/mat-sparse', 'sparse jc must start at 0', '0', String(jc[0]));
  for (let c = 0; c < cols; c++) {
    if (jc[c + 1] < jc[c]) r.fail(jcAt, 'input/mat-sparse', `sparse jc decreases at column ${c + 1}`, 'non-decreasing column starts', `${jc[c]} then ${jc[c + 1]}`);
  }
  if (nnz > irCount) r.fail(irAt, 'input/mat-sparse', 'sparse ir shorter than the nonzero count', `at least ${nnz} row indices`, `${irCount}`);
  for (let k = 0; k < nnz; k++) {
    if (ir[k] < 0 || ir[k] >= rows) r.fail(irAt, 'input/mat-sparse', `sparse row index out of range at nonzero ${k + 1}`, `0..${rows - 1}`, String(ir[k]));
  }
  void nzmax;
  const data = readSparseValues(r, p, end, nnz, logical, 'pr');
  p = r.tNext;
  const v: MatSparse = { kind: 'sparse', logical, dims: [rows, cols], nnz, ir, jc, data };
  if (logical) for (let k = 0; k < nnz; k++) data[k] = data[k] !== 0 ? 1 : 0;
  if (complex) {
    v.imag = readSparseValues(r, p, end, nnz, false, 'pi');
  }
  return v;
}

/** nnz values of a sparse array's pr/pi element (>= nnz stored; MATLAB's logical layout: miDOUBLE tag, nnz bytes). */
function readSparseValues(r: Reader, p: number, end: number, nnz: number, logical: boolean, what: string): Float64Array {
  if (nnz === 0 && p >= end) {
    r.tNext = p;
    return new Float64Array(0);
  }
  r.readTag(p, end);
  const st = STORAGE[r.tType];
  if (!st) r.fail(p, 'input/mat-tag', `bad sparse ${what} element`, 'a numeric data type', typeName(r.tType));
  let data: Float64Array;
  if (r.tBytes === nnz * st.size) {
    data = decodeValues(r, r.tType, r.tData, r.tBytes, nnz, DOUBLE, p) as Float64Array;
  } else if (logical && r.tBytes === nnz) {
    // MATLAB's sparse logical: tagged miDOUBLE (or another type) but holding one byte per nonzero.
    data = decodeValues(r, miUINT8, r.tData, nnz, nnz, DOUBLE, p) as Float64Array;
  } else if (r.tBytes > nnz * st.size && r.tBytes % st.size === 0) {
    // nzmax values stored; only the first nnz are used.
    data = decodeValues(r, r.tType, r.tData, nnz * st.size, nnz, DOUBLE, p) as Float64Array;
  } else {
    r.fail(p, 'input/mat-size', `sparse ${what} size does not match the nonzero count`, `${nnz} values (${nnz * st.size} bytes)`, `${r.tBytes} bytes (${typeName(r.tType)})`);
  }
  return data;
}

function v73Error(file: string | undefined): DevkitError {
  return new DevkitError({
    kind: 'input',
    code: 'input/mat-v73',
    file,
    offset: 0,
    detail: 'MATLAB 7.3 MAT-files are HDF5 files, not MAT-file Level 5',
    expected: 'a Level 5 MAT-file (MATLAB -v6 or -v7)',
    found: 'a -v7.3 (HDF5) MAT-file',
    hint: "re-save it in MATLAB with `save(file, '-v7')` (or Octave `save -v7`)",
  });
}

function latin1(b: Uint8Array, start: number, end: number): string {
  let s = '';
  for (let i = start; i < end; i++) s += String.fromCharCode(b[i]);
  return s;
}

/** The 116-byte header text (trailing blanks and NULs removed). */
export function matHeaderText(bytes: Uint8Array): string {
  return latin1(bytes, 0, Math.min(116, bytes.length)).replace(/[\s\0]+$/, '');
}

/**
 * Reads a Level 5 MAT-file held in memory. Variables come back in file order; a name that occurs twice
 * keeps its last value (as MATLAB's `load` does).
 */
export function readMat(bytes: Uint8Array, options: ReadMatOptions = {}): MatVariables {
  const file = options.file;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const want = options.variables ? new Set(options.variables) : undefined;
  const text = latin1(bytes, 0, Math.min(128, bytes.length));
  if (text.startsWith('MATLAB 7.3 MAT-file')) throw v73Error(file);
  if (bytes.length >= 520 && latin1(bytes, 512, 520) === '\x89HDF\r\n\x1a\n') throw v73Error(file);
  if (latin1(bytes, 0, 8) === '\x89HDF\r\n\x1a\n') throw v73Error(file);
  if (bytes.length < 128) {
    throw new DevkitError({
      kind: 'input', code: 'input/mat-truncated', file, offset: bytes.length,
      detail: 'file too short for a MAT-file header', expected: '128-byte header', found: `${bytes.length} bytes`,
    });
  }
  const endian = latin1(bytes, 126, 128);
  let le: boolean;
  if (endian === 'IM') le = true;
  else if (endian === 'MI') le = false;
  else {
    throw new DevkitError({
      kind: 'input', code: 'input/mat-header', file, offset: 126,
      detail: 'not a MAT-file Level 5 (no endian indicator)', expected: "'IM' or 'MI' at byte 126", found: JSON.stringify(endian),
      hint: text.startsWith('MATLAB') ? undefined : 'MATLAB Level 4 files and non-MAT files are not supported; re-save with `save -v7`',
    });
  }
  const r = new Reader({ le, file, maxBytes }, sourceOf(bytes, -1));
  const version = r.dv.getUint16(124, le);
  if (version !== 0x0100) {
    r.fail(124, 'input/mat-header', 'unsupported MAT-file version', '0x0100', `0x${version.toString(16).padStart(4, '0')}`);
  }
  const out: MatVariables = {};
  const end = bytes.length;
  let p = 128;
  while (p < end) {
    r.base = '';
    r.readTag(p, end);
    const type = r.tType;
    const next = r.tNext;
    if (type === miCOMPRESSED) {
      const at = p;
      const dataStart = r.tData;
      const n = r.tBytes;
      let name: string | undefined;
      if (want) {
        // Read only the array header from the first inflated bytes to learn the name.
        name = peekName(r, dataStart, n, at);
        if (!want.has(name)) {
          p = next;
          continue;
        }
      }
      r.tData = dataStart;
      r.tBytes = n;
      r.tAt = at;
      const v = r.withInflated((s, e) => {
        r.readTag(s, e);
        if (r.tType !== miMATRIX) r.fail(s, 'input/mat-tag', 'unexpected element in miCOMPRESSED', 'miMATRIX', typeName(r.tType));
        const bodyEnd = r.tData + r.tBytes;
        return readTopMatrix(r, r.tData, bodyEnd);
      });
      out[v.name] = v.value;
    } else if (type === miMATRIX) {
      const bodyStart = r.tData;
      const bodyEnd = r.tData + r.tBytes;
      if (want) {
        if (r.tBytes === 0) {
          p = next;
          continue;
        }
        readArrayHeader(r, bodyStart, bodyEnd);
        if (!want.has(hName)) {
          p = next;
          continue;
        }
      }
      const v = readTopMatrix(r, bodyStart, bodyEnd);
      out[v.name] = v.value;
    } else {
      r.fail(p, 'input/mat-tag', 'unexpected top-level data element', 'miMATRIX or miCOMPRESSED', typeName(type));
    }
    p = next;
  }
  r.base = '';
  for (const [name, v] of Object.entries(out)) {
    setOrigin(v, file, name);
    if (options.eager) decodeAll(v);
  }
  return out;
}

/** Decodes every element of every cell/struct array inside `v` now (iteratively; nesting may be deep). */
export function decodeAll(v: MatValue): void {
  const stack: MatValue[] = [v];
  while (stack.length > 0) {
    const x = stack.pop()!;
    if (x.kind === 'cell') {
      for (const c of x.cells) if (c.kind === 'cell' || c.kind === 'struct') stack.push(c);
    } else if (x.kind === 'struct' && x.fieldNames.length > 0) {
      // (A struct without fields may claim any number of elements; there is nothing to decode.)
      for (let i = 0; i < x.length; i++) {
        for (const f of x.fieldNames) {
          const c = x.get(i, f);
          if (c.kind === 'cell' || c.kind === 'struct') stack.push(c);
        }
      }
    }
  }
}

function readTopMatrix(r: Reader, p: number, end: number): { name: string; value: MatValue } {
  if (p === end) r.fail(p, 'input/mat-tag', 'empty top-level miMATRIX', 'an array with a name', 'no data');
  readArrayHeader(r, p, end);
  const name = hName;
  r.base = name || '(unnamed)';
  r.path.length = 0;
  const value = parseMatrixBody(r, end);
  return { name, value };
}

function peekName(r: Reader, start: number, n: number, at: number): string {
  const head = r.peek(start, n, at, 512);
  let name: string | undefined;
  if (head.length >= 8) {
    const saved = r.setSource(sourceOf(head, at));
    try {
      r.readTag(0, head.length + 1e12); // the inner element is longer than the peeked bytes
      if (r.tType === miMATRIX) {
        readArrayHeader(r, 8, head.length);
        name = hName;
      }
    } catch (e) {
      if (!(e instanceof DevkitError)) throw e;
    } finally {
      r.setSource(saved);
    }
  }
  if (name !== undefined) return name;
  // The header did not fit in the peeked bytes (or is bad): inflate all of it, reporting errors properly.
  r.tData = start;
  r.tBytes = n;
  r.tAt = at;
  return r.withInflated((s, e) => {
    r.readTag(s, e);
    if (r.tType !== miMATRIX) r.fail(s, 'input/mat-tag', 'unexpected element in miCOMPRESSED', 'miMATRIX', typeName(r.tType));
    readArrayHeader(r, r.tData, r.tData + r.tBytes);
    return hName;
  });
}

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

/**
 * The real values of the numeric/logical elements of a cell array, or of one field of a struct array,
 * packed into one Float64Array. When the container has not been decoded yet this reads the values
 * straight from the file data without creating a MatValue per element (the fast way to read
 * ILSVRC's 176,126-element `gt_obj_bboxes`).
 */
export function packNumbers(container: MatCell | MatStruct, field?: string): PackedNumbers {
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
        p = r.tNext;
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
  const offsets = new Float64Array(n + 1);
  const rows = new Int32Array(n);
  const cols = new Int32Array(n);
  // Per element: where its data are (raw) or its decoded value (anything unusual).
  const dataPos = new Float64Array(n);
  const dataType = new Uint8Array(n);
  const decoded = new Array<Float64Array | undefined>(n);
  let total = 0;
  const r = ref ? new Reader(ref.ctx, ref.src, ref) : undefined;
  const path = r?.path ?? [];
  const isCell = container.kind === 'cell';
  if (!isCell && n > 1) path.push(-1);
  if (isCell) path.push(0);
  else path.push(field!);
  const setPath = isCell ? (i: number) => (path[0] = i) : n > 1 ? (i: number) => (path[0] = -(i + 1)) : () => 0;
  for (let i = 0; i < n; i++) {
    let dims: number[] | undefined;
    if (r && positions) {
      const p = positions[i];
      r.readTag(p, end);
      if (r.tType === miMATRIX && r.tBytes > 0) {
        const bodyEnd = r.tData + r.tBytes;
        setPath(i);
        readArrayHeader(r, r.tData, bodyEnd);
        const cls = NUMERIC_CLASS[hClass];
        if (cls && (hFlags & FLAG_LOGICAL) === 0 && hPos < bodyEnd) {
          const count = prod(hDims);
          const at = hPos;
          r.readTag(hPos, bodyEnd);
          const st = STORAGE[r.tType];
          if (!st) return r.fail(at, 'input/mat-tag', 'unknown numeric data type', 'miINT8 … miUINT64, miSINGLE or miDOUBLE', typeName(r.tType));
          if (r.tBytes !== count * st.size) {
            r.fail(at, 'input/mat-size', 'data size does not match the dimensions', `${count * st.size} bytes`, `${r.tBytes} bytes (${typeName(r.tType)})`);
          }
          dims = hDims;
          dataPos[i] = r.tData;
          dataType[i] = r.tType;
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
  const values = new Float64Array(total);
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
  return { values, offsets, rows, cols };
}
