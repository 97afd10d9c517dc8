import { readdirSync, readFileSync, statSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { cachedParse, fsError } from '@cvdevkit/formats';
import { chooseWorkerCount, inputError, ProblemCollector, resolveWorkerScript, WorkerPool, type RunContext } from '@cvdevkit/core';
import { matNumbers, readMatFileSync, type MatStruct, type MatValue } from '@cvdevkit/formats/mat';
import { readAnnotationChunk, UNKNOWN_LABEL, type AnnotationChunk } from './annotation.js';
import type { SynsetMap } from './meta.js';
import { PACKAGE_VERSION } from './version.js';
import type { XmlChunkTask, XmlWorkerData } from './xml.worker.js';

/** Per-image ground-truth boxes (`rec(i).objects(k).label/.bbox`), flat. */
export interface GroundTruthBoxes {
  /** The annotation directory or the `rec` cache file. */
  source: string;
  kind: 'xml' | 'mat';
  images: number;
  /** Objects of image i are offsets[i] .. offsets[i+1]-1. */
  offsets: Int32Array;
  /** Label per object; UNKNOWN_LABEL (-1) for a WNID the synset map does not know (an empty label). */
  labels: Int32Array;
  /** 4 per object: xmin, ymin, xmax, ymax. */
  boxes: Float64Array;
  /** Image i → its first unknown WNID (XML) or `[]` (MAT). */
  unknown: Map<number, string>;
  /** Where image i's ground truth is, for messages (the XML path, or `rec(i)`). */
  describe(i: number): string;
  /** True when the parsed annotations came from the cache. */
  fromCache?: boolean;
}

/** Files per worker task. */
const CHUNK = 500;
/**
 * CPU milliseconds to read and parse one annotation file (0.03 ms: warm, the 9,917 DET validation XMLs of the
 * `det_real_val2` fixture, README Speed),
 * and what one more worker thread costs before its first chunk (thread start and module loading, ~100 ms).
 * `chooseWorkerCount` weighs them.
 */
const FILE_CPU_MS = 0.03;
const WORKER_START_CPU_MS = 100;

/**
 * The threads (the calling one included) to parse `files` annotation files with: `context.workers` as the
 * user gave it (`--workers`), else (`workersAuto`) what `chooseWorkerCount` finds worth it: 1 below tens of
 * thousands of files on a quiet machine, and 1 whenever the other cores are busy.
 */
export function annotationThreads(files: number, context: Pick<RunContext, 'workers' | 'workersAuto'>, load?: number, cores?: number): number {
  const cap = Math.max(1, Math.min(Math.floor(context.workers), Math.ceil(files / CHUNK)));
  if (cap <= 1 || context.workersAuto !== true) return cap;
  return chooseWorkerCount({ cap, units: files, unitCpuMs: FILE_CPU_MS, workerCpuMs: WORKER_START_CPU_MS, load, cores });
}

/** Reads `--gt`: a directory of `*.xml` annotations (ASCII order = image order) or the official `rec` cache `.mat`. */
export async function readGroundTruthBoxes(path: string, synsets: SynsetMap, context: RunContext): Promise<GroundTruthBoxes> {
  let st: Stats;
  try {
    st = statSync(path);
  } catch (e) {
    throw fsError(e, path, { expected: 'an Annotations directory or the ground-truth cache .mat (variable rec)' });
  }
  if (st.isDirectory()) return readAnnotationDirectory(path, synsets, context);
  return readRecCache(path);
}

/** The annotation files of a directory as MATLAB's `dir('<d>/*.xml')` lists them: ASCII-sorted names. */
export function listAnnotationFiles(dir: string): string[] {
  const names = readdirSync(dir, { withFileTypes: true })
    .filter((d) => !d.isDirectory() && d.name.endsWith('.xml') && !d.name.startsWith('.'))
    .map((d) => d.name);
  return names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

async function readAnnotationDirectory(dir: string, synsets: SynsetMap, context: RunContext): Promise<GroundTruthBoxes> {
  const files = listAnnotationFiles(dir);
  if (files.length === 0) {
    throw inputError({ code: 'input/annotations', file: dir, expected: 'annotation files *.xml', found: 'none' });
  }
  const describe = (i: number) => join(dir, files[i]);
  const { value: gt, fromCache } = await cachedParse({
    cacheDir: context.cacheDir,
    name: 'ilsvrc2015-clsloc-gt',
    cacheVersion: CACHE_VERSION,
    plugin: '@cvdevkit/ilsvrc2015-clsloc',
    pluginVersion: PACKAGE_VERSION,
    files: files.map((f) => join(dir, f)),
    extra: [...synsets.labels].map(([w, l]) => `${w}=${l}`).join(';'),
    parse: async () => {
      context.progress.begin('annotations', files.length);
      const chunks = await parseAnnotationFiles(dir, files, synsets, context);
      context.progress.end();
      const problems = new ProblemCollector();
      for (const c of chunks) for (const p of c.problems) problems.add(p);
      problems.throwIfAny();
      return mergeChunks(chunks, files.length);
    },
    encode: encodeBoxes,
    decode: (body) => decodeBoxes(body, files.length),
    log: context.log,
  });
  return { ...gt, source: dir, kind: 'xml', describe, ...(fromCache ? { fromCache: true } : {}) };
}

/**
 * Parses the files in chunks. With more than one worker, `workers - 1` threads and this thread take
 * chunks from one queue, so a slow thread start (or a busy machine) never makes it slower than
 * parsing here alone.
 */
async function parseAnnotationFiles(dir: string, files: string[], synsets: SynsetMap, context: RunContext): Promise<AnnotationChunk[]> {
  const tasks: XmlChunkTask[] = [];
  for (let s = 0; s < files.length; s += CHUNK) tasks.push({ dir, files: files.slice(s, s + CHUNK) });
  const threads = annotationThreads(files.length, context) - 1;
  let script: URL | undefined;
  if (threads > 0) {
    try {
      script = resolveWorkerScript(import.meta.url, './xml.worker.js');
    } catch {
      script = undefined; // sources without a build: parse in this thread only
    }
  }
  const results = new Array<AnnotationChunk>(tasks.length);
  let next = 0;
  const parseHere = async () => {
    while (next < tasks.length) {
      if (context.signal.aborted) throw new Error('aborted');
      const i = next++;
      const paths = tasks[i].files.map((f) => join(dir, f));
      results[i] = readAnnotationChunk(paths.map(readAnnotationText), paths, synsets.labels);
      context.progress.advance(paths.length);
      // let worker results in between chunks
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  };
  if (!script) {
    await parseHere();
    return results;
  }
  const workerData: XmlWorkerData = { synsets: [...synsets.labels] };
  const pool = new WorkerPool<XmlChunkTask, AnnotationChunk>(script, { workers: threads, workerData, signal: context.signal });
  const parseThere = async () => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await pool.run(tasks[i]);
      context.progress.advance(results[i].counts.length);
    }
  };
  try {
    await Promise.all([...Array.from({ length: threads }, parseThere), parseHere()]);
  } finally {
    await pool.close();
  }
  return results;
}

function readAnnotationText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    throw inputError({ code: 'input/missing-file', file: path, expected: 'a readable annotation file', found: 'unreadable' });
  }
}

