/**
 * A folder the user named (`--gt`, `--pred`): it must exist and be a folder. A missing path is "no such
 * folder"; every other file-system error gets its own words through the one fs-error mapping
 * (`fs-problem.ts`: permission denied, a path through a file, a symbolic link loop, …).
 */
import { statSync } from 'node:fs';
import { inputError, usageError } from '@cvdevkit/core';
import { describeFsError, errnoCode } from './fs-problem.js';

/**
 * `path` when it names a folder. Not given (not a string, or empty): a usage error naming `--<option>`
 * (exit 1). Missing, a file, or unreadable: an input error (exit 2, code `input/missing-folder`, or
 * `input/read` for permissions and I/O) naming the path, the option, what was expected and what was found.
 */
export function requireFolder(path: unknown, option: string, expected: string): string {
  if (typeof path !== 'string' || path === '') throw usageError(`--${option}: expected ${expected}`, 'usage/missing-option');
  let isDir: boolean;
  try {
    isDir = statSync(path).isDirectory();
  } catch (e) {
    const errno = errnoCode(e);
    const missing = errno === 'ENOENT' || errno === 'ENOTDIR';
    throw inputError({
      code: missing ? 'input/missing-folder' : 'input/read',
      file: path,
      field: `--${option}`,
      expected,
      found: errno === 'ENOENT' ? 'no such folder' : describeFsError(e),
    });
  }
  if (!isDir) throw inputError({ code: 'input/missing-folder', file: path, field: `--${option}`, expected, found: 'a file' });
  return path;
}
