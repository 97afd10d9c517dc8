/**
 * Two-field line files read as bytes (`<key> <label>` lists and `<key> <number>` results of the VOC
 * cls task): one pass over the file's bytes, keys kept as spans (`ByteKeyIndex`), numbers parsed in place,
 * no string or object per line. The lines, fields and line numbers are `forEachLine`'s on the decoded
 * text (white space is ASCII, so a field's bytes are its text's bytes); the numbers are `parseStrtod`'s and
 * `parseIntegerToken`'s. For valid UTF-8 only: check with `isUtf8` and read other files as text.
 * Hot kernels (twenty files of each kind at the start of a run, while the JIT is cold): one loop each,
 * no callback.
 */
import { ByteKeyIndex } from './byte-keys.js';
import type { BadKeyNumberLine } from './lines.js';
import { parseIntegerBytes, parseNumberBytes } from './numbers.js';

/** Lines in `bytes` at most (newlines + 1). */
function lineCapacity(bytes: Buffer): number {
  let cap = 1;
  for (let j = bytes.indexOf(10); j >= 0; j = bytes.indexOf(10, j + 1)) cap++;
  return cap;
}

/** The records of a `<key> <integer>` file (see `readKeyLabelBytes`). */
export interface KeyLabelBytes {
  /** Good lines (two fields, an integer). */
  count: number;
  /** The records' keys: record `r` is position `r`. `same` itself when it was given and matches. */
  keys: ByteKeyIndex;
  label: Int32Array;
  line: Uint32Array;
  /** The other lines, in line order; `number` is the second field's text when it is not an integer. */
  bad: BadKeyNumberLine[];
  /** Records whose key an earlier record has (`first`), in record order. */
  duplicates: Array<{ record: number; first: number }>;
}

/**
 * Lines of two fields `<key> <integer label>` (`ImageSets/Main/<class>_<set>.txt`). `same`: the keys of a
 * list read before (the class lists of a set hold the same ids in the same order); when this file has
 * exactly its keys in its order and `same` has no repeated key, `same` is the result's `keys` and nothing
 * is indexed again (one byte comparison per line instead of a hash insert).
 */
export function readKeyLabelBytes(bytes: Buffer, same?: ByteKeyIndex): KeyLabelBytes {
  const cap = lineCapacity(bytes);
  const starts = new Int32Array(cap);
  const ends = new Int32Array(cap);
  const label = new Int32Array(cap);
  const lineOf = new Uint32Array(cap);
  const bad: BadKeyNumberLine[] = [];
  let shared = same !== undefined && same.size === same.count;
  const n = bytes.length;
  let count = 0;
  let line = 1;
  let i = 0;
  while (i < n) {
    let c = bytes[i];
    while (i < n && (c === 32 || c === 9 || c === 13 || c === 11 || c === 12)) c = bytes[++i];
    if (i >= n) break;
    if (c === 10) {
      i++;
      line++;
      continue;
    }
    let fields = 0;
    let a0 = 0;
    let a1 = 0;
    let b0 = 0;
    let b1 = 0;
    while (i < n && c !== 10) {
      const start = i;
      while (i < n && c !== 32 && c !== 9 && c !== 10 && c !== 13 && c !== 11 && c !== 12) c = bytes[++i];
      if (fields === 0) {
        a0 = start;
        a1 = i;
      } else if (fields === 1) {
        b0 = start;
        b1 = i;
      }
      fields++;
      while (i < n && (c === 32 || c === 9 || c === 13 || c === 11 || c === 12)) c = bytes[++i];
    }
    if (fields !== 2) {
      bad.push({ line, fields });
      continue;
    }
    const v = parseIntegerBytes(bytes, b0, b1);
    if (v === undefined) {
      bad.push({ line, fields, number: bytes.toString('utf8', b0, b1) });
      continue;
    }
    if (shared && (count >= same!.count || !same!.equals(count, bytes, a0, a1))) shared = false;
    starts[count] = a0;
    ends[count] = a1;
    label[count] = v;
    lineOf[count] = line;
    count++;
  }
  const duplicates: Array<{ record: number; first: number }> = [];
  let keys: ByteKeyIndex;
  if (shared && count === same!.count) keys = same!;
  else {
    keys = new ByteKeyIndex(bytes, starts, ends, count);
    for (let r = 0; r < count; r++) {
      const first = keys.add(r);
      if (first >= 0) duplicates.push({ record: r, first });
    }
  }
  return { count, keys, label: label.subarray(0, count), line: lineOf.subarray(0, count), bad, duplicates };
}

/** What `readKeyNumberBytes` read besides the values. */
export interface KeyNumberBytes {
  /** Good lines (two fields, a number), known key or not. */
  count: number;
  /** The good lines whose key is not in the index, in line order. */
  unknown: Array<{ line: number; key: string }>;
  /** The other lines, in line order. */
  bad: BadKeyNumberLine[];
}

/**
 * Lines of two fields `<key> <number>` (VOC cls results) looked up in `index`: each good line with a known
 * key stores its number at its key's position in `out` (a later line of a key overwrites an earlier one).
 */
export function readKeyNumberBytes(bytes: Buffer, index: ByteKeyIndex, out: Float64Array): KeyNumberBytes {
  const unknown: Array<{ line: number; key: string }> = [];
  const bad: BadKeyNumberLine[] = [];
  const n = bytes.length;
  let count = 0;
  let line = 1;
  let i = 0;
  while (i < n) {
    let c = bytes[i];
    while (i < n && (c === 32 || c === 9 || c === 13 || c === 11 || c === 12)) c = bytes[++i];
    if (i >= n) break;
    if (c === 10) {
      i++;
      line++;
      continue;
    }
    let fields = 0;
    let a0 = 0;
    let a1 = 0;
    let b0 = 0;
    let b1 = 0;
    while (i < n && c !== 10) {
      const start = i;
      while (i < n && c !== 32 && c !== 9 && c !== 10 && c !== 13 && c !== 11 && c !== 12) c = bytes[++i];
      if (fields === 0) {
        a0 = start;
        a1 = i;
      } else if (fields === 1) {
        b0 = start;
        b1 = i;
      }
      fields++;
      while (i < n && (c === 32 || c === 9 || c === 13 || c === 11 || c === 12)) c = bytes[++i];
    }
    if (fields !== 2) {
      bad.push({ line, fields });
      continue;
    }
    const v = parseNumberBytes(bytes, b0, b1);
    if (v === undefined) {
      bad.push({ line, fields, number: bytes.toString('utf8', b0, b1) });
      continue;
    }
    const at = index.find(bytes, a0, a1);
    if (at < 0) unknown.push({ line, key: bytes.toString('utf8', a0, a1) });
    else out[at] = v;
    count++;
  }
  return { count, unknown, bad };
}
