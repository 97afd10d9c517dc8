import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describeValue, ensureOutputDirSync, parseJsonInput, fsWriteError, gunzipInput, isGzip, readInputBytesSync, visibleQuote } from '@cvdevkit/formats';
import { inputError, usageError, ProblemCollector, type Problem } from '@cvdevkit/core';
import { classKey } from './classes.js';

/** Four per-threshold count arrays (what the engine returns per (image, class)). */
export interface CountArrays {
  cntR: ArrayLike<number>;
  sumR: ArrayLike<number>;
  cntP: ArrayLike<number>;
  sumP: ArrayLike<number>;
}

/**
 * The counts of one (image, class) as kept in memory: integer arrays, `null` when all zero. A full ADE
 * run has 300,000 units; most have only `sumP` (no ground truth of that class in the image), so this
 * keeps a run's counts at about 4 bytes per nonzero array entry.
 */
export interface StoredCounts {
  cls: number;
  cntR: Int32Array | null;
  sumR: Int32Array | null;
  cntP: Int32Array | null;
  sumP: Int32Array | null;
}

function storeArray(a: ArrayLike<number>): Int32Array | null {
  let zero = true;
  for (let i = 0; i < a.length; i++) {
    const v = a[i];
    if (!(Number.isInteger(v) && v >= 0 && v <= 0x7fffffff)) throw new RangeError(`count ${v} is not a non-negative 32-bit integer`);
    if (v !== 0) zero = false;
  }
  return zero ? null : Int32Array.from(a);
}

/** Compacts one unit's counts (see StoredCounts). */
export function storeCounts(cls: number, c: CountArrays): StoredCounts {
  return { cls, cntR: storeArray(c.cntR), sumR: storeArray(c.sumR), cntP: storeArray(c.cntP), sumP: storeArray(c.sumP) };
}

/** One stored array as doubles (`zero` when it was all zero). */
export function expandArray(a: Int32Array | null, zero: Float64Array): Float64Array {
  return a ? Float64Array.from(a) : zero;
}

/** The name in a counts file's `format` field. */
export const COUNTS_FORMAT = 'cvdevkit.ade20k-boundary.counts';
export const COUNTS_VERSION = 1;

/**
 * Per-(image, class) counts of a run or of a shard: everything needed to compute the report, so that
 * shards merged later give the same numbers, bit for bit, as one run.
 */
export interface BoundaryCountSet {
  seed: number;
  thresholds: Float64Array;
  /** Every image of the evaluation, sorted (the GT folder's `*.mat` names without extension). */
  images: string[];
  /** The evaluated classes (1-based, ascending). */
  classes: number[];
  /** Counts keyed by `entryKey(imageIndex, cls)`; present for every unit that was evaluated. */
  entries: Map<string, StoredCounts>;
  /** Shard that produced the set (undefined = a whole run or a merge). */
  shard?: { index: number; count: number };
}

export function entryKey(imageIndex: number, cls: number): string {
  return `${imageIndex}:${cls}`;
}

interface CountsFileEntry {
  image: number;
  class: number;
  cntR?: number[];
  sumR?: number[];
  cntP?: number[];
  sumP?: number[];
}

/** The JSON of a counts file (`version` 1). All-zero count arrays are left out of `entries`. */
export interface CountsFile {
  format: typeof COUNTS_FORMAT;
  version: number;
  task: 'ade20k/boundary';
  producer?: string;
  seed: number;
  nthresh: number;
  thresholds: number[];
  images: string[];
  classes: number[];
  shard?: { index: number; count: number };
  entries: CountsFileEntry[];
}

const FIELDS = ['cntR', 'sumR', 'cntP', 'sumP'] as const;

/** The counts file object of a set (entries in image, then class order). */
export function countsToFile(set: BoundaryCountSet, producer?: string): CountsFile {
  const entries: CountsFileEntry[] = [];
  const keys = [...set.entries.keys()]
    .map((k) => k.split(':').map(Number) as [number, number])
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  for (const [image, cls] of keys) {
    const c = set.entries.get(entryKey(image, cls))!;
    const e: CountsFileEntry = { image, class: cls };
    for (const f of FIELDS) {
      const a = c[f];
      if (a) e[f] = Array.from(a);
    }
    entries.push(e);
  }
  const file: CountsFile = {
    format: COUNTS_FORMAT,
    version: COUNTS_VERSION,
    task: 'ade20k/boundary',
    ...(producer ? { producer } : {}),
    seed: set.seed,
    nthresh: set.thresholds.length,
    thresholds: Array.from(set.thresholds),
    images: set.images,
    classes: set.classes,
    ...(set.shard ? { shard: set.shard } : {}),
    entries,
  };
  return file;
}

/** Writes a counts file (gzip-compressed when the name ends in `.gz`); creates the folder. */
export function writeCountsFile(path: string, set: BoundaryCountSet, producer?: string): void {
  const text = JSON.stringify(countsToFile(set, producer));
  ensureOutputDirSync(dirname(path), 'the counts file');
  try {
    writeFileSync(path, path.endsWith('.gz') ? gzipSync(text) : text);
  } catch (e) {
    throw fsWriteError(e, path, 'the counts file');
  }
}

