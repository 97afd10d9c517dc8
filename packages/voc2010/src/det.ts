import { ProblemCollector, checkpoint, isDevkitError, problemsToDiagnostics, type Diagnostic, type Report, type RunContext } from '@cvdevkit/core';
import { boxIoU, precisionRecall, rankDescending } from '@cvdevkit/metrics';
import { apMetric, apReport, type ApEntry } from './ap-report.js';
import { readVocRecords, type VocRecord } from './annotations.js';
import { detPerImage } from './per-image.js';
import { parseImageList, readList, type KeyList } from './image-sets.js';
import type { DetResults } from './results.js';
import { firstTimeOnly, quote, readBytesInput } from './text.js';
import { DetColumns, parseDetResultsBytes, type DetImageBytesSet } from './det-results-bytes.js';
import { ByteKeyIndex, inputLimit } from '@cvdevkit/formats/text';
import { listFolder, listedFileBuffer, readListedFile, type ListedFolder } from '@cvdevkit/formats';
import { dirname } from 'node:path';
import { resultsHint } from './path-hints.js';
import { VOC_CLASSES, VOC_MIN_OVERLAP, detResultsPath, resolveVocPaths, selectNames, type VocClass, type VocCommonOptions, type VocPaths } from './voc-options.js';

/** Options of `voc2010/det` (`--root`, `--set`, `--comp`, `--results`, `--classes`). */
export interface VocDetOptions extends VocCommonOptions {
  /** Comma-separated subset of the 20 classes (default: all). */
  classes?: string;
}

/** The ground truth of one class over the test images, CSR style: objects of image i are `offsets[i]..offsets[i+1]`. */
export interface ClassGroundTruth {
  offsets: Uint32Array;
  boxes: Float64Array;
  difficult: Uint8Array;
  /** Non-difficult objects (`npos`, VOCevaldet line 40). */
  npos: number;
  /** The largest object count of one image. */
  maxPerImage: number;
}

/**
 * Per-class ground truth built from the records of images 0..n-1 given one at a time, in image order (a missing
 * image has no objects): each record can be dropped as soon as it is added, so the records of a whole set need
 * never be in memory together. Objects keep annotation order; other classes' objects are skipped.
 */
export class GroundTruthBuilder {
  private readonly slot: Map<string, number>;
  private readonly counts: Uint32Array[];
  private readonly boxes: Float64Array[];
  private readonly difficult: Uint8Array[];
  private readonly sizes: number[];
  private last = -1;

  constructor(
    private readonly n: number,
    private readonly classes: readonly string[],
  ) {
    this.slot = new Map(classes.map((c, i) => [c, i]));
    this.counts = classes.map(() => new Uint32Array(n + 1));
    this.boxes = classes.map(() => new Float64Array(64));
    this.difficult = classes.map(() => new Uint8Array(16));
    this.sizes = classes.map(() => 0);
  }

  /** Adds image `i`'s objects (`i` above every image added before). */
  add(i: number, record: VocRecord): void {
    if (!(i > this.last && i < this.n)) throw new RangeError(`image ${i} after ${this.last} (of ${this.n})`);
    this.last = i;
    for (const o of record.objects) {
      const k = this.slot.get(o.name);
      if (k === undefined) continue;
      const j = this.sizes[k]++;
      if (j === this.difficult[k].length) this.grow(k);
      this.boxes[k].set(o.bbox, j * 4);
      if (o.difficult) this.difficult[k][j] = 1;
      this.counts[k][i + 1]++;
    }
  }

  private grow(k: number): void {
    const cap = this.difficult[k].length * 2;
    const boxes = new Float64Array(cap * 4);
    boxes.set(this.boxes[k]);
    this.boxes[k] = boxes;
    const difficult = new Uint8Array(cap);
    difficult.set(this.difficult[k]);
    this.difficult[k] = difficult;
  }

  /** The per-class arrays (CSR: objects of image i are `offsets[i]..offsets[i+1]`). */
  finish(): Map<string, ClassGroundTruth> {
    const out = new Map<string, ClassGroundTruth>();
    this.classes.forEach((cls, k) => {
      const offsets = this.counts[k];
      let maxPerImage = 0;
      for (let i = 0; i < this.n; i++) {
        if (offsets[i + 1] > maxPerImage) maxPerImage = offsets[i + 1];
        offsets[i + 1] += offsets[i];
      }
      const total = this.sizes[k];
      const difficult = this.difficult[k].slice(0, total);
      let npos = 0;
      for (let j = 0; j < total; j++) if (difficult[j] === 0) npos++;
      out.set(cls, { offsets, boxes: this.boxes[k].slice(0, total * 4), difficult, npos, maxPerImage });
    });
    return out;
  }
}

