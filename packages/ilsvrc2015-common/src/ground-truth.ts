import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { cachedParse, fsError } from '@cvdevkit/formats';
import { chooseWorkerCount, inputError, mapInWorkers, ProblemCollector, resolveWorkerScript, type Problem, type RunContext } from '@cvdevkit/core';
import { matNumbers, readMatFileSync, type MatValue } from '@cvdevkit/formats/mat';
import { parseAnnotationFiles, type PackedObjects } from './annotation.js';
import type { AnnotationTask, AnnotationWorkerData } from './annotations.worker.js';
import type { ImageList } from './inputs.js';
import type { Synsets } from './meta.js';
import { gtDirHint } from './gt-dir-hint.js';

/**
 * Ground truth in the devkit's layout (`gt_img_ids`, `gt_obj_labels`, `gt_obj_bboxes`, `gt_obj_thr`,
 * `num_pos_per_class`), packed in typed arrays. Entry i is line i of the image list.
 */
export interface GroundTruth {
  /** The image index of each entry (`gt_img_ids`). */
  imageIds: Float64Array;
  /** Objects of entry i are `objStart[i] .. objStart[i+1]-1`. */
  objStart: Int32Array;
  labels: Int32Array;
  /** 4 per object: xmin, ymin, xmax, ymax. */
  boxes: Float64Array;
  /** Per-object IoU threshold `min(0.5, wh/((w+10)(h+10)))`. */
  thr: Float64Array;
  /** 1 = `<generated>1</generated>` (VID XML only; all 0 otherwise). */
  generated: Uint8Array;
  /** Objects per class before the blacklist (`num_pos_per_class`); its length is the number of classes evaluated. */
  numPos: Float64Array;
  /** Per entry: the image's width and height from its XML `<size>` (NaN when absent); not in the devkit's `.mat` cache. */
  imageWidth?: Float64Array;
  imageHeight?: Float64Array;
  /** Where it came from: 'xml' or 'cache'. */
  source: 'xml' | 'cache';
}

const DEFAULT_IOU_THR = 0.5;
const PIXEL_TOLERANCE = 10;

/**
 * The small-object threshold of `eval_detection.m` L87-91: `w = ymax-ymin+1`, `h = xmax-xmin+1`,
 * `min(0.5, w*h/((w+10)*(h+10)))` (MATLAB's `min` ignores NaN, so a NaN box gets 0.5).
 */
export function smallObjectThreshold(xmin: number, ymin: number, xmax: number, ymax: number): number {
  const w = ymax - ymin + 1;
  const h = xmax - xmin + 1;
  const t = (w * h) / ((w + PIXEL_TOLERANCE) * (h + PIXEL_TOLERANCE));
  if (Number.isNaN(t)) return DEFAULT_IOU_THR;
  return DEFAULT_IOU_THR < t ? DEFAULT_IOU_THR : t;
}

/** Builds the ground truth from per-file packed objects (in list order). */
export function groundTruthFromObjects(list: ImageList, packed: PackedObjects): GroundTruth {
  const n = list.names.length;
  const objStart = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) objStart[i + 1] = objStart[i] + packed.counts[i];
  const m = objStart[n];
  const thr = new Float64Array(m);
  let maxLabel = 0;
  for (let k = 0; k < m; k++) {
    const b = 4 * k;
    thr[k] = smallObjectThreshold(packed.boxes[b], packed.boxes[b + 1], packed.boxes[b + 2], packed.boxes[b + 3]);
    if (packed.labels[k] > maxLabel) maxLabel = packed.labels[k];
  }
  const numPos = new Float64Array(maxLabel);
  for (let k = 0; k < m; k++) numPos[packed.labels[k] - 1]++;
  const imageWidth = new Float64Array(n);
  const imageHeight = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    imageWidth[i] = packed.sizes[2 * i];
    imageHeight[i] = packed.sizes[2 * i + 1];
  }
  return { imageIds: list.ids.slice(), objStart, labels: packed.labels, boxes: packed.boxes, thr, generated: packed.generated, numPos, imageWidth, imageHeight, source: 'xml' };
}

