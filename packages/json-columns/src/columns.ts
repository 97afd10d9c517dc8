/** What a declared field of a record becomes. */
export type FieldKind =
  /** One number (a JSON number, NaN, ±Infinity; true/false as 1/0 as in Python arithmetic): a Float64Array column. */
  | 'number'
  /** A number that names something: as 'number', but an integer beyond ±2^53 is an error (it would not be exact). */
  | 'id'
  /** A flat list of numbers (a box, keypoints): one Float64Array of all values, with each record's start and length. */
  | 'numbers'
  /** A string: a string[] column. */
  | 'string'
  /** Any JSON value, built as a JavaScript value (nested lists, objects): an unknown[] column. */
  | 'value';

export type RecordSpec = Record<string, FieldKind>;

/** The columns of one list of records, one entry per record in file order. */
export interface RecordColumns {
  count: number;
  /** `number` and `id` fields: the value (NaN when absent; `present` tells NaN from absent). */
  numbers: Record<string, Float64Array>;
  /** 1 where the field was present in the record (number, id and numbers fields). */
  present: Record<string, Uint8Array>;
  /** `numbers` fields: all values, and per record the start in `values` and the length (-1 when absent). */
  lists: Record<string, { values: Float64Array; start: Float64Array; length: Int32Array }>;
  strings: Record<string, (string | undefined)[]>;
  values: Record<string, unknown[]>;
}

export class F64 {
  data: Float64Array;
  length = 0;
  constructor(capacity = 1024) {
    this.data = new Float64Array(capacity);
  }
  push(v: number): void {
    if (this.length === this.data.length) this.grow();
    this.data[this.length++] = v;
  }
  grow(): void {
    const next = new Float64Array(this.data.length * 2);
    next.set(this.data);
    this.data = next;
  }
  done(): Float64Array {
    return this.data.subarray(0, this.length);
  }
}

class I32 {
  data: Int32Array;
  length = 0;
  constructor(capacity = 1024) {
    this.data = new Int32Array(capacity);
  }
  push(v: number): void {
    if (this.length === this.data.length) this.grow();
    this.data[this.length++] = v;
  }
  grow(): void {
    const next = new Int32Array(this.data.length * 2);
    next.set(this.data);
    this.data = next;
  }
  done(): Int32Array {
    return this.data.slice(0, this.length);
  }
}

class U8 {
  data: Uint8Array;
  length = 0;
  constructor(capacity = 1024) {
    this.data = new Uint8Array(capacity);
  }
  push(v: number): void {
    if (this.length === this.data.length) this.grow();
    this.data[this.length++] = v;
  }
  grow(): void {
    const next = new Uint8Array(this.data.length * 2);
    next.set(this.data);
    this.data = next;
  }
  done(): Uint8Array {
    return this.data.slice(0, this.length);
  }
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
  pendingValue: unknown;
  /** numbers fields: where the record being read starts in `values`. */
  recordStart: number;
  // committed
  col?: F64;
  present?: U8;
  values?: F64;
  start?: F64;
  length?: I32;
  strings?: (string | undefined)[];
  objects?: unknown[];
}

export class RecordBuilder {
  readonly fields: FieldBuilder[];
  count = 0;
  constructor(spec: RecordSpec) {
    this.fields = Object.entries(spec).map(([name, kind]) => {
      const f: FieldBuilder = { kind, name, key: new TextEncoder().encode(name), set: false, num: NaN, pendingValue: undefined, recordStart: 0 };
      if (kind === 'number' || kind === 'id') {
        f.col = new F64();
        f.present = new U8();
      } else if (kind === 'numbers') {
        f.values = new F64();
        f.start = new F64();
        f.length = new I32();
        f.present = new U8();
      } else if (kind === 'string') f.strings = [];
      else f.objects = [];
      return f;
    });
  }
  /** Forgets the pending values (a record restarted after a refill): lists written so far are cut back. */
  reset(): void {
    for (const f of this.fields) {
      f.set = false;
      f.pendingValue = undefined;
      if (f.values) f.values.length = f.recordStart;
    }
  }
  /** Before a list field's values are written: where this record's values start (a repeated key rewrites them). */
  beginList(f: FieldBuilder): void {
    f.values!.length = f.recordStart;
  }
  /** Appends the pending record (the columns grown together, then plain stores). */
  commit(): void {
    const i = this.count;
    for (const f of this.fields) {
      const kind = f.kind;
      if (kind === 'number' || kind === 'id') {
        const col = f.col!;
        const pr = f.present!;
        if (i === col.data.length) {
          col.grow();
          pr.grow();
        }
        col.data[i] = f.set ? f.num : NaN;
        pr.data[i] = f.set ? 1 : 0;
        col.length = pr.length = i + 1;
      } else if (kind === 'numbers') {
        const st = f.start!;
        const ln = f.length!;
        const pr = f.present!;
        if (i === st.data.length) {
          st.grow();
          ln.grow();
          pr.grow();
        }
        st.data[i] = f.recordStart;
        pr.data[i] = f.set ? 1 : 0;
        ln.data[i] = f.set ? f.values!.length - f.recordStart : -1;
        st.length = ln.length = pr.length = i + 1;
        f.recordStart = f.values!.length;
      } else if (kind === 'string') f.strings!.push(f.set ? (f.pendingValue as string) : undefined);
      else f.objects!.push(f.set ? f.pendingValue : undefined);
      f.set = false;
      f.pendingValue = undefined;
    }
    this.count = i + 1;
  }
  done(): RecordColumns {
    const out: RecordColumns = { count: this.count, numbers: {}, present: {}, lists: {}, strings: {}, values: {} };
    for (const f of this.fields) {
      if (f.kind === 'number' || f.kind === 'id') {
        out.numbers[f.name] = f.col!.done();
        out.present[f.name] = f.present!.done();
      } else if (f.kind === 'numbers') {
        out.lists[f.name] = { values: f.values!.done(), start: f.start!.done(), length: f.length!.done() };
        out.present[f.name] = f.present!.done();
      } else if (f.kind === 'string') out.strings[f.name] = f.strings!;
      else out.values[f.name] = f.objects!;
    }
    return out;
  }
}
