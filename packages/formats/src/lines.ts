/**
 * The one line reader of cvdevkit: non-blank lines of white-space separated fields with 1-based line
 * numbers (image sets, label lists, results, blacklists, synset lists), and the text-file reading
 * through the input layer (`input-file.ts`).
 */
import { readInputText } from './input-file.js';
import { parseNumberRange } from './numbers.js';

export interface TextLine {
  /** 1-based line number in the file. */
  line: number;
  /** The whitespace-separated fields of the line. */
  fields: string[];
}

/** Space, TAB, LF, VT, FF, CR: the white space `textread` and `strtod` skip. */
export function isFieldSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 9 || c === 13 || c === 11 || c === 12;
}

/**
 * Calls `onLine(fields, lineNumber)` for every non-blank line of `text`, fields split on white space
 * (space, TAB, CR, VT, FF), line numbers 1-based. Written by hand: no regex split, no line array.
 */
export function forEachLine(text: string, onLine: (fields: string[], line: number) => void): void {
  const n = text.length;
  let line = 1;
  let fields: string[] = [];
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      if (fields.length > 0) {
        onLine(fields, line);
        fields = [];
      }
      line++;
      i++;
    } else if (c === 32 || c === 9 || c === 13 || c === 11 || c === 12) {
      i++;
    } else {
      const start = i;
      i++;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === 32 || d === 10 || d === 9 || d === 13 || d === 11 || d === 12) break;
        i++;
      }
      fields.push(text.slice(start, i));
    }
  }
  if (fields.length > 0) onLine(fields, line);
}

/**
 * The fields of one line as spans of the text: field `k < min(count, starts.length)` is
 * `text.slice(starts[k], ends[k])`. The object and its arrays are reused from line to line: copy what you keep.
 */
export interface FieldSpans {
  /** Fields on the line (also those past the spans' capacity). */
  count: number;
  starts: Int32Array;
  ends: Int32Array;
}

/**
 * `forEachLine` without a string per field: calls `onLine(spans, lineNumber)` for every non-blank line
 * with the positions of its first `maxFields` fields (the count is exact), so that a reader slices only
 * the fields it keeps and parses numbers in place (`parseNumberRange`). The same lines, fields and line
 * numbers as `forEachLine`; the hot path of the results and list readers.
 */
export function forEachLineSpans(text: string, maxFields: number, onLine: (spans: FieldSpans, line: number) => void): void {
  const spans: FieldSpans = { count: 0, starts: new Int32Array(maxFields), ends: new Int32Array(maxFields) };
  const { starts, ends } = spans;
  const n = text.length;
  let line = 1;
  let count = 0;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      if (count > 0) {
        spans.count = count;
        onLine(spans, line);
        count = 0;
      }
      line++;
      i++;
    } else if (c === 32 || c === 9 || c === 13 || c === 11 || c === 12) {
      i++;
    } else {
      const start = i;
      i++;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === 32 || d === 10 || d === 9 || d === 13 || d === 11 || d === 12) break;
        i++;
      }
      if (count < maxFields) {
        starts[count] = start;
        ends[count] = i;
      }
      count++;
    }
  }
  if (count > 0) {
    spans.count = count;
    onLine(spans, line);
  }
}

/** A line of a `<key> <number>` file that is not one: its field count, or its number's text when there were two fields. */
export interface BadKeyNumberLine {
  line: number;
  fields: number;
  /** The second field, when the line has two fields and it is not a number. */
  number?: string;
}

/** The records of a `<key> <number>` file, as columns (see `readKeyNumberLines`). */
export interface KeyNumberLines {
  /** Good lines (two fields, a number). */
  count: number;
  /** Per record: the key's position in the index, -1 when it is not there. */
  position: Int32Array;
  value: Float64Array;
  line: Uint32Array;
  /** The records whose key is not in the index, with the key, in record order. */
  unknown: Array<{ record: number; key: string }>;
  /** The other lines, in line order. */
  bad: BadKeyNumberLine[];
}

/**
 * Lines of two fields `<key> <number>` (VOC cls results), read in one pass into columns: each key looked
 * up in `index` as it is read (no string kept per line), the number parsed in place (`parseNumberRange`,
 * strtod). Lines, fields and numbers as `forEachLine` + `parseStrtod` give them. A hot kernel (twenty such
 * files are read at the start of a run, while the JIT is still cold): one loop, no callback.
 */
export function readKeyNumberLines(text: string, index: ReadonlyMap<string, number>): KeyNumberLines {
  let cap = 1;
  for (let j = text.indexOf('\n'); j >= 0; j = text.indexOf('\n', j + 1)) cap++;
  const position = new Int32Array(cap);
  const value = new Float64Array(cap);
  const lineOf = new Uint32Array(cap);
  const unknown: Array<{ record: number; key: string }> = [];
  const bad: BadKeyNumberLine[] = [];
  const n = text.length;
  let count = 0;
  let line = 1;
  let i = 0;
  while (i < n) {
    let c = text.charCodeAt(i);
    while (i < n && (c === 32 || c === 9 || c === 13 || c === 11 || c === 12)) c = text.charCodeAt(++i);
    if (i >= n) break;
    if (c === 10) {
      i++;
      line++;
      continue;
    }
    // the fields of this line: the first two as spans, the others counted
    let fields = 0;
    let a0 = 0;
    let a1 = 0;
    let b0 = 0;
    let b1 = 0;
    while (i < n && c !== 10) {
      const start = i;
      while (i < n && c !== 32 && c !== 9 && c !== 10 && c !== 13 && c !== 11 && c !== 12) c = text.charCodeAt(++i);
      if (fields === 0) {
        a0 = start;
        a1 = i;
      } else if (fields === 1) {
        b0 = start;
        b1 = i;
      }
      fields++;
      while (i < n && (c === 32 || c === 9 || c === 13 || c === 11 || c === 12)) c = text.charCodeAt(++i);
    }
    if (fields !== 2) {
      bad.push({ line, fields });
      continue;
    }
    const v = parseNumberRange(text, b0, b1);
    if (v === undefined) {
      bad.push({ line, fields, number: text.slice(b0, b1) });
      continue;
    }
    const key = text.slice(a0, a1);
    const at = index.get(key);
    if (at === undefined) unknown.push({ record: count, key });
    position[count] = at ?? -1;
    value[count] = v;
    lineOf[count] = line;
    count++;
  }
  return { count, position, value, line: lineOf, unknown, bad };
}

/** Whether `text.slice(a, b) === key`, without the slice. */
export function spanEquals(text: string, a: number, b: number, key: string): boolean {
  if (b - a !== key.length) return false;
  for (let k = 0; k < key.length; k++) if (text.charCodeAt(a + k) !== key.charCodeAt(k)) return false;
  return true;
}

/** Splits text into non-empty lines of whitespace-separated fields, keeping 1-based line numbers. */
export function parseLines(text: string): TextLine[] {
  const out: TextLine[] = [];
  forEachLine(text, (fields, line) => out.push({ line, fields }));
  return out;
}

/** Reads a text file of whitespace-separated fields (image sets, label lists, results). */
export async function readLines(path: string, expected = 'a text file of white-space separated fields'): Promise<TextLine[]> {
  return parseLines(await readInputText(path, { expected }));
}

/** Reads a UTF-8 text file through the input layer; a missing, unreadable or oversized file is a DevkitError naming it. */
export async function readTextFile(path: string, what = 'a text file'): Promise<string> {
  return readInputText(path, { expected: what });
}