function mergePacked(parts: PackedObjects[]): PackedObjects {
  if (parts.length === 1) return parts[0];
  const sum = (f: (p: PackedObjects) => { length: number }) => parts.reduce((s, p) => s + f(p).length, 0);
  const counts = new Int32Array(sum((p) => p.counts));
  const labels = new Int32Array(sum((p) => p.labels));
  const boxes = new Float64Array(sum((p) => p.boxes));
  const generated = new Uint8Array(sum((p) => p.generated));
  const sizes = new Float64Array(sum((p) => p.sizes));
  const problems: Problem[] = [];
  let c = 0;
  let o = 0;
  for (const p of parts) {
    counts.set(p.counts, c);
    sizes.set(p.sizes, 2 * c);
    labels.set(p.labels, o);
    generated.set(p.generated, o);
    boxes.set(p.boxes, 4 * o);
    c += p.counts.length;
    o += p.labels.length;
    problems.push(...p.problems);
  }
  return { counts, labels, boxes, generated, sizes, problems };
}

/** The annotation file of each list entry: `<dir>/<name>.xml`. */
export function annotationFiles(dir: string, list: ImageList): string[] {
  return list.names.map((name) => join(dir, `${name}.xml`));
}

const CHUNK = 1000;
/**
 * CPU milliseconds to read and parse one annotation file (0.055 ms: warm, the 9,917 DET validation XMLs of
 * the `det_real_val2` fixture), and what one worker thread costs before its first file (thread
 * start and module loading, ~100 ms). `chooseWorkerCount` weighs them.
 */
const FILE_CPU_MS = 0.06;
const WORKER_START_CPU_MS = 100;

/**
 * The worker threads to parse `files` annotation files with (1: parse on the calling thread): `context.workers`
 * as the user gave it (`--workers`), else (`workersAuto`) what `chooseWorkerCount` finds worth it: 1 below tens
 * of thousands of files on a quiet machine, and 1 whenever the other cores are busy.
 */
export function groundTruthWorkers(files: number, context: Pick<RunContext, 'workers' | 'workersAuto'>, load?: number, cores?: number): number {
  const cap = Math.max(1, Math.min(Math.floor(context.workers), Math.ceil(files / 200)));
  if (cap <= 1 || context.workersAuto !== true) return cap;
  return chooseWorkerCount({ cap, units: files, unitCpuMs: FILE_CPU_MS, workerCpuMs: WORKER_START_CPU_MS, load, cores });
}

async function parseFiles(files: string[], synsets: Synsets, context: RunContext): Promise<PackedObjects> {
  let script: URL | undefined;
  const workers = groundTruthWorkers(files.length, context);
  if (workers > 1) {
    try {
      script = resolveWorkerScript(import.meta.url, './annotations.worker.js');
    } catch {
      script = undefined; // not built (sources only): parse on this thread
    }
  }
  context.progress.begin('reading annotations', files.length);
  try {
    if (!script) {
      const parts: PackedObjects[] = [];
      for (let i = 0; i < files.length; i += CHUNK) {
        if (context.signal.aborted) throw new Error('aborted');
        const chunk = files.slice(i, i + CHUNK);
        parts.push(parseAnnotationFiles(chunk, synsets.labelOf));
        context.progress.advance(chunk.length);
      }
      return mergePacked(parts);
    }
    const chunkSize = Math.max(200, Math.min(CHUNK, Math.ceil(files.length / (workers * 4))));
    const tasks: AnnotationTask[] = [];
    for (let i = 0; i < files.length; i += chunkSize) tasks.push({ files: files.slice(i, i + chunkSize) });
    const workerData: AnnotationWorkerData = { wnids: synsets.wnids };
    const parts = await mapInWorkers<AnnotationTask, PackedObjects>(script, tasks, {
      workers,
      workerData,
      signal: context.signal,
      onResult: (_r, i) => context.progress.advance(tasks[i].files.length),
    });
    return mergePacked(parts);
  } finally {
    context.progress.end();
  }
}

