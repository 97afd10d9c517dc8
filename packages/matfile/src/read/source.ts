/**
 * The bytes being parsed and the parser's position in them: a `Source` (the file itself, or the inflated data of
 * one miCOMPRESSED element), the `Reader` over it (data element tags in both forms, inflating, errors located by
 * file offset and variable path), and `LazyRef` (where a lazily decoded container's children are).
 *
 * Layout reference: "MAT-File Format" (MathWorks, R2013+), chapter 1 "Level 5 MAT-files": data elements
 * `[type u32][nbytes u32][data, padded to 8]`, or the small form `[nbytes u16 | type u16][4 bytes data]` when
 * nbytes <= 4. miCOMPRESSED (15) holds a zlib stream that inflates to one more element; MATLAB does not pad it to
 * 8 bytes.
 */
import { inflateSync, constants as zlibConstants } from 'node:zlib';
import { DevkitError, type ErrorCode } from '@cvdevkit/core';
import { miCOMPRESSED, typeName } from './tags.js';

/** The settings of one read. */
export interface FileCtx {
  le: boolean;
  file: string | undefined;
  maxBytes: number;
}

/** One stretch of bytes being parsed: the file itself or the inflated data of one miCOMPRESSED element. */
export interface Source {
  bytes: Uint8Array;
  dv: DataView;
  /** Offset of the miCOMPRESSED element in the file, or -1 for the file itself. */
  compressedAt: number;
}

export function sourceOf(bytes: Uint8Array, compressedAt: number): Source {
  return { bytes, dv: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), compressedAt };
}

export type PathPart = number | string;

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
export class LazyRef {
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

export class Reader {
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
  tagType = 0;
  tagBytes = 0;
  tagData = 0;
  tagNext = 0;
  tagAt = 0;

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

  fail(pos: number, code: ErrorCode, detail: string, expected?: string, found?: string, hint?: string): never {
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
    this.tagAt = p;
    if (w >>> 16 !== 0) {
      // Small data element: [nbytes u16 | type u16] then up to 4 bytes of data.
      this.tagType = w & 0xffff;
      this.tagBytes = w >>> 16;
      if (this.tagBytes > 4) this.fail(p, 'input/mat-tag', 'bad small data element', 'at most 4 bytes', `${this.tagBytes} bytes`);
      this.tagData = p + 4;
      this.tagNext = p + 8;
      return;
    }
    this.tagType = w;
    const n = this.u32(p + 4);
    this.tagBytes = n;
    this.tagData = p + 8;
    if (n > end - this.tagData) {
      const what = end < this.bytes.length ? 'its enclosing element' : this.compressedAt >= 0 ? 'the inflated data' : 'the file (truncated?)';
      this.fail(p, 'input/mat-truncated', `${typeName(w)} element runs past the end of ${what}`, `at most ${end - this.tagData} bytes`, `${n} bytes`);
    }
    // miCOMPRESSED is not padded by MATLAB; everything else is padded to 8 bytes (the last one may not be).
    this.tagNext = w === miCOMPRESSED ? this.tagData + n : Math.min(end, this.tagData + ((n + 7) & ~7));
  }

  /** Runs `fn` on the inflated data of the miCOMPRESSED element whose tag was just read. */
  withInflated<T>(fn: (start: number, end: number) => T): T {
    const at = this.compressedAt >= 0 ? this.compressedAt : this.tagAt;
    const inflated = this.inflate(this.tagData, this.tagBytes, at);
    const saved = this.setSource(sourceOf(inflated, at));
    try {
      return fn(0, inflated.length);
    } finally {
      this.setSource(saved);
    }
  }

  /** An error located at a byte offset of the file itself (not of inflated data). */
  failFile(at: number, code: ErrorCode, detail: string, expected?: string, found?: string): never {
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
