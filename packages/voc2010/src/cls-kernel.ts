/**
 * The fast path of `voc2010/cls`: the twenty lists and twenty results files read, and each class ranked,
 * its PR curve and VOCap computed, by a small WebAssembly kernel (`cls-kernel.wat`). Wasm is compiled
 * before it runs, so its loops run near native speed from the first file, where the JavaScript readers
 * spend most of a run in the interpreter before their optimised code arrives.
 *
 * Only for the clean case (see the .wat's header): any problem — a file that cannot be read or is not
 * UTF-8, a line the kernel does not take (a bad or unusual field, an id not listed, lists that differ) —
 * gives `undefined`, and the caller reads everything again the JavaScript way, which gives the messages
 * (and reads what the kernel leaves to it, such as `1e-3` or `Inf`). Same numbers, bit for bit: the tests
 * and a fuzz test compare the two paths.
 */
import { isUtf8 } from 'node:buffer';
import { ProblemCollector } from '@cvdevkit/core';
import { scratchBuffer } from '@cvdevkit/formats/text';
import { CLS_KERNEL_WASM } from './cls-kernel-wasm.js';
import { readBytesInput } from './text.js';

/** The little of the WebAssembly API used here (the project's type libraries do not declare it). */
interface Wasm {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: unknown };
}
const { WebAssembly: wasm } = globalThis as unknown as { WebAssembly: Wasm };

interface KernelExports {
  memory: { buffer: ArrayBuffer; grow(pages: number): number };
  npos: { value: number };
  scanList(src: number, len: number, mode: number, n: number, starts: number, ends: number, labels: number): number;
  indexKeys(n: number, starts: number, ends: number, table: number, mask: number): number;
  scanScores(src: number, len: number, starts: number, ends: number, table: number, mask: number, scores: number, n: number): number;
  evaluate(n: number, scores: number, labels: number, keys: number, order: number, tmp: number, hist: number, recall: number, precision: number, mpre: number, wantAp: number): number;
}

let compiled: object | undefined;

/** A fresh instance (its memory is garbage once the run's curves are copied out); the module compiled once. */
function instantiate(): KernelExports {
  compiled ??= new wasm.Module(Buffer.from(CLS_KERNEL_WASM, 'base64'));
  return new wasm.Instance(compiled).exports as KernelExports;
}

const align8 = (x: number): number => (x + 7) & ~7;

/** One class as the kernel evaluated it. */
export interface ClsKernelClass {
  recall: Float64Array;
  precision: Float64Array;
  /** VOCap when asked for (`wantAp`), else NaN. */
  ap: number;
  npos: number;
  /** Result lines read (the `ndet` of the report). */
  ndet: number;
}

/** Every class, and the milliseconds spent ranking and computing curves (the rest of the time is reading). */
export interface ClsKernelRun {
  classes: ClsKernelClass[];
  evaluateMs: number;
}

/**
 * Reads `lists[k]` and `results[k]` and evaluates class k, for every k, through the kernel (class by class:
 * one set of columns, little fresh memory); `undefined` when anything is not the clean case (then nothing
 * has been reported: read the task the JavaScript way). `wantAp`: compute VOCap too.
 */
export function evaluateClsWithKernel(lists: readonly string[], results: readonly string[], wantAp: boolean): ClsKernelRun | undefined {
  const classes = lists.length;
  if (classes === 0 || results.length !== classes) return undefined;
  const trial = new ProblemCollector();
  const scratch = scratchBuffer();
  const read = (file: string): Buffer | undefined => {
    const bytes = readBytesInput(file, 'a text file', trial, undefined, scratch);
    return bytes !== undefined && trial.size === 0 && isUtf8(bytes) ? bytes : undefined;
  };
  const k0 = instantiate();
  const memory = k0.memory;
  const ensure = (bytes: number): void => {
    const have = memory.buffer.byteLength;
    if (bytes > have) memory.grow(Math.ceil((bytes - have) / 65536));
  };

  // list 0: its bytes stay at 0 (the ids every other list and result is compared with)
  const first = read(lists[0]);
  if (first === undefined) return undefined;
  const len0 = first.length;
  const nmax = ((len0 + 1) >> 2) + 1;
  const starts = align8(len0);
  const ends = starts + 4 * nmax;
  const labels0 = align8(ends + 4 * nmax);
  ensure(labels0 + 4 * nmax);
  new Uint8Array(memory.buffer, 0, len0).set(first);
  const n = k0.scanList(0, len0, 0, 0, starts, ends, labels0);
  if (n <= 0) return undefined;

  let cap = 16;
  while (cap < n * 2) cap *= 2;
  const table = align8(labels0 + 4 * nmax);
  const hist = table + 4 * cap;
  const column = align8(4 * n);
  const labelsK = hist + 1024;
  const scores = labelsK + column;
  const keys = scores + 8 * n;
  const order = keys + 8 * n;
  const tmp = order + column;
  const recall = tmp + column;
  const precision = recall + 8 * n;
  const mpre = precision + 8 * n;
  const files = mpre + 8 * (n + 2);
  ensure(files);
  new Int32Array(memory.buffer, table, cap).fill(0);
  if (k0.indexKeys(n, starts, ends, table, cap - 1) !== 0) return undefined;

  const place = (bytes: Buffer): void => {
    ensure(files + bytes.length);
    new Uint8Array(memory.buffer, files, bytes.length).set(bytes);
  };
  const out: ClsKernelClass[] = [];
  let evaluateMs = 0;
  for (let k = 0; k < classes; k++) {
    const labels = k === 0 ? labels0 : labelsK;
    if (k > 0) {
      const list = read(lists[k]);
      if (list === undefined) return undefined;
      place(list);
      if (k0.scanList(files, list.length, 1, n, starts, ends, labels) !== n) return undefined;
    }
    const bytes = read(results[k]);
    if (bytes === undefined) return undefined;
    place(bytes);
    const ndet = k0.scanScores(files, bytes.length, starts, ends, table, cap - 1, scores, n);
    if (ndet < 0) return undefined;
    const t = performance.now();
    const ap = k0.evaluate(n, scores, labels, keys, order, tmp, hist, recall, precision, mpre, wantAp ? 1 : 0);
    out.push({
      recall: new Float64Array(memory.buffer, recall, n).slice(),
      precision: new Float64Array(memory.buffer, precision, n).slice(),
      ap: wantAp ? ap : NaN,
      npos: k0.npos.value,
      ndet,
    });
    evaluateMs += performance.now() - t;
  }
  return { classes: out, evaluateMs };
}
