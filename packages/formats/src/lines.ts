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
