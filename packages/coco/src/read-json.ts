import { readFileSync, statSync } from 'node:fs';
import { inputError, usageError } from '@cvdevkit/core';

/** Checks that `path` names a readable regular file (exit 2 otherwise; a missing option is a usage error). */
export function requireFile(path: unknown, flag: string, what: string): string {
  if (typeof path !== 'string' || path === '') throw usageError(`--${flag}: expected ${what}`, 'usage/missing-option');
  let st;
  try {
    st = statSync(path);
  } catch {
    throw inputError({ code: 'input/missing-file', file: path, field: `--${flag}`, expected: what, found: 'no such file' });
  }
  if (!st.isFile()) throw inputError({ code: 'input/not-a-file', file: path, field: `--${flag}`, expected: what, found: st.isDirectory() ? 'a folder' : 'not a regular file' });
  return path;
}

/** Line and column of a character offset. */
function lineOf(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let last = -1;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      last = i;
    }
  }
  return { line, column: offset - last };
}

/** Reads a whole JSON file (JSON.parse). */
export function readJsonFile(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw inputError({ code: 'input/read', file: path, expected: 'a readable file', found: (e as NodeJS.ErrnoException).code ?? 'an I/O error' });
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    const m = /position (\d+)/.exec((e as Error).message);
    const at = m ? lineOf(text, Number(m[1])) : undefined;
    throw inputError({ code: 'input/json', file: path, line: at?.line, column: at?.column, expected: 'valid JSON', found: text.trim() === '' ? 'an empty file' : 'a syntax error' });
  }
}