/** Per-class ground truth from the records (difficult objects included, flagged), each record read once. */
export function classGroundTruth(records: readonly (VocRecord | undefined)[], classes: readonly string[]): Map<string, ClassGroundTruth> {
  const builder = new GroundTruthBuilder(records.length, classes);
  records.forEach((r, i) => {
    if (r !== undefined) builder.add(i, r);
  });
  return builder.finish();
}

/** A metric's protocol change: difficult objects become ordinary positives (in `npos`, matchable as TPs). */
export function countDifficultAsPositive(gt: ClassGroundTruth): void {
  gt.difficult.fill(0);
  gt.npos = gt.difficult.length;
}

/**
 * `VOCevaldet.m` for one class: detections ranked by `sort(-confidence)` (stable, NaN last, ties in
 * file order), each matched in that order to the best-IoU object of its image (+1 pixel IoU, strict
 * `>`, first object wins ties): difficult → ignored (a row with tp = fp = 0), free → TP, taken → FP (no
 * fallback), IoU < 0.5 → FP. `imageOf[d]` is the test-set position of detection d's image.
 */
export function evaluateDetClass(
  det: Pick<DetResults, 'count' | 'confidence' | 'boxes'>,
  imageOf: Int32Array,
  gt: ClassGroundTruth,
  ap: (recall: ArrayLike<number>, precision: ArrayLike<number>) => number,
  key: string,
  keepRanking = false,
  scratch?: DetScratch,
): ApEntry {
  const nd = det.count;
  const order = rankDescending(det.confidence, { nan: 'last' });
  // Detections in rank order, each against the objects of its own image (images are independent, so this is
  // the official per-image greedy matching); `detected` flags every object of the class once.
  const { offsets, boxes: gtBoxes, difficult } = gt;
  const boxes = det.boxes;
  const reuse = keepRanking ? undefined : scratch;
  const detected = reuse ? reuse.take(0, difficult.length) : new Uint8Array(difficult.length);
  const tpRanked = reuse ? reuse.take(1, nd) : new Uint8Array(nd);
  const fpRanked = reuse ? reuse.take(2, nd) : new Uint8Array(nd);
  for (let r = 0; r < nd; r++) {
    const d = order[r];
    const i = imageOf[d];
    const o1 = offsets[i + 1];
    let ovmax = -Infinity;
    let jmax = -1;
    for (let j = offsets[i]; j < o1; j++) {
      const ov = boxIoU(boxes, d * 4, gtBoxes, j * 4);
      if (ov > ovmax) {
        ovmax = ov;
        jmax = j;
      }
    }
    if (jmax >= 0 && ovmax >= VOC_MIN_OVERLAP) {
      if (difficult[jmax]) continue; // ignored: neither TP nor FP
      if (detected[jmax] === 0) {
        tpRanked[r] = 1;
        detected[jmax] = 1;
      } else fpRanked[r] = 1;
    } else fpRanked[r] = 1;
  }
  const { recall, precision } = precisionRecall(tpRanked, fpRanked, gt.npos);
  const entry: ApEntry = { key, recall, precision, ap: ap(recall, precision), npos: gt.npos, ndet: nd };
  if (keepRanking) entry.ranked = { order, tp: tpRanked, fp: fpRanked };
  return entry;
}

/**
 * Flag arrays `evaluateDetClass` may reuse from class to class (when it keeps no ranking): each `take` gives
 * zeroed bytes, valid until the next class. Fewer short-lived buffers outside V8's heap, which only a garbage
 * collection frees (and little else in the class loop allocates enough to start one).
 */
export class DetScratch {
  private readonly arrays = [new Uint8Array(0), new Uint8Array(0), new Uint8Array(0)];
  take(k: number, n: number): Uint8Array {
    let a = this.arrays[k];
    if (a.length < n) a = this.arrays[k] = new Uint8Array(Math.max(n, Math.ceil(a.length * 1.5)));
    else a.fill(0, 0, n);
    return a.subarray(0, n);
  }
}

