/**
 * The one mapping of file-system errors to problems a user can act on: `ENOENT` → "no such file",
 * `ENOTDIR` → "a path through a file", `ELOOP` → "a symbolic link loop", … never a raw errno text.
 * Reading errors are input problems (exit 2); errors writing where the user asked are the same kind
 * unless the caller says otherwise.
 */
import { DevkitError, type ErrorKind, type Problem, type ErrorCode } from '@cvdevkit/core';

const FOUND: Record<string, string> = {
  ENOENT: 'no such file',
  ENOTDIR: 'a path through something that is not a folder (a file where a folder should be)',
  EISDIR: 'a directory',
  ELOOP: 'a symbolic link loop (or too many links)',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENAMETOOLONG: 'a name that is too long',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota exceeded',
  EROFS: 'a read-only file system',
  EIO: 'an input/output error of the device',
  EFBIG: 'a file too large for the file system',
  EEXIST: 'a file that already exists',
  ENOTEMPTY: 'a folder that is not empty',
  EBUSY: 'a busy file or device',
  ENXIO: 'no such device',
  ENODEV: 'no such device',
  EINVAL: 'a path this file system cannot use',
  EAGAIN: 'a file that is not ready (a FIFO or a device)',
  EXDEV: 'a path on another device',
};

/** The errno code of an error, if any. */
export function errnoCode(e: unknown): string | undefined {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** What to say was found for an fs error: a plain phrase for known codes, else the code itself. */
export function describeFsError(e: unknown): string {
  const code = errnoCode(e);
  if (code !== undefined && FOUND[code]) return FOUND[code];
  if (code !== undefined) return `a file-system error (${code})`;
  return 'a file-system error';
}

export interface FsProblemOptions {
  /** What the path should be, e.g. `an annotation file`. */
  expected: string;
  /** The problem code (default `input/missing-file` for a missing path, `input/read` otherwise). */
  code?: ErrorCode;
  hint?: string;
}

/** The problem of an fs error on `file`. */
export function fsProblem(e: unknown, file: string, options: FsProblemOptions): Problem {
  const errno = errnoCode(e);
  const code = options.code ?? (errno === 'ENOENT' || errno === 'ENOTDIR' ? 'input/missing-file' : errno === 'EISDIR' ? 'input/not-a-file' : 'input/read');
  const p: Problem = { code, file, expected: options.expected, found: describeFsError(e) };
  if (options.hint) p.hint = options.hint;
  return p;
}

/** An fs error on `file` as a DevkitError (input, exit 2, unless `kind` says otherwise). */
export function fsError(e: unknown, file: string, options: FsProblemOptions & { kind?: ErrorKind }): DevkitError {
  return new DevkitError({ kind: options.kind ?? 'input', ...fsProblem(e, file, options), cause: e });
}

/**
 * An fs error while writing an output the user named (`--out`, `--out-dir`, `--dir`): exit 2 for a
 * path that cannot be used (missing folder, a file in the way, permissions, a full disk).
 */
export function fsWriteError(e: unknown, file: string, what: string): DevkitError {
  const errno = errnoCode(e);
  return new DevkitError({
    kind: 'input',
    code: errno === 'ENOSPC' || errno === 'EDQUOT' || errno === 'EFBIG' || errno === 'EIO' ? 'input/write-failed' : 'input/output-path',
    file,
    expected: `a place to write ${what}`,
    found: describeFsError(e),
    cause: e,
  });
}
