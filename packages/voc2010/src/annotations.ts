import { DevkitError, chooseWorkerCount, isDevkitError, mapInWorkers, resolveWorkerScript, type Problem, type ProblemCollector, type RunContext } from '@cvdevkit/core';
import { cachedParse, inputLimit, listFolder, listedFileBuffer, readInputTextSync, readListedFile, visibleQuote, type ListedFolder } from '@cvdevkit/formats';
import { parsePascalAnnotation, scanPascalRecord, type PascalObject } from '@cvdevkit/formats/xml';
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

/**
 * One annotation file: the fast path (`readListedFile` + `scanPascalRecord` of `@cvdevkit/formats`: no stat,
 * no text decoding, no XML tree) for a regular file of `folder` in plain annotation XML whose objects all
 * have a name and a numeric box, else `readVocRecordSync` (the same record, or the file's problems).
 */
export function readVocRecordFast(path: string, folder: ListedFolder | undefined): VocRecord {
  if (folder !== undefined) {
    const n = readListedFile(path, folder, inputLimit('xml'));
    const rec = n < 0 ? undefined : scanPascalRecord(listedFileBuffer(), n);
    if (rec !== undefined) return rec;
  }
  return readVocRecordSync(path);
}

/** What a worker is given: annotation paths, and their folder (listed once per worker for the fast path). */
export interface AnnotationBatch {
  dir: string;
  paths: string[];
}

/** What the worker answers for a batch of paths: a record or the problems of each. */
export type RecordOrProblems = { record: VocRecord } | { problems: Problem[] };

/** Each file's record or problems; `dir` (the annotations folder) is listed once for the fast path. */
export function readRecordBatch(paths: readonly string[], dir?: string | ListedFolder): RecordOrProblems[] {
  const folder = typeof dir === 'string' ? listFolder(dir) : dir;
  return paths.map((p) => readRecordOrProblems(p, folder));
}

/** One file's record, or its problems. */
function readRecordOrProblems(path: string, folder: ListedFolder | undefined): RecordOrProblems {
  try {
    return { record: readVocRecordFast(path, folder) };
  } catch (e) {
    if (isDevkitError(e) && e.kind === 'input') return { problems: e.problems };
    throw e;
  }
}

/**
 * CPU milliseconds to read and parse one annotation file (the listed-folder read and the PASCAL scanner: 0.04 ms
 * warm, 0.09 ms in a cold process on the `large` case under load; README Speed), and what one more worker thread
 * costs before its first file (thread start and module loading: 200 - 430 ms of CPU measured under load 10 - 12, by
 * `packages/ade20k-boundary/bench/workers.bench.mjs` as the CPU of 2 threads less 1). `chooseWorkerCount` weighs
 * them: two threads pay for themselves from about 80,000 files on idle cores.
 */
const FILE_CPU_MS = 0.05;
const WORKER_START_CPU_MS = 200;

/**
 * The threads (the calling one included) to parse `files` annotation files with: `context.workers` as the
 * user gave it (`--workers`), else (`workersAuto`) what `chooseWorkerCount` finds worth it, which is 1 below
 * about 80,000 files on a quiet machine and always 1 when the other cores are busy.
 */
export function annotationThreads(files: number, context: Pick<RunContext, 'workers' | 'workersAuto'>, load?: number, cores?: number): number {
  const cap = Math.max(1, Math.min(Math.floor(context.workers), 8, files));
  if (cap <= 1 || context.workersAuto !== true) return cap;
  return chooseWorkerCount({ cap, units: files, unitCpuMs: FILE_CPU_MS, workerCpuMs: WORKER_START_CPU_MS, load, cores });
}

/**
 * 2: the shared parse-cache header (`cachedParse` of `@cvdevkit/formats`), one cache per list of files; 3: one JSON
 * text per record, a line each (read record by record: no string of the whole file, no array of all records).
 */
const CACHE_VERSION = 3;

/** One record as a JSON object with an `objects` array, else undefined. */
function recordFromJson(text: string): VocRecord | undefined {
  let r: unknown;
  try {
    r = JSON.parse(text);
  } catch {
    return undefined;
  }
  return r !== null && typeof r === 'object' && Array.isArray((r as VocRecord).objects) ? (r as VocRecord) : undefined;
}

/**
 * The records of a cache body (`encodeRecords`), each parsed when it is asked for (`get`), so that only one is in
 * memory at a time: undefined for a line that is not a record (the caller reads that file again), and for the
 * whole body when it does not hold `n` lines.
 */
function recordLines(body: Buffer, n: number): { get(i: number): VocRecord | undefined } | undefined {
  const starts = new Int32Array(n + 1);
  let count = 0;
  for (let a = 0; a < body.length; ) {
    let b = body.indexOf(10, a);
    if (b < 0) b = body.length;
    if (count === n) return undefined;
    starts[count++] = a;
    a = b + 1;
  }
  if (count !== n) return undefined;
  starts[n] = body.length + 1;
  return { get: (i) => recordFromJson(body.toString('utf8', starts[i], starts[i + 1] - 1)) };
}

