import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { RecordBuilder, type FieldBuilder, type RecordColumns, type RecordSpec, type RleSink } from './columns.js';
import { JsonColumnsError } from './errors.js';
import { NEED_MORE_INPUT, NOT_A_NUMBER, parseNumber, type ParsedNumber } from './number.js';

/** What to read: a root list of records, or a root object whose named keys hold lists of records. */
export type Layout = { root: 'array'; record: RecordSpec } | { root: 'object'; lists: Record<string, RecordSpec> };

export interface ReadResult {
  /** The records of each list (for `root: 'array'`, under the key `''`). */
  lists: Record<string, RecordColumns>;
  /** Keys of the root object, in file order (root 'object'). */
  rootKeys: string[];
  /** The list keys declared but absent from the root object. */
  missing: string[];
}

export interface ReadOptions {
  /** Bytes read at a time (default 1 MiB). The window grows only when one record is larger. */
  chunkSize?: number;
  /**
   * Per list (`''` for a root list) and rle field: a sink that sees each value in the byte form as its
   * record is committed and says whether its bytes are kept (see `RleSink`).
   */
  rleSinks?: Record<string, Record<string, RleSink>>;
}

/** Where the bytes come from. */
export interface ByteSource {
  /** Reads up to `length` bytes into `buf` at `offset`; returns the count (0 at the end). */
  read(buf: Uint8Array, offset: number, length: number): number;
  close(): void;
  /** The total number of bytes, when known (a regular file): the columns are then sized from it. */
  size?: number;
}

export function fileSource(path: string): ByteSource {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    throw new JsonColumnsError('read', `${path}: ${(e as Error).message}`, 0, 'a readable file', (e as NodeJS.ErrnoException).code ?? 'an I/O error');
  }
  let size: number | undefined;
  try {
    const st = fstatSync(fd);
    if (st.isFile()) size = st.size;
  } catch {
    // no size: the columns grow by doubling
  }
  return {
    read: (buf, offset, length) => readSync(fd, buf, offset, length, null),
    close: () => closeSync(fd),
    size,
  };
}

export function bufferSource(bytes: Uint8Array): ByteSource {
  let at = 0;
  return {
    read(buf, offset, length) {
      const n = Math.min(length, bytes.length - at);
      buf.set(bytes.subarray(at, at + n), offset);
      at += n;
      return n;
    },
    close() {},
    size: bytes.length,
  };
}

/** Thrown (as this object) when a step runs past the bytes in the window before the end of input. */
const NEED_MORE = { needMore: true };

/** `copyPlainString`: the window ends inside the string (more input needed, or the input ends there). */
const STRING_CUT = -1;
/** `copyPlainString`: an escape other than an escaped backslash, a control or a non-ASCII byte. */
const STRING_NOT_PLAIN = -2;
/** Where `copyPlainString`'s copy ended in its destination. */
let copiedEnd = 0;

/**
 * Copies the body of the JSON string whose first byte is b[p] to d[at …], an escaped backslash as one
 * backslash; returns the index of the closing quote (`copiedEnd`: the end of the copy), or STRING_CUT or
 * STRING_NOT_PLAIN. A small function of its own: compiled early, and never thrown away for the reader's
 * sake (its loop is most of the work of reading masks).
 */
function copyPlainString(b: Uint8Array, p: number, end: number, d: Uint8Array, at: number): number {
  for (;;) {
    if (p >= end) return STRING_CUT;
    const c = b[p];
    if (c === 34) break;
    if (c === 92) {
      if (p + 1 >= end) return STRING_CUT;
      if (b[p + 1] !== 92) return STRING_NOT_PLAIN;
      d[at++] = 92;
      p += 2;
      continue;
    }
    if (c < 32 || c >= 128) return STRING_NOT_PLAIN;
    d[at++] = c;
    p++;
  }
  copiedEnd = at;
  return p;
}

/** The keys of an rle field's byte form, with their quotes. */
const SIZE_KEY = new TextEncoder().encode('"size"');
const COUNTS_KEY = new TextEncoder().encode('"counts"');

const WS = new Uint8Array(256);
WS[32] = WS[9] = WS[10] = WS[13] = 1;

function describeByte(c: number | undefined): string {
  if (c === undefined) return 'the end of the input';
  if (c >= 32 && c < 127) return JSON.stringify(String.fromCharCode(c));
  return `byte 0x${c.toString(16).padStart(2, '0')}`;
}

