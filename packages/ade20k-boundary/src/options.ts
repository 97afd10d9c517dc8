import { DEFAULT_SEED } from '@cvdevkit/boundary';
import { usageError } from '@cvdevkit/core';
import { ADE20K_CLASS_COUNT } from './classes.js';

/** Options of `ade20k/boundary` (CLI flags are the kebab-case names: `--counts-out`, `--debug-counts`). */
export interface Ade20kBoundaryOptions {
  /** The ground-truth folder (`annotations_boundary/validation`): one `<image>.mat` per image. */
  gt: string;
  /** The predictions folder holding `class_001` … `class_150`, each with `<image>.png`. */
  pred: string;
  /** Seed of correspondPixels' random outlier graph, reset at every call (default 12345). */
  seed?: number;
  /** Evaluate only slice `i` of `n` (1-based, `"2/3"`) of the work units; needs `countsOut`. */
  shard?: string;
  /** Where to write the counts file (JSON; gzip when the name ends in `.gz`). */
  countsOut?: string;
  /** Evaluate a subset of the classes, e.g. `"1-10,57"` (debugging; the score is then over that subset). */
  classes?: string;
  /** Put the per-(class, image) counts in `report.extra.counts`. */
  debugCounts?: boolean;
}

/** Options of `ade20k/boundary-merge`. */
export interface Ade20kBoundaryMergeOptions {
  /** Comma-separated counts files, or a directory whose `*.json` / `*.json.gz` files are merged. */
  counts: string;
  /** Put the per-(class, image) counts in `report.extra.counts`. */
  debugCounts?: boolean;
}

declare module '@cvdevkit/core' {
  interface TaskRegistry {
    'ade20k/boundary': Ade20kBoundaryOptions;
    'ade20k/boundary-merge': Ade20kBoundaryMergeOptions;
  }
}

/** The seed of correspondPixels' random outlier graph (defined once, in @cvdevkit/boundary). */
export { DEFAULT_SEED };

/** Parses a class list such as `"1-10,57"` into sorted unique 1-based class ids in 1..150. */
export function parseClassList(text: string, classCount = ADE20K_CLASS_COUNT): number[] {
  const out = new Set<number>();
  const parts = text.split(',').map((p) => p.trim());
  if (parts.every((p) => p === '')) throw usageError(`--classes: expected a list such as "1-10,57", found "${text}"`, 'usage/classes');
  for (const part of parts) {
    if (part === '') continue;
    const m = /^(?:class_)?(\d+)(?:\s*-\s*(?:class_)?(\d+))?$/.exec(part);
    if (!m) throw usageError(`--classes: expected a number or a range "a-b", found "${part}"`, 'usage/classes');
    const a = Number(m[1]);
    const b = m[2] === undefined ? a : Number(m[2]);
    if (a < 1 || b > classCount || a > b) {
      throw usageError(`--classes: expected classes in 1..${classCount} (ranges ascending), found "${part}"`, 'usage/classes');
    }
    for (let c = a; c <= b; c++) out.add(c);
  }
  return [...out].sort((x, y) => x - y);
}

/** Checks the seed: an integer in 0 .. 2^48-1 (erand48's state). */
export function checkSeed(seed: unknown): number {
  if (seed === undefined) return DEFAULT_SEED;
  if (typeof seed !== 'number' || !Number.isSafeInteger(seed) || seed < 0 || seed >= 2 ** 48) {
    throw usageError(`--seed: expected an integer in 0 .. 2^48-1, found ${String(seed)}`, 'usage/seed');
  }
  return seed;
}
