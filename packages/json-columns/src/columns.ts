/** What a declared field of a record becomes. */
export type FieldKind =
  /** One number (a JSON number, NaN, ±Infinity; true/false as 1/0 as in Python arithmetic): a Float64Array column. */
  | 'number'
  /** A number that names something: as 'number', but an integer beyond ±(2^53 − 1) is an error (it might not be exact). */
  | 'id'
  /** A flat list of numbers (a box, keypoints): one Float64Array of all values, with each record's start and length. */
  | 'numbers'
  /** A string: a string[] column. */
  | 'string'
  /** Any JSON value, built as a JavaScript value (nested lists, objects): an unknown[] column. */
  | 'value'
  /**
   * A run-length mask: an object `{"size": [h, w], "counts": "<string>"}` (those two keys, in that order,
   * h and w plain numbers, the string ASCII with no escape but `\\`) is kept as its h, w and the bytes of the
   * string, in one byte array for all records, without a JavaScript object or string per record; any
   * other value (a list of counts, polygons, other keys, escapes) is built as for 'value'.
   */
  | 'rle';

export type RecordSpec = Record<string, FieldKind>;

/** What an rle field's `RleSink` is told of the record being committed besides its string. */
export interface CommittedRecord {
  /** The record's value of a declared `number` or `id` field (NaN when absent or not declared). */
  number(name: string): number;
  /** Whether the record has the declared field (false for a field not declared). */
  has(name: string): boolean;
}

/**
 * Sees each value of an rle field in the byte form as its record is committed: the record's index, h, w,
 * the string's bytes `bytes[start..end)` (valid during the call only) and the record's other fields.
 * Returns whether the bytes are kept: false leaves the record's `length` at -2 in `rles` (seen here, not
 * kept), and the room is reused by the next record (a caller that needs only some of the strings keeps
 * only those in memory).
 */
export type RleSink = (index: number, h: number, w: number, bytes: Uint8Array, start: number, end: number, record: CommittedRecord) => boolean;

/** The columns of one list of records, one entry per record in file order. */
export interface RecordColumns {
  count: number;
  /** `number` and `id` fields: the value (NaN when absent; `present` tells NaN from absent). */
  numbers: Record<string, Float64Array>;
  /** 1 where the field was present in the record (every field). */
  present: Record<string, Uint8Array>;
  /** `numbers` fields: all values, and per record the start in `values` and the length (-1 when absent). */
  lists: Record<string, { values: Float64Array; start: Float64Array; length: Int32Array }>;
  /** `string` fields (undefined when absent). */
  strings: Record<string, (string | undefined)[]>;
  /** `value` fields (undefined when absent); `rle` fields: the values not in the byte form (undefined there and when absent). */
  values: Record<string, unknown[]>;
  /**
   * `rle` fields in the byte form: per record h, w, and where its counts string is in `bytes` (start, and
   * the length, -1 for a record whose value is not in that form: see `values`; -2 for one whose string an
   * `RleSink` saw and did not keep).
   */
  rles: Record<string, { h: Float64Array; w: Float64Array; bytes: Uint8Array; start: Float64Array; length: Int32Array }>;
}

/** An append-only Float64Array (a list field's values), grown by doubling or to a reserved size. */
export class F64 {
  data: Float64Array;
  length = 0;
  constructor(capacity = 1024) {
    this.data = new Float64Array(capacity);
  }
  push(v: number): void {
    if (this.length === this.data.length) this.grow(this.length + 1);
    this.data[this.length++] = v;
  }
  grow(min: number): void {
    const next = new Float64Array(Math.max(min, this.data.length * 2));
    next.set(this.data.subarray(0, this.length));
    this.data = next;
  }
  done(): Float64Array {
    return fit(this.data, this.length);
  }
}

/**
 * The largest byte array reserved at once for an rle field's strings (beyond it, the array grows by doubling):
 * untouched pages cost no memory, but a system that does not overcommit counts them.
 */
const MAX_RESERVE = 1 << 28;

/** An append-only byte array (an `rle` field's strings), grown by doubling or to a reserved size. */
export class U8 {
  data: Uint8Array;
  length = 0;
  constructor(capacity = 1024) {
    this.data = new Uint8Array(capacity);
  }
  grow(min: number): void {
    const next = new Uint8Array(Math.max(min, this.data.length * 2));
    next.set(this.data.subarray(0, this.length));
    this.data = next;
  }
  /**
   * The bytes written, as a view: the room after them was never written (a fresh allocation's untouched
   * pages cost no memory), so copying them out would only cost a pass over them.
   */
  done(): Uint8Array {
    return this.data.subarray(0, this.length);
  }
}

