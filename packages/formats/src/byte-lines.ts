/**
 * Two-field line files read as bytes (`<key> <label>` lists and `<key> <number>` results of the VOC
 * cls task): one pass over the file's bytes, keys kept as spans (`ByteKeyIndex`), numbers parsed in place,
 * no string or object per line. The lines, fields and line numbers are `forEachLine`'s on the decoded
 * text (white space is ASCII, so a field's bytes are its text's bytes); the numbers are `parseStrtod`'s and
 * `parseIntegerToken`'s. For valid UTF-8 only: check with `isUtf8` and read other files as text.
 * Hot kernels (twenty files of each kind at the start of a run, while the JIT is cold, so the bytecodes
 * per byte count): one loop each, no callback; a field byte costs one comparison (`c > 32`, the rarer
 * bytes below 33 sorted out after it); reading past the end gives `undefined`, which ends every loop.
 */
import { ByteKeyIndex, finishHash, FNV_PRIME, FNV_START } from './byte-keys.js';
import type { BadKeyNumberLine } from './lines.js';
import { parseIntegerBytes, parseNumberBytes } from './numbers.js';

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
 * is indexed again (one byte comparison per line instead of a hash insert). `copy`: `bytes` is a scratch
 * buffer that will be overwritten, so keys of their own are kept in a copy of it.
 */
export function readKeyLabelBytes(bytes: Buffer, same?: ByteKeyIndex, copy = false): KeyLabelBytes {
  // a record takes at least 4 bytes ("k 1" and a newline), the last one 3
  const s = scratchFor(((bytes.length + 1) >> 2) + 1);
  const bad: BadKeyNumberLine[] = [];
  const count = scanKeyLabels(bytes, s.starts, s.ends, s.label, s.line, bad);
  const label = s.label.slice(0, count);
  const line = s.line.slice(0, count);
  const duplicates: Array<{ record: number; first: number }> = [];
  let keys: ByteKeyIndex;
  if (same !== undefined && same.size === same.count && sameSpans(same, bytes, s.starts, s.ends, count)) keys = same;
  else {
    keys = new ByteKeyIndex(copy ? Buffer.from(bytes) : bytes, s.starts.slice(0, count), s.ends.slice(0, count), count);
    for (let r = 0; r < count; r++) {
      const first = keys.add(r);
      if (first >= 0) duplicates.push({ record: r, first });
    }
  }
  return { count, keys, label, line, bad, duplicates };
}

/** The columns `readKeyLabelBytes` scans into, kept from call to call (twenty lists, one set of columns). */
interface LabelScratch {
  starts: Int32Array;
  ends: Int32Array;
  label: Int32Array;
  line: Uint32Array;
}
let scratch: LabelScratch | undefined;

function scratchFor(cap: number): LabelScratch {
  if (!scratch || scratch.starts.length < cap) scratch = { starts: new Int32Array(cap), ends: new Int32Array(cap), label: new Int32Array(cap), line: new Uint32Array(cap) };
  return scratch;
}

/**
 * The loop of `readKeyLabelBytes`, alone in its function: its optimised code is compiled while the first
 * file is read and must not meet code that only later files run.
 */
