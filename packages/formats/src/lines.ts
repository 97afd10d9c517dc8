/**
 * The one line reader of cvdevkit: non-blank lines of white-space separated fields with 1-based line
 * numbers (image sets, label lists, results, blacklists, synset lists), and the text-file reading
 * through the input layer (`input-file.ts`).
 */
import { readInputText } from './input-file.js';

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