// ------------------------------------------------------------------------- on-disk parse cache

// 2: each file's image width and height follow the objects (the size analysis); 3: the shared parse-cache header.
const CACHE_VERSION = 3;

/** Layout: counts (int32) | labels (int32) | boxes (float64) | generated (uint8) | sizes (float64, 2 per file). */
function encodePacked(p: PackedObjects): Uint8Array[] {
  const bytes = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  const head = new Uint32Array([p.counts.length, p.labels.length]);
  return [bytes(head), bytes(p.counts), bytes(p.labels), bytes(p.boxes), bytes(p.generated), bytes(p.sizes)];
}

function decodePacked(body: Buffer, files: number): PackedObjects | undefined {
  if (body.length < 8) return undefined;
  const copy = new Uint8Array(body.length);
  copy.set(body);
  const head = new Uint32Array(copy.buffer.slice(0, 8));
  const m = head[1];
  if (head[0] !== files || body.length !== 8 + files * 4 + m * 37 + files * 16) return undefined;
  let at = 8;
  const take = (n: number) => copy.buffer.slice(at, (at += n));
  const counts = new Int32Array(take(files * 4));
  const labels = new Int32Array(take(m * 4));
  const boxes = new Float64Array(take(m * 32));
  const generated = new Uint8Array(take(m));
  const sizes = new Float64Array(take(files * 16));
  let total = 0;
  for (const c of counts) total += c;
  if (total !== m) return undefined;
  return { counts, labels, boxes, generated, sizes, problems: [] };
}

/**
 * Reads the ground truth from `<dir>/<name>.xml` for every list entry (worker threads where they pay, `groundTruthWorkers`; a
 * parse cache in `context.cacheDir` through `cachedParse` of `@cvdevkit/formats`: keyed by the files'
 * paths, sizes and mtimes, the list, the meta WNIDs and the plugin version, and checked by a content checksum). Every problem of every file is reported together.
 */
export async function readGroundTruthXml(dir: string, list: ImageList, synsets: Synsets, context: RunContext, version = '0'): Promise<GroundTruth> {
  let st;
  try {
    st = statSync(dir);
  } catch (e) {
    throw fsError(e, dir, { expected: 'an annotation directory or a ground-truth cache .mat' });
  }
  if (!st.isDirectory()) throw inputError({ code: 'input/gt', file: dir, expected: 'an annotation directory or a ground-truth cache .mat', found: 'a file' });
  const files = annotationFiles(dir, list);
  // a --gt one level off: one clear problem with the folder to use, not one per list entry
  if (files.length > 0 && !existsSync(files[0])) {
    const hint = gtDirHint(dir, `${list.names[0]}.xml`);
    if (hint) throw inputError({ code: 'input/missing-file', file: files[0], expected: 'an annotation XML file', found: 'no such file', hint });
  }
  const { value: packed } = await cachedParse({
    cacheDir: context.cacheDir,
    name: 'ilsvrc-gt',
    cacheVersion: CACHE_VERSION,
    plugin: '@cvdevkit/ilsvrc2015-common',
    pluginVersion: version,
    files,
    extra: `${synsets.wnids.join('\n')}\0${list.names.join('\n')}`,
    parse: async () => {
      const p = await parseFiles(files, synsets, context);
      const problems = new ProblemCollector();
      for (const q of p.problems) problems.add(q);
      problems.throwIfAny();
      return p;
    },
    encode: encodePacked,
    decode: (body) => decodePacked(body, files.length),
    log: context.log,
  });
  return groundTruthFromObjects(list, packed);
}