class Parser {
  buf: Uint8Array;
  pos = 0;
  end = 0;
  eof = false;
  /** File offset of buf[0]. */
  base = 0;
  readonly num: ParsedNumber = { value: 0, end: 0, integer: true };
  /** The list and index of the record being read (for errors; the path text is made only then). */
  listName: string | undefined = undefined;
  index = 0;
  get path(): string {
    return this.listName === undefined ? '' : `${this.listName}[${this.index}]`;
  }
  private readonly decoder = new TextDecoder('utf-8', { fatal: false });
  /** For strings of bytes < 128 only (where every single-byte decoding agrees). */
  private readonly ascii = new TextDecoder('latin1');

  constructor(
    private readonly source: ByteSource,
    chunk: number,
  ) {
    this.buf = new Uint8Array(chunk);
    this.chunk = chunk;
  }
  private readonly chunk: number;

  /** Keeps buf[from..end), reads more after it (growing the window when it is full). */
  refill(from: number): void {
    const keep = this.end - from;
    if (from > 0) {
      this.buf.copyWithin(0, from, this.end);
      this.base += from;
    }
    if (keep + this.chunk > this.buf.length) {
      const next = new Uint8Array(Math.max(this.buf.length * 2, keep + this.chunk));
      next.set(this.buf.subarray(0, keep));
      this.buf = next;
    }
    let total = 0;
    let n: number;
    do {
      n = this.source.read(this.buf, keep + total, this.buf.length - keep - total);
      total += n;
    } while (n > 0 && total < this.chunk);
    this.end = keep + total;
    this.pos -= from;
    if (n === 0) this.eof = true;
  }

  /** Runs `step` from the current position, refilling and retrying while it needs more input. */
  step<T>(f: () => T): T {
    for (;;) {
      const at = this.pos;
      try {
        return f();
      } catch (e) {
        if (e !== NEED_MORE) throw e;
        this.pos = at;
        this.refill(at);
      }
    }
  }

  syntax(expected: string): JsonColumnsError {
    const c = this.pos < this.end ? this.buf[this.pos] : undefined;
    const found = describeByte(c);
    return new JsonColumnsError('syntax', `byte ${this.base + this.pos}${this.path ? ` (${this.path})` : ''}: expected ${expected}, found ${found}`, this.base + this.pos, expected, found, this.path || undefined);
  }

  /** The next non-space byte (not consumed). */
  peek(): number {
    const b = this.buf;
    let p = this.pos;
    while (p < this.end && WS[b[p]]) p++;
    this.pos = p;
    if (p >= this.end) {
      if (this.eof) return -1;
      throw NEED_MORE;
    }
    return b[p];
  }

  expect(c: number, what: string): void {
    if (this.peek() !== c) throw this.syntax(what);
    this.pos++;
  }

  /** The string starting at pos (a '"'): its decoded text. */
  readString(): string {
    const b = this.buf;
    let p = this.pos + 1;
    let plain = true;
    let ascii = true;
    for (;;) {
      if (p >= this.end) {
        if (this.eof) {
          this.pos = p;
          throw this.syntax('the end of a string (")');
        }
        throw NEED_MORE;
      }
      const c = b[p];
      if (c === 34) break;
      if (c === 92) {
        plain = false;
        p += 2;
        continue;
      }
      if (c < 32) {
        this.pos = p;
        throw this.syntax('a string character (control characters must be escaped)');
      }
      if (c >= 128) ascii = false;
      p++;
    }
    const s = this.pos;
    this.pos = p + 1;
    if (plain && ascii) {
      if (p - s - 1 > 24) return this.ascii.decode(b.subarray(s + 1, p));
      let out = '';
      for (let i = s + 1; i < p; i++) out += String.fromCharCode(b[i]);
      return out;
    }
    const text = this.decoder.decode(b.subarray(s, p + 1));
    if (plain) return text.slice(1, -1);
    try {
      return JSON.parse(text) as string;
    } catch {
      this.pos = s;
      throw this.syntax('a valid string escape');
    }
  }

  /** Skips the string at pos (a '"'). */
  skipString(): void {
    const b = this.buf;
    let p = this.pos + 1;
    for (;;) {
      if (p >= this.end) {
        if (this.eof) {
          this.pos = p;
          throw this.syntax('the end of a string (")');
        }
        throw NEED_MORE;
      }
      const c = b[p];
      if (c === 34) break;
      if (c === 92) p += 2;
      else p++;
    }
    this.pos = p + 1;
  }