/** Maps each detection's image id to its test-set position; unknown ids are problems (`unrecognized image`). */
export function mapDetImages(det: DetResults, set: KeyList, problems: ProblemCollector): Int32Array {
  const out = new Int32Array(det.count);
  for (let d = 0; d < det.count; d++) {
    const j = set.index.get(det.images[d]);
    if (j === undefined) {
      problems.add({
        code: 'input/unknown-image',
        file: det.file,
        line: det.lines[d],
        expected: `an image of ${set.file}`,
        found: quote(det.images[d]),
        hint: 'the official devkit fails with "unrecognized image"',
      });
      out[d] = -1;
    } else out[d] = j;
  }
  return out;
}

export interface DetInputs {
  paths: VocPaths;
  classes: VocClass[];
  set: KeyList;
  results: DetResults[];
  imageOf: Int32Array[];
}

/** Reads the test set, then (in `readResults`) the results files of the selected classes. */
export async function readDetSet(options: VocDetOptions, problems: ProblemCollector): Promise<{ paths: VocPaths; classes: VocClass[]; set: KeyList }> {
  const paths = resolveVocPaths(options, 'det');
  const classes = selectNames(options.classes, VOC_CLASSES, 'classes');
  const set = await readList(paths.imageSet('Main', paths.set), parseImageList, problems);
  if (!set) problems.throwIfAny();
  return { paths, classes, set: set! };
}

/** What the results file of class `k` should hold, for messages. */
const resultsExpected = (cls: string): string => `the ${cls} detection results "<image> <confidence> <xmin> <ymin> <xmax> <ymax>" lines`;

/** How `readDetClassResultsBytes` reads: the image set's byte index, the results folder listed once, reusable columns (or none). */
interface DetBytesReader {
  set: DetImageBytesSet;
  folder: ListedFolder;
  columns: DetColumns | undefined;
}

/**
 * Reads and parses the results file of class `k` as bytes (`parseDetResultsBytes`: the records and problems of
 * `parseDetResults` over its text, no text string; undefined when it cannot be read: its problem is in
 * `problems`): read into the shared read buffer when the file is listed as a regular file of the results folder
 * (`readListedFile`), else the ordinary way (with its messages); with `reader.columns`, the detections are views
 * of that reused storage, valid until the next class is read.
 */
function readDetClassResultsBytes(inp: { paths: VocPaths; classes: VocClass[]; set: KeyList }, k: number, problems: ProblemCollector, hint: () => string | undefined, reader: DetBytesReader): DetResults | undefined {
  const file = detResultsPath(inp.paths, inp.classes[k]);
  const n = readListedFile(file, reader.folder, inputLimit('text'));
  const bytes = n >= 0 ? listedFileBuffer().subarray(0, n) : readBytesInput(file, resultsExpected(inp.classes[k]), problems, hint);
  return bytes === undefined ? undefined : parseDetResultsBytes(bytes, file, problems, reader.set, reader.columns);
}

/** The hint for a missing results file, given once (it names where the results were looked for). */
const resultsHintOnce = (inp: { paths: VocPaths; classes: VocClass[] }): (() => string | undefined) => firstTimeOnly(() => resultsHint(detResultsPath(inp.paths, inp.classes[0])));

/** How the results files of `inp` are read: its image set's byte index, the results folder listed once, and `columns` (see `DetBytesReader`). */
function detBytesReader(inp: { paths: VocPaths; classes: VocClass[]; set: KeyList }, columns: DetColumns | undefined): DetBytesReader {
  const { set } = inp;
  return {
    set: { file: set.file, index: set.index, bytes: ByteKeyIndex.fromStrings(set.keys) },
    folder: listFolder(dirname(detResultsPath(inp.paths, inp.classes[0] ?? ''))),
    columns,
  };
}

/**
 * Reads the results files one after the other (only one file's bytes are in memory at a time), each image
 * id looked up as it is read: per detection only 4 numbers, a confidence, a line and an image position.
 */
export function readDetResults(inp: { paths: VocPaths; classes: VocClass[]; set: KeyList }, problems: ProblemCollector, signal?: AbortSignal): DetInputs {
  const results: DetResults[] = [];
  const imageOf: Int32Array[] = [];
  const hint = resultsHintOnce(inp);
  const reader = detBytesReader(inp, undefined);
  for (let k = 0; k < inp.classes.length; k++) {
    if (signal?.aborted) throw signal.reason ?? new Error('aborted');
    const r = readDetClassResultsBytes(inp, k, problems, hint, reader);
    if (r === undefined) continue;
    results[k] = r;
    imageOf[k] = r.imageOf!;
  }
  return { ...inp, results, imageOf };
}

