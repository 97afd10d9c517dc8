/**
 * Output targets (`--out`, `--plots`, `--cd-diagram`): each is checked before the work starts, every output
 * of a run is staged (written in full) first, and all are committed together at the end, so a run that fails
 * anywhere leaves every target as it was.
 *
 * A regular file (or a missing one) is replaced atomically: staged in a temporary file in its own folder and
 * renamed into place. A FIFO or a character device named as a target is written into directly, as a
 * shell's `>` would (staged in a temporary file elsewhere, then copied in), and never replaced. A directory,
 * a block device or a socket is refused. A symbolic link given as `--out` is written through (its target is
 * checked the same way); inside a `--plots` folder links are not followed (the link itself is replaced).
 */
import { closeSync, constants, existsSync, lstatSync, mkdtempSync, openSync, readSync, realpathSync, renameSync, rmSync, statSync, unlinkSync, type Stats } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { usageError, type DevkitError } from '@cvdevkit/core';
import { describeFsError, errnoCode } from '@cvdevkit/formats/fs';
import { writeAllSync, type OutputSink } from './sink.js';

/** How a target is written: replaced atomically (`file`, also when missing) or written into (`fifo`, `device`). */
export type TargetKind = 'file' | 'fifo' | 'device';

/** How long a FIFO target may wait for a reader at commit time before the run gives up. */
const FIFO_READER_WAIT_MS = 10_000;

function targetError(option: string, file: string, reason: string): DevkitError {
  return usageError(`cannot write ${option} ${file}: ${reason}`, 'usage/out');
}

function kindWord(st: Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isSymbolicLink()) return 'a symbolic link';
  return 'a special file';
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (e) {
    if (errnoCode(e) === 'ENOENT') return undefined;
    throw e;
  }
}

/** Why a file cannot be made in `dir`, in words. */
function createReason(e: unknown, dir: string): string {
  const code = errnoCode(e);
  if (code === 'ENOENT') return existsSync(dir) ? `files cannot be created in ${dir}` : `directory ${dir} does not exist`;
  if (code === 'ENOTDIR') return `directory ${dir} does not exist`;
  return describeFsError(e);
}

/** The folder a file is staged in must exist, be a folder and take new files (probed with an empty file, removed at once). */
function checkParent(file: string, option: string): void {
  const dir = dirname(file);
  let st: Stats;
  try {
    st = statSync(dir);
  } catch (e) {
    throw targetError(option, file, createReason(e, dir));
  }
  if (!st.isDirectory()) throw targetError(option, file, `${dir} is not a directory`);
  const probe = join(dir, `.${basename(file)}.${process.pid}.probe.tmp`);
  try {
    closeSync(openSync(probe, 'w'));
  } catch (e) {
    throw targetError(option, file, createReason(e, dir));
  }
  unlinkSync(probe);
}

/**
 * Checks a target named on the command line before any work: what it is now and whether it can be written.
 * Returns the path to write (a symbolic link resolved) and how.
 */
export function checkOutputTarget(file: string, option: string): { path: string; kind: TargetKind } {
  let st: Stats | undefined;
  let path = file;
  try {
    st = lstatOrUndefined(file);
    if (st?.isSymbolicLink()) {
      try {
        path = realpathSync(file);
        st = statSync(path);
      } catch (e) {
        // a dangling link: the file it names is made (in its folder)
        if (errnoCode(e) !== 'ENOENT') throw e;
        st = undefined;
      }
    }
  } catch (e) {
    throw targetError(option, file, describeFsError(e));
  }
  if (st === undefined) {
    checkParent(path, option);
    return { path, kind: 'file' };
  }
  if (st.isFile()) {
    checkParent(path, option);
    return { path, kind: 'file' };
  }
  if (st.isFIFO()) return { path, kind: 'fifo' };
  if (st.isCharacterDevice()) return { path, kind: 'device' };
  throw targetError(option, file, `it is ${kindWord(st)}; expected a regular file, a FIFO or a character device`);
}

/**
 * Checks a folder target (`--plots`) before any work: when it exists it must be a folder; when it does not,
 * the nearest existing folder above it must be one (it is created at the end).
 */
export function checkOutputFolder(dir: string, option: string): void {
  let path = dir;
  for (;;) {
    let st: Stats | undefined;
    try {
      st = statSync(path);
    } catch (e) {
      const code = errnoCode(e);
      if (code !== 'ENOENT') throw usageError(`cannot create ${option} ${dir}: ${code === 'ENOTDIR' ? `a part of the path is not a directory` : describeFsError(e)}`, 'usage/plots');
    }
    if (st !== undefined) {
      if (!st.isDirectory()) throw usageError(`cannot create ${option} ${dir}: ${path} is ${kindWord(st)}, not a directory`, 'usage/plots');
      return;
    }
    const up = dirname(path);
    if (up === path) return;
    path = up;
  }
}