  /** A number or NaN / Infinity / -Infinity at pos. */
  readNumber(): number {
    const c = this.buf[this.pos];
    if (c === 78) return this.literal('NaN', NaN);
    if (c === 73) return this.literal('Infinity', Infinity);
    if (c === 45 && this.pos + 1 < this.end && this.buf[this.pos + 1] === 73) {
      this.pos++;
      return this.literal('Infinity', -Infinity);
    }
    if (c === 45 && this.pos + 1 >= this.end && !this.eof) throw NEED_MORE;
    parseNumber(this.buf, this.pos, this.end, this.eof, this.num);
    if (this.num.end === NEED_MORE_INPUT) throw NEED_MORE;
    if (this.num.end === NOT_A_NUMBER) throw this.syntax('a number');
    this.pos = this.num.end;
    return this.num.value;
  }

  literal<T>(word: string, value: T): T {
    const b = this.buf;
    for (let i = 0; i < word.length; i++) {
      const p = this.pos + i;
      if (p >= this.end) {
        if (this.eof) throw this.syntax(`"${word}"`);
        throw NEED_MORE;
      }
      if (b[p] !== word.charCodeAt(i)) throw this.syntax(`a JSON value`);
    }
    this.pos += word.length;
    return value;
  }

  /** Any JSON value, built (Python's json: NaN, Infinity accepted). */
  readValue(depth = 0): unknown {
    if (depth > 512) throw this.syntax('at most 512 nested lists and objects');
    const c = this.peek();
    if (c === 34) return this.readString();
    if (c === 123) {
      this.pos++;
      const out: Record<string, unknown> = {};
      if (this.peek() === 125) {
        this.pos++;
        return out;
      }
      for (;;) {
        if (this.peek() !== 34) throw this.syntax('a key string');
        const k = this.readString();
        this.expect(58, '":"');
        const v = this.readValue(depth + 1);
        // "__proto__" is an own key in JSON.parse's result; a plain assignment would set the prototype instead
        if (k === '__proto__') Object.defineProperty(out, k, { value: v, writable: true, enumerable: true, configurable: true });
        else out[k] = v;
        const d = this.peek();
        this.pos++;
        if (d === 44) continue;
        if (d === 125) return out;
        this.pos--;
        throw this.syntax('"," or "}"');
      }
    }
    if (c === 91) {
      this.pos++;
      const out: unknown[] = [];
      if (this.peek() === 93) {
        this.pos++;
        return out;
      }
      for (;;) {
        out.push(this.readValue(depth + 1));
        const d = this.peek();
        this.pos++;
        if (d === 44) continue;
        if (d === 93) return out;
        this.pos--;
        throw this.syntax('"," or "]"');
      }
    }
    if (c === 116) return this.literal('true', true);
    if (c === 102) return this.literal('false', false);
    if (c === 110) return this.literal('null', null);
    if (c === -1) throw this.syntax('a JSON value');
    return this.readNumber();
  }

  /** Skips any JSON value without building it. */
  skipValue(depth = 0): void {
    if (depth > 512) throw this.syntax('at most 512 nested lists and objects');
    const c = this.peek();
    if (c === 34) return this.skipString();
    if (c === 123 || c === 91) {
      const close = c === 123 ? 125 : 93;
      this.pos++;
      if (this.peek() === close) {
        this.pos++;
        return;
      }
      for (;;) {
        if (c === 123) {
          if (this.peek() !== 34) throw this.syntax('a key string');
          this.skipString();
          this.expect(58, '":"');
        }
        this.skipValue(depth + 1);
        const d = this.peek();
        this.pos++;
        if (d === 44) continue;
        if (d === close) return;
        this.pos--;
        throw this.syntax(c === 123 ? '"," or "}"' : '"," or "]"');
      }
    }
    this.readValue(depth);
  }