function bad(file: string, field: string, expected: string, found: unknown): never {
  const shown = typeof found === 'string' ? visibleQuote(found) : Array.isArray(found) ? firstBadCount(found) : describeValue(found);
  throw inputError({ code: 'input/counts-file', file, field, expected, found: shown });
}

/** An array of counts in a message: its length and its first offending value with its position. */
function firstBadCount(a: unknown[]): string {
  const i = a.findIndex((x) => !(Number.isInteger(x) && (x as number) >= 0 && (x as number) <= 0x7fffffff));
  return i < 0 ? `an array of ${a.length}` : `an array of ${a.length} with ${describeValue(a[i], 30)} at position ${i + 1}`;
}

function isCountArray(a: unknown, n: number): a is number[] {
  return Array.isArray(a) && a.length === n && a.every((x) => Number.isInteger(x) && x >= 0 && x <= 0x7fffffff);
}

/** Parses and checks the JSON of a counts file. */
export function parseCountsFile(text: string, file: string): BoundaryCountSet {
  const json = parseJsonInput(text, file, 'a JSON counts file written by ade20k/boundary --counts-out', 'input/counts-file');
  const o = json as Partial<CountsFile>;
  if (typeof o !== 'object' || o === null || o.format !== COUNTS_FORMAT) bad(file, 'format', `"${COUNTS_FORMAT}"`, o?.format);
  if (o.version !== COUNTS_VERSION) bad(file, 'version', String(COUNTS_VERSION), o.version);
  // a file of another task (issue 25): never merged into these numbers
  if (o.task !== undefined && o.task !== 'ade20k/boundary') bad(file, 'task', '"ade20k/boundary"', o.task);
  if (typeof o.seed !== 'number' || !Number.isSafeInteger(o.seed)) bad(file, 'seed', 'an integer', o.seed);
  if (typeof o.nthresh !== 'number' || !Number.isInteger(o.nthresh) || o.nthresh < 1) bad(file, 'nthresh', 'a positive integer', o.nthresh);
  const n = o.nthresh;
  if (!Array.isArray(o.thresholds) || o.thresholds.length !== n || !o.thresholds.every((t) => typeof t === 'number')) {
    bad(file, 'thresholds', `${n} numbers`, o.thresholds);
  }
  if (!Array.isArray(o.images) || !o.images.every((s) => typeof s === 'string')) bad(file, 'images', 'a list of image names', o.images);
  if (!Array.isArray(o.classes) || !o.classes.every((c) => Number.isInteger(c) && c >= 1)) bad(file, 'classes', 'a list of class numbers', o.classes);
  if (!Array.isArray(o.entries)) bad(file, 'entries', 'a list', o.entries);
  const classes = new Set(o.classes);
  const entries = new Map<string, StoredCounts>();
  o.entries.forEach((e, i) => {
    const where = `entries[${i}]`;
    if (typeof e !== 'object' || e === null) bad(file, where, 'an object', e);
    if (!Number.isInteger(e.image) || e.image < 0 || e.image >= o.images!.length) bad(file, `${where}.image`, `an image index 0..${o.images!.length - 1}`, e.image);
    if (!classes.has(e.class)) bad(file, `${where}.class`, 'one of the file\'s classes', e.class);
    const c: StoredCounts = { cls: e.class, cntR: null, sumR: null, cntP: null, sumP: null };
    for (const f of FIELDS) {
      const a = e[f];
      if (a === undefined) continue;
      if (!isCountArray(a, n)) bad(file, `${where}.${f}`, `${n} non-negative integers`, a);
      c[f] = a.some((v) => v !== 0) ? Int32Array.from(a) : null;
    }
    const key = entryKey(e.image, e.class);
    if (entries.has(key)) bad(file, where, 'each (image, class) once', `a second entry for ${o.images![e.image]} ${classKey(e.class)}`);
    entries.set(key, c);
  });
  const shard = o.shard && typeof o.shard === 'object' && Number.isInteger(o.shard.index) && Number.isInteger(o.shard.count) ? { index: o.shard.index, count: o.shard.count } : undefined;
  return { seed: o.seed, thresholds: Float64Array.from(o.thresholds), images: o.images, classes: o.classes, entries, ...(shard ? { shard } : {}) };
}

/** Reads one counts file (plain or gzip JSON). */
export function readCountsFile(path: string): BoundaryCountSet {
  const bytes = readInputBytesSync(path, { kind: 'counts', expected: 'a counts file' });
  const text = (isGzip(bytes) ? gunzipInput(bytes, path, 'a counts file', 'counts-unzipped') : bytes).toString('utf8');
  return parseCountsFile(text, path);
}

