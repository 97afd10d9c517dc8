/**
 * The joint histogram of an image pair counted by a small WebAssembly kernel (`histogram-kernel.wat`), the
 * pixels decoded straight into its memory (`gt` and `res`, `LabelStorage`s for `decodeLabelPng`). The same counts
 * as `accumulateSegHistogram` (confusion.ts), integers, so bit for bit; its tests and a fuzz test compare the two.
 *
 * Why WebAssembly: `voc2010/seg` runs on V8's baseline compilers only (the task's `optimisingCompiler: false`),
 * which saves the optimising compiler's memory (its code paged in, its compile zones: ~6 MiB of a run's peak);
 * this loop is the one part of the run that needs compiled code, and Liftoff compiles it before it runs.
 */
import type { LabelStorage } from '@cvdevkit/formats/png';
import { SEG_HISTOGRAM_SIZE } from './confusion.js';
import { instantiateKernel } from './histogram-kernel-wasm.js';

interface KernelExports {
  above: { value: number };
  accumulate(gt: number, res: number, n: number, maxLabel: number): number;
  unfilter(raw: number, width: number, height: number): number;
}

interface WasmMemory {
  buffer: ArrayBuffer;
  grow(pages: number): number;
}

/**
 * Calls of one instance's functions before the next instance takes over (same compiled module, same memory). V8
 * calls an exported function through a generic wrapper and, after 1,000 calls of one, compiles a wrapper for it
 * with its optimising compiler: ~2.4 MiB of peak memory, which is what running without that compiler saves.
 */
const CALLS_PER_INSTANCE = 900;

/** Where the pixel regions start: after the 441 32-bit counts, 8-byte aligned. */
const PIXELS_AT = 2048;
const PAGE = 1 << 16;
/** Regions grow in steps of this (a set of images of mixed sizes grows them a few times, by little). */
const STEP = 1 << 16;
const roundUp = (n: number): number => Math.ceil(n / STEP) * STEP;

/** What `SegHistogramKernel.accumulate` found (as `SegCount`). */
export interface KernelCount {
  counted: number;
  firstAbove: number;
}

/**
 * One thread's kernel and the pixel storage of its image pairs: the ground truth's region first, the result's
 * after it. `gt` is always taken before `res` within a pair, so the ground-truth region may move the result's (its
 * previous pixels are no longer used then); a result that needs more room than its region has gets an array of
 * its own (not counted by the kernel), and its region grows at the next ground truth.
 */
export class SegHistogramKernel {
  private readonly memory: WasmMemory;
  private k: KernelExports;
  private calls = 0;
  private gtRoom = 0;
  private resRoom = 0;
  private resWanted = 0;
  readonly gt: LabelStorage = { take: (n) => this.takeGt(n), unfilter: (raw, w, h) => this.unfilter(raw, w, h) };
  readonly res: LabelStorage = { take: (n) => this.takeRes(n), unfilter: (raw, w, h) => this.unfilter(raw, w, h) };

  constructor() {
    const { WebAssembly: wasm } = globalThis as unknown as { WebAssembly: { Memory: new (d: { initial: number }) => WasmMemory } };
    this.memory = new wasm.Memory({ initial: 1 });
    this.k = this.instance();
  }

  private instance(): KernelExports {
    return instantiateKernel({ env: { memory: this.memory } }) as KernelExports;
  }

  private takeGt(n: number): Uint8Array {
    const gtRoom = Math.max(this.gtRoom, roundUp(n));
    const resRoom = Math.max(this.resRoom, this.resWanted, gtRoom);
    const bytes = PIXELS_AT + gtRoom + resRoom;
    const have = this.memory.buffer.byteLength;
    if (bytes > have) this.memory.grow(Math.ceil((bytes - have) / PAGE));
    this.gtRoom = gtRoom;
    this.resRoom = resRoom;
    return new Uint8Array(this.memory.buffer, PIXELS_AT, n);
  }

  private takeRes(n: number): Uint8Array {
    if (n > this.resRoom) {
      this.resWanted = Math.max(this.resWanted, roundUp(n));
      return new Uint8Array(n);
    }
    return new Uint8Array(this.memory.buffer, PIXELS_AT + this.gtRoom, n);
  }

  /** `LabelStorage.unfilter` (the decoder has checked that `raw` holds every row), by the kernel, for scanlines in its memory whose filter types are all 0-4. */
  private unfilter(raw: Uint8Array, width: number, height: number): boolean {
    if (raw.buffer !== this.memory.buffer) return false;
    return this.call().unfilter(raw.byteOffset, width, height) === 1;
  }

  /** The instance to call (a new one every CALLS_PER_INSTANCE calls). */
  private call(): KernelExports {
    if (++this.calls > CALLS_PER_INSTANCE) {
      this.k = this.instance();
      this.calls = 1;
    }
    return this.k;
  }

  /**
   * Counts the pair into `into` (441 bins, overwritten: `accumulateSegHistogram` on a zeroed histogram), with
   * `maxLabel` as there; undefined when the pixels are not this kernel's (another storage, another size), for the
   * caller to count them the JavaScript way.
   */
  accumulate(into: Float64Array, gt: ArrayLike<number>, res: ArrayLike<number>, maxLabel: number): KernelCount | undefined {
    const memory = this.memory.buffer;
    if (!(gt instanceof Uint8Array) || !(res instanceof Uint8Array) || gt.buffer !== memory || res.buffer !== memory || gt.length !== res.length) return undefined;
    const k = this.call();
    const counted = k.accumulate(gt.byteOffset, res.byteOffset, gt.length, maxLabel);
    const firstAbove = k.above.value;
    const counts = new Uint32Array(memory, 0, SEG_HISTOGRAM_SIZE);
    for (let l = 0; l < SEG_HISTOGRAM_SIZE; l++) into[l] = counts[l];
    return { counted, firstAbove };
  }
}

let shared: SegHistogramKernel | null | undefined;

/** This thread's kernel; null where WebAssembly is not available (`--jitless`): the JavaScript path then. */
export function segHistogramKernel(): SegHistogramKernel | null {
  if (shared === undefined) {
    try {
      shared = new SegHistogramKernel();
    } catch {
      shared = null;
    }
  }
  return shared;
}