  /** A scalar number for a number field: numbers, NaN/±Infinity, true/false (Python ints). */
  readFieldNumber(f: FieldBuilder): number {
    const c = this.peek();
    if (c === 116) return this.literal('true', 1);
    if (c === 102) return this.literal('false', 0);
    if (c === 45 || (c >= 48 && c <= 57) || c === 78 || c === 73) {
      const at = this.pos;
      const v = this.readNumber();
      if (f.kind === 'id' && c !== 78 && c !== 73 && this.num.integer && Math.abs(v) > Number.MAX_SAFE_INTEGER) {
        const text = new TextDecoder().decode(this.buf.subarray(at, this.pos));
        throw new JsonColumnsError('inexact-integer', `byte ${this.base + at} (${this.path}.${f.name}): expected an integer id within ±(2^53 − 1), found ${text}`, this.base + at, 'an integer within ±(2^53 − 1) (held exactly as a double)', text, `${this.path}.${f.name}`);
      }
      return v;
    }
    const at = this.pos;
    const v = this.readValue();
    throw this.typeError(f, 'a number', v, at);
  }

  typeError(f: FieldBuilder, expected: string, v: unknown, at: number): JsonColumnsError {
    let found: string;
    try {
      found = JSON.stringify(v) ?? String(v);
    } catch {
      found = String(v);
    }
    if (found.length > 80) found = `${found.slice(0, 77)}…`;
    return new JsonColumnsError('type', `byte ${this.base + at} (${this.path}.${f.name}): expected ${expected}, found ${found}`, this.base + at, expected, found, `${this.path}.${f.name}`);
  }

  /** A list of numbers for a numbers field. */
  readFieldNumbers(f: FieldBuilder, rb: RecordBuilder): void {
    const at = this.pos;
    if (this.peek() !== 91) throw this.typeError(f, 'a list of numbers', this.readValue(), at);
    this.pos++;
    rb.beginList(f);
    const out = f.values!;
    if (this.peek() === 93) {
      this.pos++;
      return;
    }
    const num = this.num;
    for (;;) {
      const c = this.peek();
      if ((c >= 48 && c <= 57) || c === 45) {
        // a plain number (most of them): parsed here; anything else (-Infinity, more input needed, an
        // error) goes the general way below from the same place
        parseNumber(this.buf, this.pos, this.end, this.eof, num);
        if (num.end >= 0) {
          this.pos = num.end;
          if (out.length === out.data.length) out.grow(out.length + 1);
          out.data[out.length++] = num.value;
        } else out.push(this.readFieldNumber(f));
      } else if (c === 91 || c === 123 || c === 34 || c === 110) {
        this.pos = at;
        throw this.typeError(f, 'a list of numbers', this.readValue(), at);
      } else out.push(this.readFieldNumber(f));
      const d = this.peek();
      this.pos++;
      if (d === 44) continue;
      if (d === 93) return;
      this.pos--;
      throw this.syntax('"," or "]"');
    }
  }

  /**
   * An rle field: `{"size": [h, w], "counts": "<ASCII>"}` straight into the byte form; anything else
   * (or anything unexpected on the way: other keys, escapes, literals) is read again from the start as a
   * built value, so that every error is the one the built value's reading gives.
   */
  readFieldRle(f: FieldBuilder, rb: RecordBuilder): void {
    const at = this.pos;
    if (!this.readRleBytes(f, rb)) {
      this.pos = at;
      rb.setRleValue(f, this.readValue(1));
    }
  }

  /** The byte form of an rle field at pos, into the builder; false (pos anywhere) when the value is not in that form. */
  readRleBytes(f: FieldBuilder, rb: RecordBuilder): boolean {
    if (this.peek() !== 123) return false;
    this.pos++;
    const h = this.keyAndNumber(SIZE_KEY, 91);
    if (h === undefined) return false;
    const w = this.keyAndNumber(undefined, 44);
    if (w === undefined || this.peek() !== 93) return false;
    this.pos++;
    if (this.peek() !== 44) return false;
    this.pos++;
    if (!this.key(COUNTS_KEY) || this.peek() !== 34) return false;
    // the string's bytes are copied while they are checked (one pass): into the field's byte array after
    // the record's start, kept only when the whole value is in the byte form
    const from = this.pos + 1;
    const out = rb.rleBytes(f, this.end - from);
    const q = copyPlainString(this.buf, from, this.end, out.data, out.length);
    if (q === STRING_NOT_PLAIN) return false;
    if (q === STRING_CUT) {
      if (this.eof) return false;
      throw NEED_MORE;
    }
    const at = copiedEnd;
    this.pos = q + 1;
    if (this.peek() !== 125) return false;
    this.pos++;
    rb.setRle(f, h, w, at);
    return true;
  }

