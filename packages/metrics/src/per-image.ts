import { deflateRawSync, inflateRawSync } from 'node:zlib';

/**
 * Per-image sufficient statistics (analysis.md §2): what `cvdevkit compare` needs to recompute a task's
 * official metric on a bootstrap replicate of the test images without re-reading or re-matching the
 * submission. Stored by `eval` in `report.extra.perImage` when the run context asks for it
 * (`perImage: true`, CLI `eval --per-image`).
 *
 * Numeric arrays are packed: little-endian bytes of the typed array, raw-DEFLATE compressed, base64
 * (`PackedArray`). Kinds:
 * - `ranked` (AP tasks: VOC cls/det/action, ILSVRC DET/VID): per class, the ranked predictions in the
 *   official order: `image` (u32 image index), `flags` (u8: bits 0–1 outcome 1 = TP, 2 = FP, 0 = ignored
 *   (difficult / blacklisted / label 0); bit 2 set = the first entry of an expansion block), `score`
 *   (f64); the positives as a sparse list (`posImage` u32, `posCount` u32). A replicate repeats each
 *   block `w[image]` times in place (the order the official sort gives repeated images listed
 *   consecutively) and never re-sorts.
 * - `confusion` (VOC seg): per image the non-zero cells of its confusion matrix (`offsets` u32 n + 1,
 *   `cells` u32 = gt·labels + result, `counts` f64).
 * - `boundary` (ADE20K): per non-trivial (image, class) the per-threshold counts cntR, sumR, cntP, sumP.
 * - `clsloc` (ILSVRC CLS-LOC): per image its label count, guess slots, first zero guess, and per label
 *   column the first guess naming it (classification) and the first guess localising it (localisation);
 *   the blacklist as a count per image. A replicate recomputes the official `n(1)`, label width, guess
 *   count and blacklist size from its own images.
 */
export { PER_IMAGE_SCHEMA, type SummaryRule } from '@cvdevkit/core';
import { inputError, type PerImageStatistics } from '@cvdevkit/core';

export type PackedType = 'u8' | 'u32' | 'f64';

export interface PackedArray {
  type: PackedType;
  length: number;
  /** base64 of the raw-DEFLATE-compressed little-endian bytes. */
  data: string;
}

const CTORS = { u8: Uint8Array, u32: Uint32Array, f64: Float64Array } as const;

/** Packs a typed array (the machine is little-endian: Node on x86-64 / arm64). */
export function packArray(values: Uint8Array | Uint32Array | Float64Array): PackedArray {
  const type: PackedType = values instanceof Uint8Array ? 'u8' : values instanceof Uint32Array ? 'u32' : 'f64';
  const bytes = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
  return { type, length: values.length, data: deflateRawSync(bytes, { level: 6 }).toString('base64') };
}

/** The largest packed array `unpackArray` inflates (bytes): a report is a file people send each other. */
export const MAX_PACKED_BYTES = 256 * 1024 * 1024;

/**
 * Unpacks a `PackedArray`. The inflated size is capped by what the header declares (`length` values of
 * `type`), so a deflate bomb stops at that size; a header that declares more than `MAX_PACKED_BYTES`, an
 * unknown type or data that is not raw DEFLATE throw a RangeError saying which.
 */
export function unpackArray(packed: PackedArray): Uint8Array | Uint32Array | Float64Array {
  const ctor = Object.hasOwn(CTORS, packed.type) ? CTORS[packed.type] : undefined;
  if (!ctor) throw new RangeError(`unknown packed array type "${String(packed.type)}"`);
  const n = packed.length;
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`packed array length ${JSON.stringify(n)} is not a count`);
  const bytes = n * ctor.BYTES_PER_ELEMENT;
  if (bytes > MAX_PACKED_BYTES) throw new RangeError(`packed array declares ${bytes} bytes, more than the ${MAX_PACKED_BYTES} allowed`);
  if (typeof packed.data !== 'string') throw new RangeError('packed array data is not a base64 string');
  let raw: Buffer;
  try {
    // one byte more than declared: a longer stream is detected without inflating it whole
    raw = inflateRawSync(Buffer.from(packed.data, 'base64'), { maxOutputLength: bytes + 1 });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new RangeError(code === 'ERR_BUFFER_TOO_LARGE' ? `packed array inflates to more than the ${bytes} bytes its length declares` : 'packed array data is not raw DEFLATE', { cause: e });
  }
  if (raw.byteLength !== bytes) throw new RangeError(`packed array holds ${raw.byteLength} bytes, its length ${n} declares ${bytes}`);
  const copy = new Uint8Array(raw.byteLength);
  copy.set(raw);
  return new ctor(copy.buffer, 0, n);
}

export const unpackU32 = (p: PackedArray): Uint32Array => unpackArray(p) as Uint32Array;
export const unpackU8 = (p: PackedArray): Uint8Array => unpackArray(p) as Uint8Array;
export const unpackF64 = (p: PackedArray): Float64Array => unpackArray(p) as Float64Array;

/** Outcome codes in `flags` bits 0–1. */
export const OUTCOME_IGNORED = 0;
export const OUTCOME_TP = 1;
export const OUTCOME_FP = 2;
export const BLOCK_START = 4;

/** The fields every kind shares (core's `PerImageStatistics`). */
export type PerImageBase = PerImageStatistics;

export interface RankedClassStats {
  key: string;
  image: PackedArray;
  flags: PackedArray;
  score: PackedArray;
  posImage: PackedArray;
  posCount: PackedArray;
}

export interface RankedPerImage extends PerImageBase {
  kind: 'ranked';
  /** The AP function (`ap-voc2010` all points, `ap-voc2007` 11 points). */
  ap: string;
  classes: RankedClassStats[];
}