/** A staged output: text or bytes. */
export interface StagedSink extends OutputSink {
  write(chunk: string | Uint8Array): void;
}

interface Staged {
  option: string;
  /** The path named (for messages). */
  file: string;
  /** The path written. */
  path: string;
  kind: TargetKind;
  /** The staged content. */
  tmp: string;
  fd: number | undefined;
}

/**
 * The outputs of one run: staged one by one, committed together (`commit`) or dropped (`abort`). Targets
 * found in a folder at the end (`--plots` files) that are not regular files are refused, not replaced.
 */
export class OutputCommit {
  private readonly staged: Staged[] = [];
  private spool: string | undefined;

  /** A sink that stages `file` (checked with `checkOutputTarget` now, if it was not before). */
  open(file: string, option: string, opts: { inFolder?: boolean } = {}): StagedSink {
    const target = opts.inFolder ? this.folderTarget(file, option) : checkOutputTarget(file, option);
    const tmp = target.kind === 'file' ? join(dirname(target.path), `.${basename(target.path)}.${process.pid}.${Date.now().toString(36)}.tmp`) : this.spoolFile(basename(target.path));
    const s: Staged = { option, file, path: target.path, kind: target.kind, tmp, fd: undefined };
    try {
      s.fd = openSync(tmp, 'wx');
    } catch (e) {
      throw targetError(option, file, createReason(e, dirname(tmp)));
    }
    this.staged.push(s);
    return {
      write: (chunk: string | Uint8Array) => {
        try {
          writeAllSync(s.fd!, chunk);
        } catch (e) {
          throw targetError(option, file, describeFsError(e));
        }
      },
    };
  }

  /** Stages the whole content of `file`. */
  stage(file: string, option: string, content: string | Uint8Array, opts: { inFolder?: boolean } = {}): void {
    this.open(file, option, opts).write(content);
  }

  /** A file inside an output folder: a regular file or a symbolic link is replaced; anything else is refused. */
  private folderTarget(file: string, option: string): { path: string; kind: TargetKind } {
    let st: Stats | undefined;
    try {
      st = lstatOrUndefined(file);
    } catch (e) {
      throw targetError(option, file, describeFsError(e));
    }
    if (st && !st.isFile() && !st.isSymbolicLink()) throw targetError(option, file, `it is ${kindWord(st)}; a file of ${option} must be a regular file or missing (left untouched)`);
    return { path: file, kind: 'file' };
  }

  private spoolFile(name: string): string {
    this.spool ??= mkdtempSync(join(tmpdir(), 'cvdevkit-out-'));
    return join(this.spool, `${this.staged.length}-${name}`);
  }

  /** Puts every staged output in place: special files first (they may fail: no reader), then the renames. */
  commit(): void {
    try {
      for (const s of this.staged) closeFd(s);
      for (const s of this.staged) if (s.kind !== 'file') copyInto(s);
      for (const s of this.staged) {
        if (s.kind !== 'file') continue;
        try {
          renameSync(s.tmp, s.path);
        } catch (e) {
          throw targetError(s.option, s.file, describeFsError(e));
        }
      }
    } finally {
      this.abort();
    }
  }

  /** Removes every staged file; targets are left as they were. */
  abort(): void {
    for (const s of this.staged) {
      closeFd(s);
      try {
        unlinkSync(s.tmp);
      } catch {
        // committed, or never written
      }
    }
    this.staged.length = 0;
    if (this.spool) rmSync(this.spool, { recursive: true, force: true });
    this.spool = undefined;
  }
}

function closeFd(s: Staged): void {
  if (s.fd === undefined) return;
  try {
    closeSync(s.fd);
  } catch {
    // already closed
  }
  s.fd = undefined;
}

/** Opens a FIFO or device for writing without creating, truncating or blocking forever (a FIFO waits for a reader). */
function openSpecial(s: Staged): number {
  const flags = constants.O_WRONLY | (s.kind === 'fifo' ? constants.O_NONBLOCK : 0);
  const deadline = Date.now() + FIFO_READER_WAIT_MS;
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      return openSync(s.path, flags);
    } catch (e) {
      if (errnoCode(e) === 'ENXIO' && Date.now() < deadline) {
        Atomics.wait(sleeper, 0, 0, 50);
        continue;
      }
      throw targetError(s.option, s.file, errnoCode(e) === 'ENXIO' ? `no process reads the FIFO (waited ${FIFO_READER_WAIT_MS / 1000} s)` : describeFsError(e));
    }
  }
}

function copyInto(s: Staged): void {
  const out = openSpecial(s);
  const src = openSync(s.tmp, 'r');
  const buf = Buffer.alloc(1 << 20);
  try {
    for (;;) {
      const n = readSync(src, buf, 0, buf.length, null);
      if (n === 0) break;
      writeAllSync(out, buf.subarray(0, n));
    }
  } catch (e) {
    throw targetError(s.option, s.file, describeFsError(e));
  } finally {
    closeSync(src);
    closeSync(out);
  }
}