/** Expands `--counts`: a comma-separated list of files, or directories (their `*.json` / `*.json.gz` files, sorted). */
export function resolveCountsFiles(spec: string | readonly string[]): string[] {
  const out: string[] = [];
  const parts = typeof spec === 'string' ? spec.split(',').map((s) => s.trim()) : spec;
  for (const part of parts.filter((s) => s !== '')) {
    let isDir: boolean;
    try {
      isDir = statSync(part).isDirectory();
    } catch {
      isDir = false;
    }
    if (isDir) {
      const files = readdirSync(part)
        .filter((f) => f.endsWith('.json') || f.endsWith('.json.gz'))
        .sort();
      if (files.length === 0) throw inputError({ code: 'input/counts-file', file: part, expected: 'counts files (*.json or *.json.gz) in the folder', found: 'none' });
      for (const f of files) out.push(join(part, f));
    } else out.push(part);
  }
  if (out.length === 0) throw usageError('--counts: expected one or more counts files (comma-separated) or a folder', 'usage/counts');
  return out;
}

function sameNumbers(a: ArrayLike<number> | null, b: ArrayLike<number> | null): boolean {
  if (a === null || b === null) return a === b;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}

/**
 * Combines counts sets (shards) into one complete set. They must come from the same evaluation (seed,
 * thresholds, images, classes); together they must cover every (image, class) exactly once (a unit present
 * in two files must have identical counts). The result scores bit-identically to a single run.
 */
export function mergeCountSets(sets: readonly { file: string; set: BoundaryCountSet }[]): BoundaryCountSet {
  if (sets.length === 0) throw usageError('merge: expected at least one counts file', 'usage/counts');
  const first = sets[0];
  const problems = new ProblemCollector();
  const mismatch = (file: string, field: string, expected: string, found: string): void =>
    problems.add({ code: 'input/counts-mismatch', file, field, expected: `${expected} (as in ${first.file})`, found });
  for (const { file, set } of sets.slice(1)) {
    if (set.seed !== first.set.seed) mismatch(file, 'seed', String(first.set.seed), String(set.seed));
    if (!sameNumbers(set.thresholds, first.set.thresholds)) mismatch(file, 'thresholds', `the same ${first.set.thresholds.length} thresholds`, `${set.thresholds.length} different ones`);
    if (set.images.length !== first.set.images.length || set.images.some((im, i) => im !== first.set.images[i])) {
      mismatch(file, 'images', `the same ${first.set.images.length} images`, `${set.images.length} images${set.images.length === first.set.images.length ? ' with other names' : ''}`);
    }
    if (!sameNumbers(set.classes, first.set.classes)) mismatch(file, 'classes', `classes ${first.set.classes.length}`, `${set.classes.length} classes (another --classes?)`);
  }
  problems.throwIfAny();
  const entries = new Map<string, StoredCounts>();
  const owner = new Map<string, string>();
  for (const { file, set } of sets) {
    for (const [key, c] of set.entries) {
      const prev = entries.get(key);
      if (prev) {
        if (!FIELDS.every((f) => sameNumbers(prev[f], c[f]))) {
          const [im, cls] = key.split(':').map(Number);
          problems.add({
            code: 'input/counts-conflict',
            file,
            field: `${first.set.images[im]} ${classKey(cls)}`,
            expected: `the same counts as in ${owner.get(key)}`,
            found: 'different counts',
          });
        }
        continue;
      }
      entries.set(key, c);
      owner.set(key, file);
    }
  }
  problems.throwIfAny();
  const { images, classes } = first.set;
  const missing: Problem[] = [];
  let missingCount = 0;
  for (let im = 0; im < images.length; im++) {
    for (const cls of classes) {
      if (entries.has(entryKey(im, cls))) continue;
      missingCount++;
      if (missing.length < 5) missing.push({ code: 'input/counts-incomplete', field: `${images[im]} ${classKey(cls)}` });
    }
  }
  if (missingCount > 0) {
    const shards = sets.map((s) => (s.set.shard ? `${s.set.shard.index}/${s.set.shard.count}` : 'whole')).join(', ');
    throw inputError({
      code: 'input/counts-incomplete',
      file: sets.map((s) => s.file).join(', '),
      expected: `counts for all ${images.length * classes.length} (image, class) units`,
      found: `${missingCount} missing (first: ${missing.map((p) => p.field).join('; ')}); shards given: ${shards}`,
      hint: 'run the missing shards (--shard i/n) and merge all their counts files',
    });
  }
  return { seed: first.set.seed, thresholds: first.set.thresholds, images, classes, entries };
}

/** Reads counts files and merges them (see `mergeCountSets`). */
export function readAndMergeCountsFiles(files: readonly string[]): BoundaryCountSet {
  const collector = new ProblemCollector();
  const sets: { file: string; set: BoundaryCountSet }[] = [];
  for (const file of files) {
    try {
      sets.push({ file, set: readCountsFile(file) });
    } catch (e) {
      collector.addError(e);
    }
  }
  collector.throwIfAny();
  return mergeCountSets(sets);
}