export interface ConfusionPerImage extends PerImageBase {
  kind: 'confusion';
  labels: string[];
  offsets: PackedArray;
  cells: PackedArray;
  counts: PackedArray;
}

export interface BoundaryPerImage extends PerImageBase {
  kind: 'boundary';
  thresholds: number[];
  /** Class keys (all classes of the report, in row order). */
  classes: string[];
  /** Entries: image index, class position, then `4·T` counts (cntR, sumR, cntP, sumP, each T values). */
  entryImage: PackedArray;
  entryClass: PackedArray;
  counts: PackedArray;
}

/** `clsFirst` / `locFirst` code: no guess names (classification) or localises (localisation) the label. */
export const CLSLOC_NONE = 255;
/** `locFirst` code: the official eval_clsloc.m fails when it visits this column (a guess names the label but no box of it, or an unknown WNID). */
export const CLSLOC_FAIL = 254;

export interface ClsLocPerImage extends PerImageBase {
  kind: 'clsloc';
  /** Row keys: the guess counts "1".."5". */
  classes: string[];
  /** Which error the rows' values are: `locError` (with ground-truth boxes) or `clsError`. */
  error: 'locError' | 'clsError';
  /** The widest ground-truth row (`size(gt_labels, 2)`): the stride of `clsFirst` / `locFirst`. */
  width: number;
  /** u32 per image: its label count n(i). */
  labelCount: PackedArray;
  /** u8 per image: its guesses on the prediction line (at most 5; `dlmread` zero-pads the others). */
  slots: PackedArray;
  /** u8 per image: the first guess with label 0 (an explicit 0 or the padding), else `slots`. */
  zeroGuess: PackedArray;
  /** u8 per image × width: column j < n(i): the first guess naming gt(i, j), or CLSLOC_NONE. */
  clsFirst: PackedArray;
  /** u8 per image × width: column j < n(i): the first guess localising gt(i, j), CLSLOC_NONE or CLSLOC_FAIL (blacklisted images: unused). */
  locFirst?: PackedArray;
  /** u32 per image: how often the blacklist lists it (duplicates count twice, as `length(blacklist)`). */
  blacklisted?: PackedArray;
  /** Blacklist entries beyond the last image: they exclude nothing but still reduce the denominator. */
  blacklistBeyond?: number;
}

export type PerImageStats = RankedPerImage | ConfusionPerImage | BoundaryPerImage | ClsLocPerImage;

/**
 * `stats` as the layout `kind` (what a task's `replicate` hook checks first): an input error naming the
 * task and both kinds when a report holds another task's statistics.
 */
export function perImageOfKind<K extends PerImageStats['kind']>(stats: PerImageStatistics, kind: K, task: string): Extract<PerImageStats, { kind: K }> {
  if (stats.kind !== kind) {
    throw inputError({ code: 'input/not-comparable', field: 'extra.perImage.kind', expected: `per-image statistics of kind "${kind}" (what ${task} writes)`, found: JSON.stringify(stats.kind) });
  }
  return stats as Extract<PerImageStats, { kind: K }>;
}

/** One class's ranked outcomes, as a plugin collects them. */
export interface RankedClassInput {
  key: string;
  /** Image index of each ranked entry (official order). */
  image: ArrayLike<number>;
  /** Outcome (OUTCOME_*) of each ranked entry. */
  outcome: ArrayLike<number>;
  score: ArrayLike<number>;
  /** Positives per image (length = images). */
  positives: ArrayLike<number>;
  /**
   * Block rule: 'entry' = every entry is its own block (VOC: ties keep file / list order, so copies of
   * one line are adjacent); 'image-run' = a block is a maximal run of entries with the same image and
   * equal score (ILSVRC: ties broken by image, then file order, so copies of an image are adjacent);
   * 'given' = `blockStart[i]` non-zero marks the first entry of a block (VOC layout: one block per
   * layout, whose copies are adjacent).
   */
  blocks: 'entry' | 'image-run' | 'given';
  blockStart?: ArrayLike<number>;
}

function sameScore(a: number, b: number): boolean {
  return a === b || (Number.isNaN(a) && Number.isNaN(b));
}

/** Packs one class of a ranked task. */
export function packRankedClass(c: RankedClassInput): RankedClassStats {
  const n = c.image.length;
  const image = Uint32Array.from(c.image);
  const score = Float64Array.from(c.score);
  const flags = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const start =
      c.blocks === 'given' ? c.blockStart![i] !== 0 : c.blocks === 'entry' || i === 0 || image[i] !== image[i - 1] || !sameScore(score[i], score[i - 1]);
    flags[i] = c.outcome[i] | (start ? BLOCK_START : 0);
  }
  const posImage: number[] = [];
  const posCount: number[] = [];
  for (let i = 0; i < c.positives.length; i++) {
    if (c.positives[i] !== 0) {
      posImage.push(i);
      posCount.push(c.positives[i]);
    }
  }
  return {
    key: c.key,
    image: packArray(image),
    flags: packArray(flags),
    score: packArray(score),
    posImage: packArray(Uint32Array.from(posImage)),
    posCount: packArray(Uint32Array.from(posCount)),
  };
}

/** A short hash of the ground truth's identity (sha256 of its parts, hex, first 32 characters). */
export function fingerprint(parts: readonly (string | ArrayLike<number>)[]): string {
  // node:crypto is loaded on first use (not with the package: most runs never fingerprint)
  const h = process.getBuiltinModule('node:crypto').createHash('sha256');
  for (const p of parts) {
    if (typeof p === 'string') h.update(`s${p.length}:${p}`);
    else {
      const a = Float64Array.from(p);
      h.update(`a${a.length}:`);
      h.update(new Uint8Array(a.buffer));
    }
  }
  return h.digest('hex').slice(0, 32);
}
