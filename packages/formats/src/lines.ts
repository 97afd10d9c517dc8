import { readFile } from 'node:fs/promises';
import { inputError } from '@cvdevkit/core';

export interface TextLine {
  /** 1-based line number in the file. */
  line: number;
  /** The whitespace-separated fields of the line. */
  fields: string[];
}

/** Splits text into non-empty lines of whitespace-separated fields, keeping 1-based line numbers. */
export function parseLines(text: string): TextLine[] {
  const out: TextLine[] = [];
  let lineNo = 0;
  let start = 0;
  const n = text.length;
  while (start <= n) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = n;
    lineNo++;
    const raw = text.slice(start, end);
    const trimmed = raw.trim();
    if (trimmed.length > 0) out.push({ line: lineNo, fields: trimmed.split(/\s+/) });
    start = end + 1;
  }
  return out;
}

/** Reads a text file of whitespace-separated fields (image sets, label lists, results). */
export async function readLines(path: string): Promise<TextLine[]> {
  return parseLines(await readTextFile(path));
}

/** Reads a UTF-8 text file; a missing or unreadable file is a DevkitError naming it. */
export async function readTextFile(path: string, what = 'a text file'): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw inputError({
      code: 'input/missing-file',
      file: path,
      expected: what,
      found: code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a directory' : String(code ?? e),
    });
  }
}