function mergeChunks(chunks: AnnotationChunk[], images: number): Pick<GroundTruthBoxes, 'images' | 'offsets' | 'labels' | 'boxes' | 'unknown'> {
  let objects = 0;
  for (const c of chunks) objects += c.labels.length;
  const offsets = new Int32Array(images + 1);
  const labels = new Int32Array(objects);
  const boxes = new Float64Array(objects * 4);
  const unknown = new Map<number, string>();
  let img = 0;
  let obj = 0;
  for (const c of chunks) {
    for (const [k, w] of c.unknown) unknown.set(img + k, w);
    for (let k = 0; k < c.counts.length; k++) {
      offsets[img + k] = obj;
      obj += c.counts[k];
    }
    labels.set(c.labels, offsets[img]);
    boxes.set(c.boxes, offsets[img] * 4);
    img += c.counts.length;
  }
  offsets[images] = obj;
  return { images, offsets, labels, boxes, unknown };
}

// ------------------------------------------------------------------ the official `rec` cache

/** Reads the official ground-truth cache (`save(optional_cache_file,'rec')`): `rec(i).objects(k).label/.bbox`. */
export function readRecCache(path: string): GroundTruthBoxes {
  const vars = readMatFileSync(path, { variables: ['rec'] });
  const rec = vars.rec;
  if (!rec || rec.kind !== 'struct' || !rec.fieldNames.includes('objects')) {
    throw inputError({
      code: 'input/gt-cache',
      file: path,
      field: 'rec',
      expected: 'a struct array `rec` with a field `objects` (the eval_clsloc.m ground-truth cache)',
      found: !rec ? 'no variable rec' : rec.kind !== 'struct' ? `a ${rec.kind} value` : `fields ${rec.fieldNames.join(', ')}`,
    });
  }
  const images = rec.length;
  const objectsOf = rec.column('objects');
  const offsets = new Int32Array(images + 1);
  const labels: number[] = [];
  const boxes: number[] = [];
  const unknown = new Map<number, string>();
  const problems = new ProblemCollector();
  for (let i = 0; i < images; i++) {
    offsets[i] = labels.length;
    const objs = objectsOf[i];
    if (isEmpty(objs)) continue;
    if (objs.kind !== 'struct' || !objs.fieldNames.includes('label') || !objs.fieldNames.includes('bbox')) {
      problems.add({ code: 'input/gt-cache', file: path, field: `rec(${i + 1}).objects`, expected: 'a struct array with fields label and bbox', found: objs.kind === 'struct' ? `fields ${objs.fieldNames.join(', ')}` : `a ${objs.kind} value` });
      continue;
    }
    const s = objs as MatStruct;
    for (let k = 0; k < s.length; k++) {
      const where = `rec(${i + 1}).objects(${k + 1})`;
      const lv = s.get(k, 'label');
      if (isEmpty(lv)) {
        labels.push(UNKNOWN_LABEL);
        if (!unknown.has(i)) unknown.set(i, '[]');
      } else {
        const l = matNumbers(lv, `${path} ${where}.label`);
        if (l.length !== 1 || !Number.isInteger(l[0])) {
          problems.add({ code: 'input/gt-cache', file: path, field: `${where}.label`, expected: 'one integer class label', found: `${l.length} values` });
        }
        labels.push(l[0]);
      }
      const b = matNumbers(s.get(k, 'bbox'), `${path} ${where}.bbox`);
      if (b.length !== 4 || !b.every(Number.isFinite)) {
        problems.add({ code: 'input/gt-cache', file: path, field: `${where}.bbox`, expected: '4 finite numbers [xmin ymin xmax ymax]', found: `${b.length} values` });
        boxes.push(NaN, NaN, NaN, NaN);
      } else boxes.push(b[0], b[1], b[2], b[3]);
    }
  }
  offsets[images] = labels.length;
  problems.throwIfAny();
  return {
    source: path,
    kind: 'mat',
    images,
    offsets,
    labels: Int32Array.from(labels),
    boxes: Float64Array.from(boxes),
    unknown,
    describe: (i) => `${path} [rec(${i + 1})]`,
  };
}