  /** `"key":` (the key's bytes and quotes given) at pos, consumed; false (pos anywhere) when not there. */
  key(quoted: Uint8Array): boolean {
    if (this.peek() !== 34) return false;
    const b = this.buf;
    const p = this.pos;
    if (p + quoted.length > this.end) {
      if (this.eof) return false;
      throw NEED_MORE;
    }
    for (let i = 0; i < quoted.length; i++) if (b[p + i] !== quoted[i]) return false;
    this.pos = p + quoted.length;
    if (this.peek() !== 58) return false;
    this.pos++;
    return true;
  }

  /**
   * For the rle byte form: the given key (if any), then the byte `lead` ('[' or ','), then a plain JSON
   * number (no literal); undefined (pos anywhere) when the bytes are anything else.
   */
  keyAndNumber(quoted: Uint8Array | undefined, lead: number): number | undefined {
    if (quoted && !this.key(quoted)) return undefined;
    if (this.peek() !== lead) return undefined;
    this.pos++;
    const c = this.peek();
    if (c !== 45 && !(c >= 48 && c <= 57)) return undefined;
    parseNumber(this.buf, this.pos, this.end, this.eof, this.num);
    if (this.num.end === NEED_MORE_INPUT) throw NEED_MORE;
    if (this.num.end === NOT_A_NUMBER) return undefined;
    this.pos = this.num.end;
    return this.num.value;
  }

  /** Which declared field the key at pos names (the key is consumed); -1 for none. */
  matchKey(fields: FieldBuilder[]): number {
    const b = this.buf;
    const s = this.pos + 1;
    let p = s;
    for (;;) {
      if (p >= this.end) {
        if (this.eof) throw this.syntax('the end of a key');
        throw NEED_MORE;
      }
      const c = b[p];
      if (c === 34) break;
      if (c === 92) {
        // an escaped key: decode it and compare as text
        const k = this.readString();
        return fields.findIndex((f) => f.name === k);
      }
      p++;
    }
    this.pos = p + 1;
    const n = p - s;
    for (let i = 0; i < fields.length; i++) {
      const key = fields[i].key;
      if (key.length !== n) continue;
      let j = 0;
      while (j < n && key[j] === b[s + j]) j++;
      if (j === n) return i;
    }
    return -1;
  }

  /** One record (an object) into the builder's pending values, then committed. */
  readRecord(rb: RecordBuilder): void {
    rb.reset();
    if (this.peek() !== 123) {
      const at = this.pos;
      const v = this.readValue();
      let found = JSON.stringify(v) ?? String(v);
      if (found.length > 80) found = `${found.slice(0, 77)}…`;
      throw new JsonColumnsError('type', `byte ${this.base + at} (${this.path}): expected an object, found ${found}`, this.base + at, 'an object', found, this.path);
    }
    this.pos++;
    const fields = rb.fields;
    if (this.peek() === 125) {
      this.pos++;
      rb.commit();
      return;
    }
    for (;;) {
      if (this.peek() !== 34) throw this.syntax('a key string');
      const i = this.matchKey(fields);
      this.expect(58, '":"');
      if (i < 0) this.skipValue(1);
      else {
        const f = fields[i];
        if (f.kind === 'number' || f.kind === 'id') {
          const c = this.peek();
          const num = this.num;
          if ((c >= 48 && c <= 57) || c === 45) {
            // a plain number: parsed here unless it needs the general way (more input, -Infinity, an
            // error, an id beyond 2^53 − 1), which starts again from the same place
            parseNumber(this.buf, this.pos, this.end, this.eof, num);
            if (num.end >= 0 && !(f.kind === 'id' && num.integer && Math.abs(num.value) > Number.MAX_SAFE_INTEGER)) {
              this.pos = num.end;
              f.num = num.value;
            } else f.num = this.readFieldNumber(f);
          } else f.num = this.readFieldNumber(f);
        } else if (f.kind === 'numbers') this.readFieldNumbers(f, rb);
        else if (f.kind === 'string') {
          const at = this.pos;
          if (this.peek() !== 34) throw this.typeError(f, 'a string', this.readValue(), at);
          f.pendingValue = this.readString();
        } else if (f.kind === 'rle') this.readFieldRle(f, rb);
        else f.pendingValue = this.readValue(1);
        f.set = true;
      }
      const d = this.peek();
      this.pos++;
      if (d === 44) continue;
      if (d === 125) break;
      this.pos--;
      throw this.syntax('"," or "}"');
    }
    rb.commit();
  }