/** The first `n` entries: a view when the array is nearly full, else a copy (so that little unused room is kept). */
function fit<T extends Float64Array | Int32Array | Uint8Array>(a: T, n: number): T {
  return (n >= a.length - (a.length >> 3) ? a.subarray(0, n) : a.slice(0, n)) as T;
}

function grown<T extends Float64Array | Int32Array | Uint8Array>(a: T, rows: number, used: number): T {
  const next = new (a.constructor as new (n: number) => T)(rows);
  next.set(a.subarray(0, used));
  return next;
}

/** One field's column while reading, and the pending value of the record being read. */
export interface FieldBuilder {
  kind: FieldKind;
  name: string;
  /** Key bytes (for matching without making a string). */
  key: Uint8Array;
  // pending (the record being read; committed when the record closes)
  set: boolean;
  num: number;
  /** rle fields: the pending w (`num` holds h) and whether the value is in the byte form. */
  num2: number;
  compact: boolean;
  pendingValue: unknown;
  /** numbers fields: where the record being read starts in `values`. */
  recordStart: number;
  /** numbers fields: the values of every record so far (written while the record is read). */
  values?: F64;
  /** rle fields: the counts strings' bytes of every record so far (`recordStart` is where this record's start). */
  bytes?: U8;
  /**
   * The columns exist once the field has been present in a record (a field no record has costs nothing
   * per record); the earlier rows are then filled in as absent.
   */
  active: boolean;
  // committed, one row per record (capacity: the builder's `capacity`)
  col?: Float64Array;
  /** rle fields: w (`col` holds h). */
  col2?: Float64Array;
  present?: Uint8Array;
  start?: Float64Array;
  length?: Int32Array;
  strings?: (string | undefined)[];
  objects?: unknown[];
  /** rle fields: the reader's sink for this field, if any. */
  sink: RleSink | undefined;
}