function isEmpty(v: MatValue): boolean {
  if (v.kind === 'struct') return v.length === 0;
  if (v.kind === 'cell') return v.cells.length === 0;
  if (v.kind === 'char') return v.codes.length === 0;
  if (v.kind === 'sparse') return v.dims[0] * v.dims[1] === 0;
  return v.data.length === 0;
}

// ------------------------------------------------------------------ parsed-annotation cache

/** 2: the shared parse-cache header (`cachedParse` of `@cvdevkit/formats`). */
const CACHE_VERSION = 2;

type ParsedBoxes = Pick<GroundTruthBoxes, 'images' | 'offsets' | 'labels' | 'boxes' | 'unknown'>;

/**
 * Layout (little endian): u32 images, u32 objects, u32 unknown-JSON bytes, u32 0, i32 offsets[images+1],
 * i32 labels[objects], (pad to 8) f64 boxes[4*objects], unknown JSON.
 */
function encodeBoxes(gt: ParsedBoxes): Uint8Array[] {
  const unknown = Buffer.from(JSON.stringify([...gt.unknown]), 'utf8');
  const n = gt.labels.length;
  const intBytes = 16 + 4 * (gt.images + 1) + 4 * n;
  const pad = (8 - (intBytes % 8)) % 8;
  const head = Buffer.alloc(16);
  head.writeUInt32LE(gt.images, 0);
  head.writeUInt32LE(n, 4);
  head.writeUInt32LE(unknown.length, 8);
  const bytes = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  return [head, bytes(gt.offsets), bytes(gt.labels), new Uint8Array(pad), bytes(gt.boxes), unknown];
}

function decodeBoxes(buf: Buffer, images: number): ParsedBoxes | undefined {
  if (buf.length < 16 || buf.readUInt32LE(0) !== images) return undefined;
  const n = buf.readUInt32LE(4);
  const u = buf.readUInt32LE(8);
  const intBytes = 16 + 4 * (images + 1) + 4 * n;
  const pad = (8 - (intBytes % 8)) % 8;
  if (buf.length !== intBytes + pad + 32 * n + u) return undefined;
  const copy = (start: number, bytes: number) => buf.buffer.slice(buf.byteOffset + start, buf.byteOffset + start + bytes);
  const offsets = new Int32Array(copy(16, 4 * (images + 1)));
  const labels = new Int32Array(copy(16 + 4 * (images + 1), 4 * n));
  const boxes = new Float64Array(copy(intBytes + pad, 32 * n));
  const unknown = new Map<number, string>(JSON.parse(buf.subarray(intBytes + pad + 32 * n).toString('utf8')) as [number, string][]);
  if (offsets[images] !== n) return undefined;
  return { images, offsets, labels, boxes, unknown };
}
