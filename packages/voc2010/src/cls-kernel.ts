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
import { keyBytes, scratchBuffer } from '@cvdevkit/formats/text';
import { instantiateKernel } from './cls-kernel-wasm.js';
import type { LabelledList } from './image-sets.js';
import { readBytesInput } from './text.js';
import { nowMs } from './clock.js';

interface KernelExports {
  memory: { buffer: ArrayBuffer; grow(pages: number): number };
  npos: { value: number };
  scanList(src: number, len: number, mode: number, n: number, starts: number, ends: number, labels: number): number;
  indexKeys(n: number, starts: number, ends: number, table: number, mask: number): number;
  scanScores(src: number, len: number, starts: number, ends: number, table: number, mask: number, scores: number, n: number): number;
  evaluate(n: number, scores: number, labels: number, keys: number, order: number, tmp: number, hist: number, recall: number, precision: number, mpre: number, wantAp: number): number;
}

/** A fresh instance (its memory is garbage once the run's curves are copied out); the module compiled once. */
function instantiate(): KernelExports {
  return instantiateKernel() as KernelExports;
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
 * One run's kernel instance and its memory: the ids (bytes at 0, spans, the hash index), then one column of
 * each kind (labels, scores, the sort's keys and orders, the curve), then the file being read. The classes
 * go through it one by one: one set of columns, little fresh memory.
 */
class ClsKernel {
  private constructor(
    private readonly k: KernelExports,
    readonly n: number,
    private readonly starts: number,
    private readonly ends: number,
    private readonly table: number,
    private readonly mask: number,
    readonly labels0: number,
  ) {
    const column = align8(4 * n);
    this.hist = table + 4 * (mask + 1);
    this.labels = this.hist + 1024;
    this.scores = this.labels + column;
    this.keys = this.scores + 8 * n;
    this.order = this.keys + 8 * n;
    this.tmp = this.order + column;
    this.recall = this.tmp + column;
    this.precision = this.recall + 8 * n;
    this.mpre = this.precision + 8 * n;
    this.files = this.mpre + 8 * (n + 2);
    this.ensure(this.files);
  }

  private readonly hist: number;
  /** The labels column (class 0's labels stay at `labels0` when the kernel read list 0). */
  readonly labels: number;
  private readonly scores: number;
  private readonly keys: number;
  private readonly order: number;
  private readonly tmp: number;
  private readonly recall: number;
  private readonly precision: number;
  private readonly mpre: number;
  private readonly files: number;

  /** The kernel of a run whose ids are list 0's (`bytes`; its labels at `labels0`); undefined unless clean. */
  static fromFirstList(bytes: Buffer): ClsKernel | undefined {
    const k = instantiate();
    const len = bytes.length;
    const nmax = ((len + 1) >> 2) + 1;
    const starts = align8(len);
    const ends = starts + 4 * nmax;
    const labels0 = align8(ends + 4 * nmax);
    grow(k, labels0 + 4 * nmax);
    new Uint8Array(k.memory.buffer, 0, len).set(bytes);
    const n = k.scanList(0, len, 0, 0, starts, ends, labels0);
    return n > 0 ? ClsKernel.indexed(k, n, starts, ends, align8(labels0 + 4 * nmax), labels0) : undefined;
  }

  /** The kernel of a run whose ids are the spans `[starts[i], ends[i])` of `bytes`, i < n (lists read before); undefined unless clean. */
  static fromKeys(bytes: Uint8Array, starts0: Int32Array, ends0: Int32Array, n: number): ClsKernel | undefined {
    if (n <= 0) return undefined;
    const k = instantiate();
    const len = bytes.length;
    const starts = align8(len);
    const ends = starts + 4 * n;
    const after = align8(ends + 4 * n);
    grow(k, after);
    new Uint8Array(k.memory.buffer, 0, len).set(bytes);
    new Int32Array(k.memory.buffer, starts, n).set(starts0.subarray(0, n));
    new Int32Array(k.memory.buffer, ends, n).set(ends0.subarray(0, n));
    return ClsKernel.indexed(k, n, starts, ends, after, -1);
  }

  private static indexed(k: KernelExports, n: number, starts: number, ends: number, table: number, labels0: number): ClsKernel | undefined {
    let cap = 16;
    while (cap < n * 2) cap *= 2;
    const kernel = new ClsKernel(k, n, starts, ends, table, cap - 1, labels0);
    new Int32Array(k.memory.buffer, table, cap).fill(0);
    return k.indexKeys(n, starts, ends, table, cap - 1) === 0 ? kernel : undefined;
  }

  private ensure(bytes: number): void {
    grow(this.k, bytes);
  }

  /** `bytes` into the file area. */
  private place(bytes: Buffer): void {
    this.ensure(this.files + bytes.length);
    new Uint8Array(this.k.memory.buffer, this.files, bytes.length).set(bytes);
  }

  /** A further list's labels into the labels column: false unless it lists exactly the run's ids, cleanly. */
  readList(bytes: Buffer): boolean {
    this.place(bytes);
    return this.k.scanList(this.files, bytes.length, 1, this.n, this.starts, this.ends, this.labels) === this.n;
  }

  /** `labels` (n of them) into the labels column. */
  setLabels(labels: Int32Array): void {
    new Int32Array(this.k.memory.buffer, this.labels, this.n).set(labels.subarray(0, this.n));
  }

  /** A results file's scores into the scores column: its lines, or -1 unless clean. */
  readScores(bytes: Buffer): number {
    this.place(bytes);
    return this.k.scanScores(this.files, bytes.length, this.starts, this.ends, this.table, this.mask, this.scores, this.n);
  }

  /** The class whose labels are at `labels` and scores in the scores column. */
  evaluate(labels: number, wantAp: boolean, ndet: number): ClsKernelClass {
    const k = this.k;
    const ap = k.evaluate(this.n, this.scores, labels, this.keys, this.order, this.tmp, this.hist, this.recall, this.precision, this.mpre, wantAp ? 1 : 0);
    return {
      recall: new Float64Array(k.memory.buffer, this.recall, this.n).slice(),
      precision: new Float64Array(k.memory.buffer, this.precision, this.n).slice(),
      ap: wantAp ? ap : NaN,
      npos: k.npos.value,
      ndet,
    };
  }
}

/** Grows the kernel's memory to `bytes`; a memory that cannot grow (past 4 GiB, or none left) ends the kernel's run. */
function grow(k: KernelExports, bytes: number): void {
  const have = k.memory.buffer.byteLength;
  if (bytes <= have) return;
  try {
    k.memory.grow(Math.ceil((bytes - have) / 65536));
  } catch {
    throw new KernelOutOfMemory();
  }
}

/** The kernel's memory could not grow: the JavaScript path reads the run (and reports what it finds). */
class KernelOutOfMemory extends Error {}

/** `run()`, or undefined when the kernel's memory could not grow. */
function withinMemory<T>(run: () => T | undefined): T | undefined {
  try {
    return run();
  } catch (e) {
    if (e instanceof KernelOutOfMemory) return undefined;
    throw e;
  }
}

/** A reader of whole files that gives undefined on any problem or on bytes that are not UTF-8 (left to the JavaScript path). */
function cleanReader(): (file: string) => Buffer | undefined {
  const trial = new ProblemCollector();
  const scratch = scratchBuffer();
  return (file) => {
    const bytes = readBytesInput(file, 'a text file', trial, undefined, scratch);
    return bytes !== undefined && trial.size === 0 && isUtf8(bytes) ? bytes : undefined;
  };
}

/**
 * Reads `lists[k]` and `results[k]` and evaluates class k, for every k, through the kernel; `undefined`
 * when anything is not the clean case (then nothing has been reported: read the task the JavaScript way).
 * `wantAp`: compute VOCap too.
 */
export function evaluateClsWithKernel(lists: readonly string[], results: readonly string[], wantAp: boolean): ClsKernelRun | undefined {
  return withinMemory(() => readAndEvaluate(lists, results, wantAp));
}

function readAndEvaluate(lists: readonly string[], results: readonly string[], wantAp: boolean): ClsKernelRun | undefined {
  const classes = lists.length;
  if (classes === 0 || results.length !== classes) return undefined;
  const read = cleanReader();
  const first = read(lists[0]);
  const kernel = first && ClsKernel.fromFirstList(first);
  if (!kernel) return undefined;
  const out: ClsKernelClass[] = [];
  let evaluateMs = 0;
  for (let k = 0; k < classes; k++) {
    if (k > 0) {
      const list = read(lists[k]);
      if (list === undefined || !kernel.readList(list)) return undefined;
    }
    const bytes = read(results[k]);
    const ndet = bytes ? kernel.readScores(bytes) : -1;
    if (ndet < 0) return undefined;
    const t = nowMs();
    out.push(kernel.evaluate(k === 0 ? kernel.labels0 : kernel.labels, wantAp, ndet));
    evaluateMs += nowMs() - t;
  }
  return { classes: out, evaluateMs };
}

/**
 * The kernel of lists that share their ids: the byte spans they were read into, or (lists from the cache,
 * one key array) the keys written out as bytes; undefined when they do not share them.
 */
function kernelOfLists(lists: readonly LabelledList[]): ClsKernel | undefined {
  const first = lists[0];
  const index = first.byteKeys;
  if (index !== undefined) {
    if (lists.some((l) => l.byteKeys !== index) || index.size !== index.count) return undefined;
    return ClsKernel.fromKeys(index.bytes, index.starts, index.ends, index.count);
  }
  const keys = first.keys;
  if (lists.some((l) => l.byteKeys !== undefined || l.keys !== keys)) return undefined;
  const { bytes, starts, ends } = keyBytes(keys);
  return ClsKernel.fromKeys(bytes, starts, ends, keys.length);
}

/**
 * `evaluateClsWithKernel` with the lists given (read before, from the list cache or the JavaScript
 * readers): only the results files are read. The lists must share one set of ids (as the class lists of a
 * set do), else undefined.
 */
export function evaluateClsResultsWithKernel(lists: readonly LabelledList[], results: readonly string[], wantAp: boolean): ClsKernelRun | undefined {
  return withinMemory(() => readResultsAndEvaluate(lists, results, wantAp));
}

function readResultsAndEvaluate(lists: readonly LabelledList[], results: readonly string[], wantAp: boolean): ClsKernelRun | undefined {
  const classes = lists.length;
  if (classes === 0 || results.length !== classes) return undefined;
  const kernel = kernelOfLists(lists);
  if (!kernel || lists.some((l) => l.labels.length !== kernel.n)) return undefined;
  const read = cleanReader();
  const out: ClsKernelClass[] = [];
  let evaluateMs = 0;
  for (let k = 0; k < classes; k++) {
    kernel.setLabels(lists[k].labels);
    const bytes = read(results[k]);
    const ndet = bytes ? kernel.readScores(bytes) : -1;
    if (ndet < 0) return undefined;
    const t = nowMs();
    out.push(kernel.evaluate(kernel.labels, wantAp, ndet));
    evaluateMs += nowMs() - t;
  }
  return { classes: out, evaluateMs };
}
