/**
 * The fast path of reading a segm results file: the file read straight into the memory of a small
 * WebAssembly kernel (`results-kernel.wat`), which scans the JSON, parses the ids and scores and measures
 * each mask's area and box. Wasm is compiled before it runs, so its loops run near native speed from the
 * first byte, where the JavaScript reader spends much of a run in the interpreter before its optimised code
 * arrives.
 *
 * Only for the plain case (see the .wat's header): anything else — a file that cannot be read, another
 * key, an escape, a bad number, a malformed RLE — gives `undefined`, and the caller reads the file the
 * JavaScript way, which gives the messages. The columns are the ones the JavaScript reader gives (with the
 * counts strings as spans of the file's bytes in the kernel's memory), so the rest of the loading runs
 * unchanged; the same numbers, bit for bit (a fuzz test compares the two paths).
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { parseNumber, type ParsedNumber, type RecordColumns } from '@cvdevkit/json-columns';
import { RESULTS_KERNEL_WASM } from './results-kernel-wasm.js';

/** The little of the WebAssembly API used here (the project's type libraries do not declare it). */
interface Wasm {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: unknown };
}
const { WebAssembly: wasm } = globalThis as unknown as { WebAssembly: Wasm };

interface KernelExports {
  memory: { buffer: ArrayBuffer; grow(pages: number): number };
  nside: { value: number };
  scan(len: number, cap: number, imageId: number, categoryId: number, score: number, h: number, w: number, start: number, length: number, area: number, box: number, side: number): number;
}

let compiled: object | undefined;

const align8 = (x: number): number => (x + 7) & ~7;

/** Files above this size are left to the JavaScript reader (it streams them in bounded memory). */
const MAX_BYTES = 1 << 28;
/** The fewest bytes a row of the plain case takes (`{"image_id":0,…,"counts":"1"}}` is over 80): room for the rows. */
const MIN_ROW_BYTES = 64;

/** A results file as the kernel read it: the reader's columns, and each row's mask area and box. */
export interface KernelResults {
  c: RecordColumns;
  area: Float64Array;
  box: Float64Array;
}

/** The whole file into `bytes` (false: it could not be read, or changed size). */
function readAll(fd: number, bytes: Uint8Array): boolean {
  let at = 0;
  while (at < bytes.length) {
    const got = readSync(fd, bytes, at, bytes.length - at, null);
    if (got <= 0) return false;
    at += got;
  }
  return true;
}

/**
 * The segm results file `file` read by the kernel (see the module's comment), or undefined for anything but
 * the plain case. `parsed` is scratch for the scores the kernel leaves to `parseNumber`.
 */
export function readSegmResultsWithKernel(file: string): KernelResults | undefined {
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
    // the file, 8 zero bytes (the sentinel), then the columns
    const imageId = align8(len + 8);
    const categoryId = imageId + 8 * cap;
    const score = categoryId + 8 * cap;
    const h = score + 8 * cap;
    const w = h + 8 * cap;
    const start = w + 8 * cap;
    const area = start + 8 * cap;
    const box = area + 8 * cap;
    const length = box + 32 * cap;
    const side = length + align8(4 * cap);
    const size = side + 12 * cap;
    compiled ??= new wasm.Module(Buffer.from(RESULTS_KERNEL_WASM, 'base64'));
    const k = new wasm.Instance(compiled).exports as KernelExports;
    k.memory.grow(Math.ceil(size / 65536) - 1);
    const bytes = new Uint8Array(k.memory.buffer, 0, len);
    if (!readAll(fd, bytes)) return undefined;
    let n: number;
    try {
      n = k.scan(len, cap, imageId, categoryId, score, h, w, start, length, area, box, side);
    } catch {
      return undefined; // not the plain case (the kernel traps)
    }
    const buf = k.memory.buffer;
    const scores = new Float64Array(buf, score, n);
    // the scores left to the reader's parser (an exponent, more digits): strict JSON numbers only
    const nside = k.nside.value;
    if (nside > 0) {
      const entries = new Int32Array(buf, side, 3 * nside);
      const out: ParsedNumber = { value: 0, end: 0, integer: false };
      for (let j = 0; j < nside; j++) {
        const i = entries[3 * j], a = entries[3 * j + 1], b = entries[3 * j + 2];
        if (!/^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$/.test(Buffer.from(buf, a, b - a).toString('latin1'))) return undefined;
        parseNumber(bytes, a, b, true, out);
        if (out.end !== b || !Number.isFinite(out.value)) return undefined;
        scores[i] = out.value;
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
          bytes: new Uint8Array(buf, 0, len),
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