  /** A list of records at pos (a '['), element by element (each a restartable step). */
  readList(rb: RecordBuilder | undefined, name: string): void {
    this.step(() => this.expect(91, `a list ([) of records${name ? ` for "${name}"` : ''}`));
    let index = 0;
    let first = true;
    const size = this.source.size;
    if (rb && size !== undefined) {
      // the records so far and the bytes they took give the likely count: the columns are sized once
      const listStart = this.base + this.pos;
      const left = size - listStart;
      rb.byteBudget = left;
      rb.estimate = (count) => {
        const consumed = this.base + this.pos - listStart;
        if (count < 64 || consumed <= 0) return 0;
        return Math.min(Math.ceil(((count * left) / consumed) * 1.02) + 64, Math.ceil(left / 2));
      };
    }
    const one = (): boolean => {
      const c = this.peek();
      if (c === 93) {
        this.pos++;
        return true;
      }
      if (!first) {
        if (c !== 44) throw this.syntax('"," or "]"');
        this.pos++;
      }
      this.listName = name;
      this.index = index;
      if (rb) this.readRecord(rb);
      else this.skipValue(1);
      return false;
    };
    for (;;) {
      const done = this.step(one);
      if (done) break;
      first = false;
      index++;
    }
    this.listName = undefined;
    if (rb) {
      rb.estimate = undefined;
      rb.byteBudget = 0;
    }
  }
}

/**
 * Reads a JSON file (or any byte source) into typed-array columns, in bounded memory: the window holds
 * one chunk plus the record being read. Undeclared keys are skipped without being built.
 */
export function readJsonColumns(source: ByteSource | string, layout: Layout, options: ReadOptions = {}): ReadResult {
  const src = typeof source === 'string' ? fileSource(source) : source;
  const p = new Parser(src, Math.max(16, options.chunkSize ?? 1 << 20));
  try {
    p.refill(0);
    if (p.end >= 3 && p.buf[0] === 0xef && p.buf[1] === 0xbb && p.buf[2] === 0xbf) p.pos = 3;
    const result: ReadResult = { lists: {}, rootKeys: [], missing: [] };
    if (layout.root === 'array') {
      const rb = new RecordBuilder(layout.record, options.rleSinks?.['']);
      if (p.step(() => p.peek()) !== 91) throw p.syntax('a JSON list of records ([)');
      p.readList(rb, '');
      result.lists[''] = rb.done();
    } else {
      const builders = new Map(Object.entries(layout.lists).map(([k, spec]) => [k, new RecordBuilder(spec, options.rleSinks?.[k])]));
      if (p.step(() => p.peek()) !== 123) throw p.syntax('a JSON object ({)');
      p.pos++;
      let first = true;
      for (;;) {
        const key = p.step(() => {
          const c = p.peek();
          if (c === 125) {
            p.pos++;
            return undefined;
          }
          if (!first) {
            if (c !== 44) throw p.syntax('"," or "}"');
            p.pos++;
          }
          if (p.peek() !== 34) throw p.syntax('a key string');
          const k = p.readString();
          p.expect(58, '":"');
          return k;
        });
        if (key === undefined) break;
        first = false;
        if (result.rootKeys.includes(key)) throw p.syntax(`each key of the root object once ("${key}" is repeated)`);
        result.rootKeys.push(key);
        const rb = builders.get(key);
        const isList = p.step(() => p.peek()) === 91;
        if (rb) {
          if (!isList) {
            const at = p.pos;
            const v = p.step(() => p.readValue());
            let found = JSON.stringify(v) ?? String(v);
            if (found.length > 80) found = `${found.slice(0, 77)}…`;
            throw new JsonColumnsError('type', `byte ${p.base + at} (${key}): expected a list, found ${found}`, p.base + at, 'a list', found, key);
          }
          p.readList(rb, key);
        } else if (isList) p.readList(undefined, key);
        else p.step(() => p.skipValue());
      }
      for (const [k, rb] of builders) {
        result.lists[k] = rb.done();
        if (!result.rootKeys.includes(k)) result.missing.push(k);
      }
    }
    if (p.step(() => p.peek()) !== -1) throw p.syntax('the end of the input');
    return result;
  } finally {
    src.close();
  }
}
