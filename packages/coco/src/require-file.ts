import { statSync } from 'node:fs';
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

