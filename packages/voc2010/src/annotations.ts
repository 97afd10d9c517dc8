import { statSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { DevkitError, isDevkitError, mapInWorkers, resolveWorkerScript, type Problem, type ProblemCollector, type RunContext } from '@cvdevkit/core';
import { readInputTextSync, visibleQuote } from '@cvdevkit/formats';
import { parsePascalAnnotation, type PascalObject } from '@cvdevkit/formats/xml';
import { PACKAGE_VERSION } from './version.js';

/** A box: xmin, ymin, xmax, ymax (1-based pixel coordinates, as `str2double` reads them). */
export type VocBox = [number, number, number, number];

/** A person part (`<part>`): its class (`head`, `hand`, `foot`) and box. */
export interface VocPartRecord {
  name: string;
  bbox: VocBox;
}

/** One `<object>` as `VOCreadrecxml.m` reads it. */
export interface VocObjectRecord {
  /** `<name>` (the class). */
  name: string;
  /** `<pose>`, `''` for `Unspecified`. */
  pose: string;
  /** Flags are true only for the exact text `1`. */
  truncated: boolean;
  occluded: boolean;
  difficult: boolean;
  bbox: VocBox;
  parts: VocPartRecord[];
  /** `<actions>` flags, when present. */
  actions?: Record<string, boolean>;
}

/** The parts of an annotation the evaluations use. */
export interface VocRecord {
  objects: VocObjectRecord[];
  /** `<size>` width and height, when the annotation has them (the analyses' object-size thresholds). */
  size?: { width: number; height: number };
}

const BOX = ['xmin', 'ymin', 'xmax', 'ymax'];

function checkBox(bbox: number[], text: readonly (string | undefined)[], file: string, field: string, problems: Problem[]): void {
  for (let k = 0; k < 4; k++) {
    if (Number.isNaN(bbox[k])) {
      const t = text[k];
      problems.push({ code: 'input/annotation', file, field: `${field}.bndbox.${BOX[k]}`, expected: 'a number', found: t === undefined ? `no <${BOX[k]}> element` : visibleQuote(t) });
      return;
    }
  }
}

function toObject(o: PascalObject, file: string, field: string, problems: Problem[]): VocObjectRecord {
  if (!o.name) problems.push({ code: 'input/annotation', file, field: `${field}.name`, expected: 'a class name', found: 'none' });
  checkBox(o.bbox, o.bboxText, file, field, problems);
  const rec: VocObjectRecord = {
    name: o.name,
    pose: o.pose,
    truncated: o.truncated,
    occluded: o.occluded,
    difficult: o.difficult,
    bbox: [o.bbox[0], o.bbox[1], o.bbox[2], o.bbox[3]],
    parts: o.parts.map((p, k) => {
      const pf = `${field}.part[${k + 1}]`;
      if (!p.name) problems.push({ code: 'input/annotation', file, field: `${pf}.name`, expected: 'a part name', found: 'none' });
      checkBox(p.bbox, p.bboxText, file, pf, problems);
      return { name: p.name, bbox: [p.bbox[0], p.bbox[1], p.bbox[2], p.bbox[3]] as VocBox };
    }),
  };
  if (o.actions) rec.actions = o.actions;
  return rec;
}

/**
 * Parses one annotation (`VOCreadrecxml.m` semantics through `@cvdevkit/formats`). Every object needs
 * a `<name>` and a numeric `<bndbox>`, and so does every `<part>`; other fields the official reader
 * requires (`folder`, `source`, `size`, …) are not used by any evaluation and are not checked, and an
 * annotation without objects is accepted (the official reader fails on it).
 */
export function parseVocRecord(text: string, file: string): VocRecord {
  const ann = parsePascalAnnotation(text, file);
  const problems: Problem[] = [];
  const objects = ann.objects.map((o, i) => toObject(o, file, `object[${i + 1}]`, problems));
  if (problems.length > 0) throw new DevkitError({ kind: 'input', ...problems[0], problems });
  return ann.size ? { objects, size: { width: ann.size.width, height: ann.size.height } } : { objects };
}

/** Reads and parses one annotation file (synchronously: thousands of small reads are faster so). */
export function readVocRecordSync(path: string): VocRecord {
  return parseVocRecord(readInputTextSync(path, { kind: 'xml', expected: 'an annotation file' }), path);
}

/** What the worker answers for a batch of paths: a record or the problems of each. */
export type RecordOrProblems = { record: VocRecord } | { problems: Problem[] };

export function readRecordBatch(paths: readonly string[]): RecordOrProblems[] {
  return paths.map((p) => {
    try {
      return { record: readVocRecordSync(p) };
    } catch (e) {
      if (isDevkitError(e) && e.kind === 'input') return { problems: e.problems };
      throw e;
    }
  });
}

/** Below this many files the worker threads cost more than they save. */
const WORKER_THRESHOLD = 1500;

interface CacheEntry {
  size: number;
  mtimeMs: number;
  record: VocRecord;
}
interface CacheFile {
  format: 'cvdevkit.voc2010.annotations';
  version: string;
  dir: string;
  entries: Record<string, CacheEntry>;
}

function cachePath(cacheDir: string, annotationsDir: string): string {
  const h = createHash('sha1').update(annotationsDir).digest('hex').slice(0, 16);
  return join(cacheDir, `voc2010-annotations-${h}.json`);
}

async function loadCache(file: string, annotationsDir: string): Promise<CacheFile | undefined> {
  try {
    const c = JSON.parse(await readFile(file, 'utf8')) as CacheFile;
    if (c.format !== 'cvdevkit.voc2010.annotations' || c.version !== PACKAGE_VERSION || c.dir !== annotationsDir) return undefined;
    return c;
  } catch {
    return undefined;
  }
}

export interface ReadRecordsOptions {
  /** The annotations folder (for the cache key). */
  annotationsDir: string;
  /** `id` → annotation path. */
  path: (id: string) => string;
  /** Progress label. */
  label?: string;
  /**
   * Other main-thread work (reading the results files) to run once the worker threads have been
   * given their share, so that it overlaps with their parsing. Always called exactly once.
   */
  meanwhile?: () => void | Promise<void>;
}

/**
 * Reads the annotations of `ids` (each once), returning the records in the same order; a record
 * is `undefined` where its file had a problem (added to `problems`). Uses worker threads for many
 * files when `context.workers > 1`, and a cache in `context.cacheDir` keyed by each file's size and
 * mtime and the plugin version (unlike the official cache, which is never invalidated).
 */
export async function readVocRecords(
  ids: readonly string[],
  options: ReadRecordsOptions,
  context: RunContext,
  problems: ProblemCollector,
): Promise<(VocRecord | undefined)[]> {
  const n = ids.length;
  const out = new Array<VocRecord | undefined>(n);
  const paths = ids.map(options.path);
  const progress = context.progress;
  progress.begin(options.label ?? 'reading annotations', n);
  const cached = context.cacheDir ? await recordsFromCache(ids, paths, options.annotationsDir, context.cacheDir, out) : undefined;
  const todo = cached ? cached.todo : Array.from({ length: n }, (_, i) => i);
  if (cached) progress.advance(n - todo.length);
  const handle = (i: number, r: RecordOrProblems): void => {
    if ('record' in r) out[i] = r.record;
    else for (const p of r.problems) problems.add(p);
  };
  if (todo.length >= WORKER_THRESHOLD && context.workers > 1) await parseWithWorkers(todo, paths, options, context, handle);
  else {
    await options.meanwhile?.();
    for (const i of todo) {
      if (context.signal.aborted) throw context.signal.reason ?? new Error('aborted');
      handle(i, readRecordBatch([paths[i]])[0]);
      progress.advance();
    }
  }
  progress.end();
  if (cached && todo.length > 0) await saveCache(cached, ids, out, options.annotationsDir, context.cacheDir!);
  return out;
}

/** What the cache gave: the records still to parse (`todo`) and what saving needs. */
interface CachedRecords {
  todo: number[];
  stats: ({ size: number; mtimeMs: number } | undefined)[];
  cache: CacheFile | undefined;
  cacheFile: string;
}

/** Fills `out` from the cache where a file's size and mtime still match; returns the rest to parse. */
async function recordsFromCache(ids: readonly string[], paths: string[], annotationsDir: string, cacheDir: string, out: (VocRecord | undefined)[]): Promise<CachedRecords> {
  const cacheFile = cachePath(cacheDir, annotationsDir);
  const cache = await loadCache(cacheFile, annotationsDir);
  const stats: ({ size: number; mtimeMs: number } | undefined)[] = new Array(ids.length);
  const todo: number[] = [];
  for (let i = 0; i < ids.length; i++) {
    let st;
    try {
      st = statSync(paths[i]);
    } catch {
      st = undefined;
    }
    stats[i] = st ? { size: st.size, mtimeMs: st.mtimeMs } : undefined;
    const e = cache?.entries[ids[i]];
    if (st && e && e.size === st.size && e.mtimeMs === st.mtimeMs) out[i] = e.record;
    else todo.push(i);
  }
  return { todo, stats, cache, cacheFile };
}

/** The main thread parses its share (after `meanwhile`) while (workers - 1) threads parse the rest. */
async function parseWithWorkers(todo: number[], paths: string[], options: ReadRecordsOptions, context: RunContext, handle: (i: number, r: RecordOrProblems) => void): Promise<void> {
  const progress = context.progress;
  const threads = Math.min(context.workers, 8) - 1;
  const mine = Math.ceil(todo.length / (threads + 1));
  const theirs = todo.slice(mine);
  const chunks: number[][] = [];
  const chunkSize = Math.max(1, Math.ceil(theirs.length / (threads * 4)));
  for (let k = 0; k < theirs.length; k += chunkSize) chunks.push(theirs.slice(k, k + chunkSize));
  const script = resolveWorkerScript(import.meta.url, './annotations.worker.js');
  const pending = mapInWorkers<string[], RecordOrProblems[]>(script, chunks.map((c) => c.map((i) => paths[i])), {
    workers: threads,
    signal: context.signal,
    onResult: (res, k) => {
      const chunk = chunks[k];
      for (let j = 0; j < chunk.length; j++) handle(chunk[j], res[j]);
      progress.advance(chunk.length);
    },
  });
  // Keep a rejection from being unhandled while the main thread is busy.
  pending.catch(() => undefined);
  try {
    await options.meanwhile?.();
    for (let k = 0; k < mine; k++) {
      const i = todo[k];
      handle(i, readRecordBatch([paths[i]])[0]);
      progress.advance();
    }
  } finally {
    await pending;
  }
}

/** Adds the newly parsed records to the cache file (atomically; a cache that cannot be written is only slower next time). */
async function saveCache(cached: CachedRecords, ids: readonly string[], out: (VocRecord | undefined)[], annotationsDir: string, cacheDir: string): Promise<void> {
  const entries: Record<string, CacheEntry> = cached.cache?.entries ?? {};
  let changed = false;
  for (const i of cached.todo) {
    const st = cached.stats[i];
    const rec = out[i];
    if (st && rec) {
      entries[ids[i]] = { size: st.size, mtimeMs: st.mtimeMs, record: rec };
      changed = true;
    }
  }
  if (!changed) return;
  try {
    await mkdir(cacheDir, { recursive: true });
    const tmp = `${cached.cacheFile}.${process.pid}.tmp`;
    const data: CacheFile = { format: 'cvdevkit.voc2010.annotations', version: PACKAGE_VERSION, dir: annotationsDir, entries };
    await writeFile(tmp, JSON.stringify(data));
    await rename(tmp, cached.cacheFile);
  } catch {
    // A cache that cannot be written is only slower next time.
  }
}