/**
 * The per-class ground truth of the set: each record goes into the per-class arrays as it is read (or read from
 * the cache) and is dropped there, so the records of the set are never all kept (`onRecord` of `readVocRecords`).
 */
async function readGroundTruth(inp: { paths: VocPaths; classes: VocClass[]; set: KeyList }, context: RunContext, problems: ProblemCollector): Promise<Map<string, ClassGroundTruth>> {
  const { paths, set } = inp;
  const builder = new GroundTruthBuilder(set.keys.length, inp.classes);
  await readVocRecords(set.keys, { annotationsDir: paths.annotationsDir, path: paths.annotation, label: 'reading annotations', onRecord: (i, r) => builder.add(i, r) }, context, problems);
  return builder.finish();
}

/**
 * `voc2010/det`: VOCevaldet over the selected classes. The annotations are read first; then each class's results
 * file is read, evaluated and dropped before the next (only one class's detections are in memory at a time, unless
 * `--per-image` keeps them). Problems are reported in the same order as ever: the image set's, the results files'
 * (class by class), then the annotations'; once there is one, the remaining classes are only read, not evaluated.
 */
export async function evaluateDet(options: VocDetOptions, context: RunContext): Promise<Report> {
  const t0 = performance.now();
  const metric = apMetric(context);
  const problems = new ProblemCollector();
  const base = await readDetSet(options, problems);
  const { paths, set, classes } = base;
  // every annotation problem is kept (as readVocRecords keeps them) and added after the results files' problems
  const annotationProblems = new ProblemCollector(Number.MAX_SAFE_INTEGER);
  const gtByClass = await readGroundTruth(base, context, annotationProblems);
  if (metric.protocol.countDifficult === true) for (const gt of gtByClass.values()) countDifficultAsPositive(gt);
  const t1 = performance.now();
  const keep = context.perImage === true;
  const results: DetResults[] = [];
  const imageOf: Int32Array[] = [];
  const hint = resultsHintOnce(base);
  // a class's detections are dropped once evaluated, unless the per-image statistics read them
  const reader = detBytesReader(base, keep ? undefined : new DetColumns());
  const entries: ApEntry[] = [];
  const scratch = new DetScratch();
  let resultsMs = 0;
  let evaluateMs = 0;
  context.progress.begin('evaluating detections', classes.length);
  for (let k = 0; k < classes.length; k++) {
    // a Ctrl-C is seen between classes (one turn of the event loop every ~100 ms)
    await checkpoint(context.signal);
    const t = performance.now();
    const r = readDetClassResultsBytes(base, k, problems, hint, reader);
    const t2 = performance.now();
    resultsMs += t2 - t;
    if (r !== undefined && problems.size === 0 && annotationProblems.size === 0) {
      entries.push(evaluateDetClass(r, r.imageOf!, gtByClass.get(classes[k])!, metric.ap, classes[k], keep, scratch));
      // the class's detections are no longer needed (unless the per-image statistics read them): only its curve stays
      if (keep) {
        results[k] = r;
        imageOf[k] = r.imageOf!;
      }
    }
    evaluateMs += performance.now() - t2;
    context.progress.advance();
  }
  context.progress.end();
  for (const p of annotationProblems.problems) problems.add(p);
  problems.throwIfAny();
  const t3 = performance.now();
  return apReport({
    task: 'voc2010/det',
    metric: metric.name,
    entries,
    timings: { totalMs: t3 - t0, resultsMs, readMs: t1 - t0 + resultsMs, evaluateMs },
    extra: {
      root: paths.root,
      set: paths.set,
      comp: paths.comp,
      results: paths.resultsDir,
      images: set.keys.length,
      ...(keep ? { perImage: detPerImage(set.keys, entries, results, imageOf, gtByClass, metric.name) } : {}),
    },
  });
}

/** Checks the detection results files (field counts, numbers, image ids) without reading annotations. */
export async function validateDet(options: VocDetOptions): Promise<Diagnostic[]> {
  const problems = new ProblemCollector(1000);
  try {
    readDetResults(await readDetSet(options, problems), problems);
  } catch (e) {
    if (!(isDevkitError(e) && e.kind === 'input')) throw e;
  }
  return problemsToDiagnostics(problems, { message: 'bracketed', copyDetails: true });
}