/** The cache body of `records` (all defined: a run with a problem is not cached): one JSON text per line. */
function encodeRecords(records: { get(i: number): VocRecord | undefined }, n: number): Uint8Array[] {
  const lines = new Array<string>(n);
  for (let i = 0; i < n; i++) lines[i] = JSON.stringify(records.get(i));
  return [Buffer.from(lines.join('\n'), 'utf8')];
}

export interface ReadRecordsOptions {
  /** The annotations folder (kept for callers; the cache key holds every file path). */
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
  /**
   * Called with each record, in image order (none for a file with a problem); the returned array then holds no
   * records. Read on one thread with no cache, each record is handed over as soon as it is parsed and kept
   * nowhere: the caller can fold the set into something smaller without holding all its records.
   */
  onRecord?: (i: number, record: VocRecord) => void;
}

/**
 * Reads the annotations of `ids` (each once), returning the records in the same order; a record
 * is `undefined` where its file had a problem (added to `problems`). Uses worker threads (`annotationThreads`)
 * when they pay for themselves or the user asked for them, and a cache in `context.cacheDir` (`cachedParse` of
 * `@cvdevkit/formats`: keyed by every file's path, size and mtime and the plugin version, checked by a
 * content checksum; unlike the official cache, which is never invalidated). A run whose files had
 * problems is not cached.
 */
export async function readVocRecords(
  ids: readonly string[],
  options: ReadRecordsOptions,
  context: RunContext,
  problems: ProblemCollector,
): Promise<(VocRecord | undefined)[]> {
  const n = ids.length;
  const { onRecord } = options;
  const paths = ids.map(options.path);
  const progress = context.progress;
  progress.begin(options.label ?? 'reading annotations', n);
  let meanwhileDone = false;
  const meanwhile = async () => {
    meanwhileDone = true;
    await options.meanwhile?.();
  };
  const found: Problem[] = [];
  const { value: source, fromCache } = await cachedParse<{ get(i: number): VocRecord | undefined }>({
    cacheDir: context.cacheDir,
    name: 'voc2010-annotations',
    cacheVersion: CACHE_VERSION,
    plugin: '@cvdevkit/voc2010',
    pluginVersion: PACKAGE_VERSION,
    files: paths,
    parse: async () => {
      const records = new Array<VocRecord | undefined>(n);
      const threads = annotationThreads(n, context);
      // handed over in order as parsed: one thread, nothing to cache
      const direct = onRecord !== undefined && threads <= 1 && context.cacheDir === undefined;
      const handle = (i: number, r: RecordOrProblems): void => {
        if (!('record' in r)) found.push(...r.problems);
        else if (direct) onRecord(i, r.record);
        else records[i] = r.record;
      };
      const todo = Array.from({ length: n }, (_, i) => i);
      const folder = listFolder(options.annotationsDir);
      if (threads > 1) await parseWithWorkers(todo, paths, threads, meanwhile, context, handle, folder);
      else {
        await meanwhile();
        for (const i of todo) {
          if (context.signal.aborted) throw context.signal.reason ?? new Error('aborted');
          handle(i, readRecordOrProblems(paths[i], folder));
          progress.advance();
        }
      }
      return { get: (i: number) => records[i] };
    },
    cacheable: () => found.length === 0,
    encode: (records) => encodeRecords(records, n),
    decode: (body) => recordLines(body, n),
    log: context.log,
  });
  if (fromCache) progress.advance(n);
  if (!meanwhileDone) await meanwhile();
  for (const p of found) problems.add(p);
  progress.end();
  const out = new Array<VocRecord | undefined>(n);
  let folder: ListedFolder | undefined;
  for (let i = 0; i < n; i++) {
    let r = source.get(i);
    if (r === undefined && fromCache) {
      // a cached line that is not a record (the checksum matched, so this is not expected): the file itself
      folder ??= listFolder(options.annotationsDir);
      const again = readRecordOrProblems(paths[i], folder);
      if ('record' in again) r = again.record;
      else for (const p of again.problems) problems.add(p);
    }
    if (r === undefined) continue;
    if (onRecord) onRecord(i, r);
    else out[i] = r;
  }
  return out;
}

/** The main thread parses its share (after `meanwhile`) while (workers - 1) threads parse the rest. */
async function parseWithWorkers(
  todo: number[],
  paths: string[],
  all: number,
  meanwhile: () => Promise<void>,
  context: RunContext,
  handle: (i: number, r: RecordOrProblems) => void,
  folder: ListedFolder,
): Promise<void> {
  const progress = context.progress;
  const threads = all - 1;
  const mine = Math.ceil(todo.length / (threads + 1));
  const theirs = todo.slice(mine);
  const chunks: number[][] = [];
  const chunkSize = Math.max(1, Math.ceil(theirs.length / (threads * 4)));
  for (let k = 0; k < theirs.length; k += chunkSize) chunks.push(theirs.slice(k, k + chunkSize));
  const script = resolveWorkerScript(import.meta.url, './annotations.worker.js');
  const pending = mapInWorkers<AnnotationBatch, RecordOrProblems[]>(script, chunks.map((c) => ({ dir: folder.dir, paths: c.map((i) => paths[i]) })), {
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
    await meanwhile();
    for (let k = 0; k < mine; k++) {
      const i = todo[k];
      handle(i, readRecordOrProblems(paths[i], folder));
      progress.advance();
    }
  } finally {
    await pending;
  }
}
