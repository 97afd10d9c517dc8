/**
 * The one way cvdevkit opens an input: a regular file only (a device such as `/dev/zero`, a FIFO, a
 * socket or a directory is a problem naming what it is, found before anything is opened, so a FIFO
 * cannot block the run), read whole up to the cap of its kind (`input-limits.ts`), every fs error
 * mapped to a problem (`fs-problem.ts`). Symbolic links are followed: what they point to must be a
 * regular file too.
 */
import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { DevkitError, isDevkitError } from '@cvdevkit/core';
import { fsError } from './fs-problem.js';
import { formatBytes, inputLimit, limitHint, type InputKind } from './input-limits.js';

/** How inputs are opened: read only, and non-blocking (a FIFO that slipped past the checks cannot hang). */
export const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** What a non-regular file is, for a message. */
export function describeFileType(st: Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isCharacterDevice()) return 'a character device (such as /dev/zero or a terminal)';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** A regular file within the cap of its kind, else a DevkitError saying what it is. */
export function checkStats(st: Stats, file: string, kind: InputKind, expected: string): void {
  if (!st.isFile()) {
    throw new DevkitError({ kind: 'input', code: 'input/not-a-file', file, expected: `${expected} (a regular file)`, found: describeFileType(st) });
  }
  tooLarge(st.size, file, kind, expected);
}

/** A DevkitError when `size` bytes exceed the cap of `kind`. */
export function tooLarge(size: number, file: string, kind: InputKind, expected: string): void {
  const cap = inputLimit(kind);
  if (size > cap) {
    throw new DevkitError({ kind: 'input', code: 'input/too-large', file, expected: `${expected} of at most ${formatBytes(cap)}`, found: formatBytes(size), hint: limitHint(kind) });
  }
}

export interface InputReadOptions {
  /** The size cap to apply (default by the extension: `.png` → png, `.mat` → mat, `.xml` → xml, else text). */
  kind?: InputKind;
  /** What the file should be, for messages (`an image list "<name> <index>" per line`). */
  expected?: string;
}

/**
 * A buffer to read one input after another into (`readInputBytesSync`'s `scratch`): the bytes returned are
 * a view of `buffer`, valid until the next read into it; `buffer` is replaced by a larger one when a file
 * does not fit. Twenty files of 100 KB read into fresh buffers cost more in first touches of new memory than
 * in scanning them; into one buffer, its pages are touched once.
 */
export interface ScratchBuffer {
  buffer: Buffer<ArrayBuffer>;
}

/** A scratch buffer, empty until the first read grows it. */
export function scratchBuffer(): ScratchBuffer {
  return { buffer: Buffer.alloc(0) };
}

/** The cap kind of an input: given, else by its extension. */
export function kindOf(file: string, options: InputReadOptions): InputKind {
  if (options.kind) return options.kind;
  const m = /\.([a-z]+)$/i.exec(file);
  const ext = m ? m[1].toLowerCase() : '';
  return ext === 'png' ? 'png' : ext === 'mat' ? 'mat' : ext === 'xml' ? 'xml' : 'text';
}

/** A full read buffer grown (doubled, at least 64 KiB, never past the cap + 1) with its `off` bytes kept. */
function grown(buf: Buffer<ArrayBuffer>, off: number, cap: number, file: string, kind: InputKind, expected: string): Buffer<ArrayBuffer> {
  tooLarge(off, file, kind, expected);
  const next = Buffer.allocUnsafe(Math.min(Math.max(buf.length * 2, 65536), cap + 1));
  buf.copy(next, 0, 0, off);
  return next;
}

/**
 * Reads all of an open file: sized by fstat, and on until end of file for files that report size 0
 * (`/proc`), never past the cap.
 */
function readAllSync(fd: number, size: number, cap: number, file: string, kind: InputKind, expected: string, scratch?: ScratchBuffer): Buffer {
  const want = Math.max(size, 0) + 1;
  if (scratch && scratch.buffer.length < want) scratch.buffer = Buffer.allocUnsafe(Math.min(Math.max(want, scratch.buffer.length * 2), cap + 1));
  let buf = scratch ? scratch.buffer : Buffer.allocUnsafe(want);
  let off = 0;
  for (;;) {
    if (off === buf.length) buf = grown(buf, off, cap, file, kind, expected);
    const n = readSync(fd, buf, off, buf.length - off, null);
    if (n === 0) break;
    off += n;
    if (off > cap) tooLarge(off, file, kind, expected);
  }
  return buf.subarray(0, off);
}

/**
 * Reads a whole input file as bytes (see the module comment); every problem is a DevkitError (exit 2).
 * With `scratch`, into its buffer (see `ScratchBuffer`: the result is overwritten by the next read into it).
 */
export function readInputBytesSync(file: string, options: InputReadOptions = {}, scratch?: ScratchBuffer): Buffer {
  const kind = kindOf(file, options);
  const expected = options.expected ?? 'an input file';
  let fd: number | undefined;
  try {
    checkStats(statSync(file), file, kind, expected);
    fd = openSync(file, OPEN_FLAGS);
    const st = fstatSync(fd);
    checkStats(st, file, kind, expected);
    return readAllSync(fd, st.size, inputLimit(kind), file, kind, expected, scratch);
  } catch (e) {
    if (isDevkitError(e)) throw e;
    throw fsError(e, file, { expected });
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Async `readInputBytesSync`. */
export async function readInputBytes(file: string, options: InputReadOptions = {}): Promise<Buffer> {
  const kind = kindOf(file, options);
  const expected = options.expected ?? 'an input file';
  const cap = inputLimit(kind);
  let fh: Awaited<ReturnType<typeof open>> | undefined;
  try {
    checkStats(await stat(file), file, kind, expected);
    fh = await open(file, OPEN_FLAGS);
    const st = await fh.stat();
    checkStats(st, file, kind, expected);
    let buf = Buffer.allocUnsafe(st.size + 1);
    let off = 0;
    for (;;) {
      if (off === buf.length) buf = grown(buf, off, cap, file, kind, expected);
      const { bytesRead } = await fh.read(buf, off, buf.length - off, null);
      if (bytesRead === 0) break;
      off += bytesRead;
      if (off > cap) tooLarge(off, file, kind, expected);
    }
    return buf.subarray(0, off);
  } catch (e) {
    if (isDevkitError(e)) throw e;
    throw fsError(e, file, { expected });
  } finally {
    await fh?.close();
  }
}

/** UTF-8 bytes as a string; more than one string can hold is a too-large problem. */
export function decodeText(bytes: Buffer, file: string, expected: string): string {
  try {
    return bytes.toString('utf8');
  } catch {
    // V8's longest string is 2^29 - 24 code units; only a raised text cap gets here.
    throw new DevkitError({ kind: 'input', code: 'input/too-large', file, expected: `${expected} that fits in one string (below 512 MiB)`, found: formatBytes(bytes.length) });
  }
}

/** Reads a whole UTF-8 text input (kind `text` unless given); see `readInputBytesSync`. */
export function readInputTextSync(file: string, options: InputReadOptions = {}): string {
  const expected = options.expected ?? 'a text file';
  return decodeText(readInputBytesSync(file, { kind: options.kind ?? 'text', expected }), file, expected);
}

/** Async `readInputTextSync`. */
export async function readInputText(file: string, options: InputReadOptions = {}): Promise<string> {
  const expected = options.expected ?? 'a text file';
  return decodeText(await readInputBytes(file, { kind: options.kind ?? 'text', expected }), file, expected);
}