export class RecordBuilder {
  readonly fields: FieldBuilder[];
  count = 0;
  /** Rows allocated in the active fields' columns. */
  capacity = 0;
  /**
   * Set by the reader: the number of records the list will probably hold, from the bytes read so far and
   * the bytes left (0 when unknown). The columns grow to it at once instead of doubling step by step.
   */
  estimate: ((count: number) => number) | undefined = undefined;
  /**
   * Set by the reader: the input's bytes from the list's start to its end (0 when unknown), a bound on the
   * bytes of the list's strings. An rle field's byte array is made that large at once (see `rleBytes`).
   */
  byteBudget = 0;
  constructor(spec: RecordSpec, sinks?: Record<string, RleSink>) {
    this.fields = Object.entries(spec).map(([name, kind]) => {
      // every field object has the same properties (one hidden class: the reader's code stays monomorphic)
      const f: FieldBuilder = {
        kind,
        name,
        key: new TextEncoder().encode(name),
        set: false,
        num: NaN,
        num2: NaN,
        compact: false,
        pendingValue: undefined,
        recordStart: 0,
        values: kind === 'numbers' ? new F64() : undefined,
        bytes: kind === 'rle' ? new U8() : undefined,
        active: false,
        col: undefined,
        col2: undefined,
        present: undefined,
        start: undefined,
        length: undefined,
        strings: undefined,
        objects: undefined,
        sink: kind === 'rle' ? sinks?.[name] : undefined,
      };
      return f;
    });
    this.anySink = this.fields.some((f) => f.sink !== undefined);
  }
  private readonly anySink: boolean;
  /** The record being committed, as the sinks see it (row `row`). */
  private row = 0;
  /** The fields by name (the sinks ask for fields by name, per record). */
  private byName: Map<string, FieldBuilder> | undefined = undefined;
  private field(name: string): FieldBuilder | undefined {
    return (this.byName ??= new Map(this.fields.map((f) => [f.name, f]))).get(name);
  }
  private readonly committed: CommittedRecord = {
    number: (name) => {
      const f = this.field(name);
      return f !== undefined && f.active && (f.kind === 'number' || f.kind === 'id') ? f.col![this.row] : NaN;
    },
    has: (name) => {
      const f = this.field(name);
      return f !== undefined && f.active && f.present![this.row] === 1;
    },
  };
  /** The sinks of row i's rle fields in the byte form (after the whole row is committed). */
  private sinkRow(i: number): void {
    this.row = i;
    for (const f of this.fields) {
      if (f.sink === undefined || !f.active) continue;
      const len = f.length![i];
      if (len < 0) continue;
      const start = f.start![i];
      const bytes = f.bytes!;
      if (!f.sink(i, f.col![i], f.col2![i], bytes.data, start, start + len, this.committed)) {
        bytes.length = start;
        f.recordStart = start;
        f.length![i] = -2;
      }
    }
  }
  /** Forgets the pending values (a record restarted after a refill): lists written so far are cut back. */
  reset(): void {
    for (const f of this.fields) {
      f.set = false;
      f.pendingValue = undefined;
      f.compact = false;
      if (f.values) f.values.length = f.recordStart;
      if (f.bytes) f.bytes.length = f.recordStart;
    }
  }
  /** Before a list field's values are written: where this record's values start (a repeated key rewrites them). */
  beginList(f: FieldBuilder): void {
    f.values!.length = f.recordStart;
  }
  /**
   * An rle field's byte array, cut back to the record's start, with room for `n` more bytes: the reader
   * writes a counts string there (from `length` on) and then calls `setRle`, or leaves it (not the byte
   * form).
   */
  rleBytes(f: FieldBuilder, n: number): U8 {
    const bytes = f.bytes!;
    bytes.length = f.recordStart;
    const need = bytes.length + n;
    if (need > bytes.data.length) {
      // the strings of the list cannot take more bytes than the list: one array of that size (its pages
      // cost memory only where written) instead of doubling, each step a new array touched and a copy
      const budget = this.byteBudget;
      bytes.grow(budget >= need && budget <= MAX_RESERVE ? budget : need);
    }
    return bytes;
  }
  /** An rle field's value in the byte form: h, w, and its string written up to `end` (see `rleBytes`); a repeated key rewrites it. */
  setRle(f: FieldBuilder, h: number, w: number, end: number): void {
    f.bytes!.length = end;
    f.num = h;
    f.num2 = w;
    f.compact = true;
    f.pendingValue = undefined;
  }
  /** An rle field's value built (not in the byte form). */
  setRleValue(f: FieldBuilder, v: unknown): void {
    f.bytes!.length = f.recordStart;
    f.compact = false;
    f.pendingValue = v;
  }
  /**
   * Grows every active column to hold at least `min` rows: doubling, or to the reader's estimate when
   * larger, but at most 8× at a time (an estimate thrown off by data after the list costs a few growth
   * steps, never a huge allocation).
   */
  private growRows(min: number): void {
    let rows = Math.max(min, this.capacity * 2, 1024);
    const e = Math.min(this.estimate?.(this.count) ?? 0, this.capacity * 8);
    if (e > rows) rows = e;
    const used = this.count;
    for (const f of this.fields) {
      if (!f.active) continue;
      if (f.col) f.col = grown(f.col, rows, used);
      if (f.col2) f.col2 = grown(f.col2, rows, used);
      if (f.present) f.present = grown(f.present, rows, used);
      if (f.start) f.start = grown(f.start, rows, used);
      if (f.length) f.length = grown(f.length, rows, used);
      // a list's values grow in proportion (the same estimate)
      if (f.values && used > 0) {
        const want = Math.ceil((f.values.length / used) * rows);
        if (want > f.values.data.length) f.values.grow(want);
      }
      if (f.bytes && used > 0) {
        let want = Math.ceil((f.bytes.length / used) * rows);
        if (this.byteBudget > 0 && want > this.byteBudget) want = this.byteBudget;
        if (want > f.bytes.data.length) f.bytes.grow(want);
      }
    }
    this.capacity = rows;
  }
  /** The field's columns, made when it is first present at row `i` (rows before it absent). */
  private activate(f: FieldBuilder, i: number): void {
    const rows = this.capacity;
    f.active = true;
    f.present = new Uint8Array(rows);
    if (f.kind === 'number' || f.kind === 'id') f.col = new Float64Array(rows).fill(NaN, 0, i);
    else if (f.kind === 'numbers') {
      f.start = new Float64Array(rows);
      f.length = new Int32Array(rows).fill(-1, 0, i);
    } else if (f.kind === 'string') f.strings = absentList(i);
    else if (f.kind === 'rle') {
      f.col = new Float64Array(rows).fill(NaN, 0, i);
      f.col2 = new Float64Array(rows).fill(NaN, 0, i);
      f.start = new Float64Array(rows);
      f.length = new Int32Array(rows).fill(-1, 0, i);
      f.objects = absentList(i);
    } else f.objects = absentList(i);
  }
  /** Appends the pending record (plain stores into columns grown together). */
  commit(): void {
    const i = this.count;
    if (i === this.capacity) this.growRows(i + 1);
    const fields = this.fields;
    for (let k = 0; k < fields.length; k++) {
      const f = fields[k];
      const set = f.set;
      if (!set && !f.active) continue;
      if (!f.active) this.activate(f, i);
      const kind = f.kind;
      f.present![i] = set ? 1 : 0;
      if (kind === 'number' || kind === 'id') f.col![i] = set ? f.num : NaN;
      else if (kind === 'numbers') {
        const values = f.values!;
        f.start![i] = f.recordStart;
        f.length![i] = set ? values.length - f.recordStart : -1;
        f.recordStart = values.length;
      } else if (kind === 'string') f.strings!.push(set ? (f.pendingValue as string) : undefined);
      else if (kind === 'rle') {
        const compact = set && f.compact;
        const bytes = f.bytes!;
        f.col![i] = compact ? f.num : NaN;
        f.col2![i] = compact ? f.num2 : NaN;
        f.start![i] = f.recordStart;
        f.length![i] = compact ? bytes.length - f.recordStart : -1;
        f.recordStart = bytes.length;
        f.objects!.push(set && !compact ? f.pendingValue : undefined);
        f.compact = false;
      } else f.objects!.push(set ? f.pendingValue : undefined);
      f.set = false;
      f.pendingValue = undefined;
    }
    this.count = i + 1;
    if (this.anySink) this.sinkRow(i);
  }
  done(): RecordColumns {
    const n = this.count;
    const out: RecordColumns = { count: n, numbers: {}, present: {}, lists: {}, strings: {}, values: {}, rles: {} };
    for (const f of this.fields) {
      const name = f.name;
      if (!f.active) {
        // a field no record had: its columns are made when first looked at (a results file of boxes
        // has no keypoints or masks: tens of MB of NaN and -1 columns nobody reads)
        lazy(out.present, name, () => new Uint8Array(n));
        if (f.kind === 'number' || f.kind === 'id') lazy(out.numbers, name, () => new Float64Array(n).fill(NaN));
        else if (f.kind === 'numbers') lazy(out.lists, name, () => ({ values: new Float64Array(0), start: new Float64Array(n), length: new Int32Array(n).fill(-1) }));
        else if (f.kind === 'string') lazy(out.strings, name, () => absentList(n));
        else {
          lazy(out.values, name, () => absentList(n));
          if (f.kind === 'rle') lazy(out.rles, name, () => ({ h: new Float64Array(n).fill(NaN), w: new Float64Array(n).fill(NaN), bytes: new Uint8Array(0), start: new Float64Array(n), length: new Int32Array(n).fill(-1) }));
        }
        continue;
      }
      out.present[name] = fit(f.present!, n);
      if (f.kind === 'number' || f.kind === 'id') out.numbers[name] = fit(f.col!, n);
      else if (f.kind === 'numbers') out.lists[name] = { values: f.values!.done(), start: fit(f.start!, n), length: fit(f.length!, n) };
      else if (f.kind === 'string') out.strings[name] = f.strings!;
      else if (f.kind === 'rle') {
        out.values[name] = f.objects!;
        out.rles[name] = { h: fit(f.col!, n), w: fit(f.col2!, n), bytes: f.bytes!.done(), start: fit(f.start!, n), length: fit(f.length!, n) };
      } else out.values[name] = f.objects!;
    }
    return out;
  }
}

/** `o[key]`, made by `make` when first read (then a plain property: later reads and writes as usual). */
function lazy<T>(o: Record<string, T>, key: string, make: () => T): void {
  Object.defineProperty(o, key, {
    configurable: true,
    enumerable: true,
    get(): T {
      const v = make();
      Object.defineProperty(o, key, { value: v, writable: true, configurable: true, enumerable: true });
      return v;
    },
    set(v: T) {
      Object.defineProperty(o, key, { value: v, writable: true, configurable: true, enumerable: true });
    },
  });
}

/** n undefined entries, dense (no holes: `map` and `forEach` visit every one, as for a list built record by record). */
function absentList<T>(n: number): (T | undefined)[] {
  return new Array<T | undefined>(n).fill(undefined);
}
