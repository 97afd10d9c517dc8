/**
 * Large text inputs read a piece at a time (a 5 M-line prediction file is ~250 MB: held whole as bytes
 * and then as a string it would cost ~100 bytes a line before a single number is parsed). The same
 * input layer as `readInputTextSync`: a regular file only, the cap of its kind, fs errors mapped.
 * Pieces end at a line end, so every line is whole in one piece and a UTF-8 sequence is never split
 * (byte 0x0A is never inside one); decoded pieces joined are the text `readInputTextSync` gives.
 */
import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { isDevkitError } from '@cvdevkit/core';
import { errnoCode, fsError } from './fs-problem.js';
import { OPEN_FLAGS, checkStats, decodeText, kindOf, tooLarge, type InputReadOptions } from './input-file.js';
import { inputLimit } from './input-limits.js';

/** Bytes read per piece (a piece grows past this only for a longer line). */
export const TEXT_PIECE_BYTES = 4 << 20;

/** Calls `onBytes` with the file's bytes in order, a buffer at a time (the buffer is reused: copy what you keep). */
function forEachInputBlockSync(file: string, options: InputReadOptions, blockBytes: number, onBytes: (bytes: Buffer) => void): void {
  const kind = kindOf(file, options);
  const expected = options.expected ?? 'a text file';
  const cap = inputLimit(kind);
  let fd: number | undefined;
  try {
    checkStats(statSync(file), file, kind, expected);
    fd = openSync(file, OPEN_FLAGS);
    checkStats(fstatSync(fd), file, kind, expected);
    const buf = Buffer.allocUnsafe(blockBytes);
    let total = 0;
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      total += n;
      if (total > cap) tooLarge(total, file, kind, expected);
      onBytes(buf.subarray(0, n));
    }
  } catch (e) {
    // a DevkitError or the caller's own error passes through; an fs error becomes a problem naming the file
    if (isDevkitError(e) || errnoCode(e) === undefined) throw e;
    throw fsError(e, file, { expected });
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The number of line feeds of a text input plus one: an upper bound on its lines, to size columns once. */
export function countInputLinesSync(file: string, options: InputReadOptions = {}): number {
  let n = 1;
  forEachInputBlockSync(file, { kind: options.kind ?? 'text', expected: options.expected }, TEXT_PIECE_BYTES, (bytes) => {
    for (let i = bytes.indexOf(10); i >= 0; i = bytes.indexOf(10, i + 1)) n++;
  });
  return n;
}

/**
 * Calls `onText` with the UTF-8 text of the file in pieces of about `pieceBytes` (kind `text` unless
 * given), each ending at a line feed (the last one at the end of the file).
 */
export function forEachInputTextPieceSync(file: string, options: InputReadOptions, onText: (text: string) => void, pieceBytes = TEXT_PIECE_BYTES): void {
  const expected = options.expected ?? 'a text file';
  // the unfinished last line, kept (copied: the block buffer is reused) until a line feed comes
  let held: Buffer[] = [];
  forEachInputBlockSync(file, { kind: options.kind ?? 'text', expected }, pieceBytes, (bytes) => {
    const end = bytes.lastIndexOf(10) + 1;
    if (end === 0) {
      held.push(Buffer.from(bytes));
      return;
    }
    const head = bytes.subarray(0, end);
    const text = decodeText(held.length > 0 ? Buffer.concat([...held, head]) : head, file, expected);
    held = end < bytes.length ? [Buffer.from(bytes.subarray(end))] : [];
    onText(text);
  });
  if (held.length > 0) onText(decodeText(Buffer.concat(held), file, expected));
}