/**
 * Reads the devkit's ground-truth cache (`ILSVRC2015_det_validation_ground_truth.mat`, the VID
 * caches): `gt_img_ids`, `gt_obj_labels`, `gt_obj_bboxes`, `gt_obj_thr`, `num_pos_per_class`.
 * As in the official code, the cache replaces the image list (its `gt_img_ids` are used).
 */
export function readGroundTruthCache(file: string): GroundTruth {
  const names = ['gt_img_ids', 'gt_obj_labels', 'gt_obj_bboxes', 'gt_obj_thr', 'num_pos_per_class'];
  const vars = readMatFileSync(file, { variables: [...names, 'gt_obj_img_ids'] });
  if (vars.gt_obj_img_ids) {
    throw inputError({ code: 'input/gt-cache', file, field: 'gt_obj_img_ids', expected: 'a 2015 ground-truth cache', found: 'an ILSVRC2014-style cache (the official code re-reads the XML then)', hint: 'pass the Annotations directory instead' });
  }
  for (const n of names) {
    if (!vars[n]) throw inputError({ code: 'input/gt-cache', file, field: n, expected: `a variable "${n}"`, found: 'no such variable' });
  }
  const imageIds = Float64Array.from(matNumbers(vars.gt_img_ids, 'gt_img_ids'));
  const numPos = Float64Array.from(matNumbers(vars.num_pos_per_class, 'num_pos_per_class'));
  const cells = (n: string): MatValue[] => {
    const v = vars[n];
    if (v.kind !== 'cell') throw inputError({ code: 'input/gt-cache', file, field: n, expected: 'a cell array', found: v.kind });
    if (v.cells.length !== imageIds.length) throw inputError({ code: 'input/gt-cache', file, field: n, expected: `${imageIds.length} cells (one per gt_img_ids entry)`, found: `${v.cells.length}` });
    return v.cells;
  };
  const lab = cells('gt_obj_labels');
  const box = cells('gt_obj_bboxes');
  const thr = cells('gt_obj_thr');
  const n = imageIds.length;
  const objStart = new Int32Array(n + 1);
  const labArr: Float64Array[] = new Array(n);
  const boxArr: Float64Array[] = new Array(n);
  const thrArr: Float64Array[] = new Array(n);
  for (let i = 0; i < n; i++) {
    labArr[i] = matNumbers(lab[i], `gt_obj_labels{${i + 1}}`);
    boxArr[i] = matNumbers(box[i], `gt_obj_bboxes{${i + 1}}`);
    thrArr[i] = matNumbers(thr[i], `gt_obj_thr{${i + 1}}`);
    const m = labArr[i].length;
    if (boxArr[i].length !== 4 * m || thrArr[i].length !== m) {
      throw inputError({ code: 'input/gt-cache', file, field: `gt_obj_bboxes{${i + 1}}`, expected: `4x${m} boxes and ${m} thresholds`, found: `${boxArr[i].length} box values, ${thrArr[i].length} thresholds` });
    }
    objStart[i + 1] = objStart[i] + m;
  }
  const m = objStart[n];
  const labels = new Int32Array(m);
  const boxes = new Float64Array(4 * m);
  const thrs = new Float64Array(m);
  for (let i = 0; i < n; i++) {
    const o = objStart[i];
    for (let j = 0; j < labArr[i].length; j++) {
      const l = labArr[i][j];
      if (!Number.isInteger(l) || l < 1 || l > numPos.length) {
        throw inputError({ code: 'input/gt-cache', file, field: `gt_obj_labels{${i + 1}}(${j + 1})`, expected: `a class label in 1..${numPos.length}`, found: String(l) });
      }
      labels[o + j] = l;
    }
    boxes.set(boxArr[i], 4 * o);
    thrs.set(thrArr[i], o);
  }
  return { imageIds, objStart, labels, boxes, thr: thrs, generated: new Uint8Array(m), numPos, source: 'cache' };
}