function scanKeyLabels(bytes: Buffer, starts: Int32Array, ends: Int32Array, label: Int32Array, lineOf: Uint32Array, bad: BadKeyNumberLine[]): number {
  const n = bytes.length;
  let count = 0;
  let line = 1;
  let fields = 0;
  let a0 = 0;
  let a1 = 0;
  let b0 = 0;
  let b1 = 0;
  let i = 0;
  for (;;) {
    let c = 10;
    while (i < n) {
      c = bytes[i];
      if (c === 32 || c === 9 || c === 13 || c === 11 || c === 12) i++;
      else break;
    }
    if (i < n && c !== 10) {
      // a field: bytes above 32, and the control bytes that are not white space
      const start = i;
      i++;
      while (i < n) {
        c = bytes[i];
        if (c > 32 || (c < 32 && (c < 9 || c > 13))) i++;
        else break;
      }
      if (fields === 0) {
        a0 = start;
        a1 = i;
      } else if (fields === 1) {
        b0 = start;
        b1 = i;
      }
      fields++;
      continue;
    }
    // end of a line (or of the file)
    // (every comparison here runs on every line: the compiled loop has seen them all)
    if (fields !== 0) {
      if (fields !== 2) bad.push({ line, fields });
      else {
        const v = parseIntegerBytes(bytes, b0, b1);
        if (v === undefined) bad.push({ line, fields, number: bytes.toString('utf8', b0, b1) });
        else {
          starts[count] = a0;
          ends[count] = a1;
          label[count] = v;
          lineOf[count] = line;
          count++;
        }
      }
    }
    if (i >= n) break;
    fields = 0;
    line++;
    i++;
  }
  return count;
}

/**
 * Whether `bytes`' spans `[starts[r], ends[r])`, r < count, are `same`'s keys, in order. Apart from the
 * scan, so that the scan's compiled code does not depend on whether a list to share was given.
 */
function sameSpans(same: ByteKeyIndex, bytes: Buffer, starts: Int32Array, ends: Int32Array, count: number): boolean {
  if (count !== same.count) return false;
  const sb = same.bytes;
  const ss = same.starts;
  const se = same.ends;
  for (let r = 0; r < count; r++) {
    const a = starts[r];
    const len = ends[r] - a;
    const s0 = ss[r];
    if (se[r] - s0 !== len) return false;
    for (let k = 0; k < len; k++) if (sb[s0 + k] !== bytes[a + k]) return false;
  }
  return true;
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
  const count = scanKeyNumbers(bytes, index, out, unknown, bad);
  return { count, unknown, bad };
}

/** The loop of `readKeyNumberBytes`, alone in its function (see `scanKeyLabels`). */
function scanKeyNumbers(bytes: Buffer, index: ByteKeyIndex, out: Float64Array, unknown: Array<{ line: number; key: string }>, bad: BadKeyNumberLine[]): number {
  const n = bytes.length;
  let count = 0;
  let line = 1;
  let fields = 0;
  let hash = 0;
  let a0 = 0;
  let a1 = 0;
  let b0 = 0;
  let b1 = 0;
  let i = 0;
  for (;;) {
    let c = 10;
    while (i < n) {
      c = bytes[i];
      if (c === 32 || c === 9 || c === 13 || c === 11 || c === 12) i++;
      else break;
    }
    if (i < n && c !== 10) {
      const start = i;
      if (fields === 0) {
        // the key, hashed as it is scanned (hashBytes)
        let h = Math.imul(FNV_START ^ c, FNV_PRIME);
        i++;
        while (i < n) {
          c = bytes[i];
          if (c > 32 || (c < 32 && (c < 9 || c > 13))) {
            h = Math.imul(h ^ c, FNV_PRIME);
            i++;
          } else break;
        }
        hash = h;
        a0 = start;
        a1 = i;
      } else {
        i++;
        while (i < n) {
          c = bytes[i];
          if (c > 32 || (c < 32 && (c < 9 || c > 13))) i++;
          else break;
        }
        if (fields === 1) {
          b0 = start;
          b1 = i;
        }
      }
      fields++;
      continue;
    }
    if (fields !== 0) {
      if (fields !== 2) bad.push({ line, fields });
      else {
        const v = parseNumberBytes(bytes, b0, b1);
        if (v === undefined) bad.push({ line, fields, number: bytes.toString('utf8', b0, b1) });
        else {
          const at = index.findHashed(finishHash(hash), bytes, a0, a1);
          if (at < 0) unknown.push({ line, key: bytes.toString('utf8', a0, a1) });
          else out[at] = v;
          count++;
        }
      }
    }
    if (i >= n) break;
    fields = 0;
    line++;
    i++;
  }
  return count;
}
