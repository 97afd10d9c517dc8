/**
 * The fast path of reading a segm results file in an evaluation: the file read through a window of the
 * memory of a small WebAssembly kernel (`results-kernel.wat`), which scans the JSON, parses the ids and
 * scores, measures each mask's area and box, and keeps the strings of the masks `keepMask` keeps (the others
 * dropped as coco's sink drops them). Wasm is compiled before it runs, so its loops run near native speed
 * from the first byte, where the JavaScript reader spends much of a run in the interpreter before its
 * optimised code arrives; and the window is reused (on this kind of machine a page of fresh memory costs
 * more than the work done in it).
 *
 * Only for the plain case (see the .wat's header): anything else — a file that cannot be read, another
 * key, an escape other than `\\`, a bad number, a malformed RLE — gives `undefined`, and the caller reads
 * the file the JavaScript way, which gives the messages. The columns are the ones the JavaScript reader
 * gives with coco's mask sink (the kept counts strings in the kernel's memory), so the rest of the loading
 * runs unchanged; the same numbers, bit for bit (a fuzz test compares the two paths).
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { parseNumber, type ParsedNumber, type RecordColumns } from '@cvdevkit/json-columns';
import { instantiateKernel } from './results-kernel-wasm.js';

interface KernelExports {
  memory: { buffer: ArrayBuffer; grow(pages: number): number };
  nside: { value: number };
  resume: { value: number };
  out: { value: number };
  init(cap: number, imageId: number, categoryId: number, score: number, h: number, w: number, start: number, length: number, area: number, box: number, side: number, out: number): void;
  scan(end: number, eof: number): number;
}

const align8 = (x: number): number => (x + 7) & ~7;

/** Files above this size are left to the JavaScript reader (it streams them in bounded memory). */
const MAX_BYTES = 1 << 28;
/** The fewest bytes a row of the plain case takes (`{"image_id":0,…,"counts":"1"}}` is over 80): room for the rows. */
const MIN_ROW_BYTES = 64;
/** The window the file is read through (fresh memory costs more than the work done in it: reused). */
const WINDOW = 1 << 20;

/** A results file as the kernel read it: the reader's columns, and each row's mask area and box. */
export interface KernelResults {
  c: RecordColumns;
  area: Float64Array;
  box: Float64Array;
}

/** Reads into `bytes` until it is full or the file ends: the bytes read. */
function readSome(fd: number, bytes: Uint8Array): number {
  let at = 0;
  while (at < bytes.length) {
    const got = readSync(fd, bytes, at, bytes.length - at, null);
    if (got <= 0) break;
    at += got;
  }
  return at;
}

/**
 * The segm results file `file` read by the kernel (see the module's comment), or undefined for anything but
 * the plain case. `keepMask` says, row by row, whether a mask's string is kept (else its length is -2 and its
 * box NaN; its area is measured either way). `windowBytes`: the window's size (tests try small ones).
 */
export function readSegmResultsWithKernel(file: string, keepMask: (imageId: number, categoryId: number) => boolean, windowBytes = WINDOW): KernelResults | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const len = fstatSync(fd).size;
    if (len < 2 || len > MAX_BYTES) return undefined;
    const cap = Math.floor(len / MIN_ROW_BYTES) + 1;
    // the window, 8 zero bytes (the sentinel), the columns, the side list, then the kept strings
    const window = Math.min(windowBytes, len);
    const imageId = align8(window + 8);
    const categoryId = imageId + 8 * cap;
    const score = categoryId + 8 * cap;
    const h = score + 8 * cap;
    const w = h + 8 * cap;
    const start = w + 8 * cap;
    const area = start + 8 * cap;
    const box = area + 8 * cap;
    const length = box + 32 * cap;
    const side = length + align8(4 * cap);
    const out = side + 12 * cap;
    const size = out + len;
    const k = instantiateKernel({ coco: { keep: (i: number, c: number) => (keepMask(i, c) ? 1 : 0) } }) as KernelExports;
    k.memory.grow(Math.ceil(size / 65536) - 1);
    const buf = k.memory.buffer;
    const win = new Uint8Array(buf, 0, window + 8);
    k.init(cap, imageId, categoryId, score, h, w, start, length, area, box, side, out);
    let have = 0;
    let total = 0;
    let n = -1;
    for (;;) {
      const got = readSome(fd, win.subarray(have, window));
      have += got;
      total += got;
      const eof = total >= len;
      win.fill(0, have, have + 8);
      try {
        n = k.scan(have, eof ? 1 : 0);
        break;
      } catch {
        // not the plain case, or a record the window's end cut: then on from its start
        const resume = k.resume.value;
        if (eof || resume === 0) return undefined;
        win.copyWithin(0, resume, have);
        have -= resume;
      }
    }
    if (n <= 0) return undefined;
    const kept = new Uint8Array(buf);
    const scores = new Float64Array(buf, score, n);
    // the scores left to the reader's parser (an exponent, more digits; their bytes kept): strict JSON numbers only
    const nside = k.nside.value;
    if (nside > 0) {
      const entries = new Int32Array(buf, side, 3 * nside);
      const parsed: ParsedNumber = { value: 0, end: 0, integer: false };
      for (let j = 0; j < nside; j++) {
        const i = entries[3 * j], a = entries[3 * j + 1], b = entries[3 * j + 2];
        if (!/^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$/.test(Buffer.from(buf, a, b - a).toString('latin1'))) return undefined;
        parseNumber(kept, a, b, true, parsed);
        if (parsed.end !== b || !Number.isFinite(parsed.value)) return undefined;
        scores[i] = parsed.value;
      }
    }
    const ones = new Uint8Array(n).fill(1);
    const none = new Uint8Array(n);
    const noList = () => ({ values: new Float64Array(0), start: new Float64Array(n), length: new Int32Array(n).fill(-1) });
    const c: RecordColumns = {
      count: n,
      numbers: { image_id: new Float64Array(buf, imageId, n), category_id: new Float64Array(buf, categoryId, n), score: scores },
      present: { image_id: ones, category_id: ones, score: ones, segmentation: ones, bbox: none, keypoints: none },
      lists: { bbox: noList(), keypoints: noList() },
      strings: {},
      values: { segmentation: new Array<unknown>(n) },
      rles: {
        segmentation: {
          h: new Float64Array(buf, h, n),
          w: new Float64Array(buf, w, n),
          bytes: kept,
          start: new Float64Array(buf, start, n),
          length: new Int32Array(buf, length, n),
        },
      },
    };
    return { c, area: new Float64Array(buf, area, n), box: new Float64Array(buf, box, 4 * n) };
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
