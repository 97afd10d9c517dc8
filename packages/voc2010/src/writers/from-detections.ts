/**
 * `create_segmentations_from_detections.m`: segmentation results made by painting detection boxes.
 *
 * Semantics (from the official script, see the README "Segmentation from detections"):
 * - the detections of all 20 classes are read (class order, then file order); a missing class file is an error;
 * - per image, detections with `confidence < threshold` are skipped (NaN is never skipped) and the boxes are
 *   painted in list order (`order: 'class'`, the VOC2010 script): later classes overwrite earlier ones, and
 *   within a class later lines overwrite earlier ones. `order: 'confidence'` follows the VOC2011/2012 script
 *   instead: ascending confidence (stable, NaN last, as MATLAB `sort`), so more confident boxes cover less
 *   confident ones;
 * - a box is `round(bbox)` (halves away from zero), then clipped: x to 1..W, y to 1..H (NaN → 1, ±Inf → the
 *   border); rows y1..y2 and columns x1..x2 are painted (nothing when x1 > x2 or y1 > y2);
 * - the class image holds the class index 1..20 (0 = background); the instance image holds the box's
 *   1-based rank in the image's detection list, saturated to 255 as `uint8` does;
 * - the image size is the JPEG's (`imfinfo`), else the ground-truth PNG's, else the annotation's.
 */
import { join } from 'node:path';
import { ProblemCollector, createReport, type Report, type RunContext } from '@cvdevkit/core';
import { parseImageListTokens } from './image-list.js';
import { ensureOutputDir, readTextFile, writeOutputFile } from '@cvdevkit/formats';
import { parseDetResults } from '../results.js';
import { VOC_CLASSES, detResultsPath, resolveVocPaths, type VocCommonOptions } from '../voc-options.js';
import { imageSize, type ImageSize } from './image-size.js';
import { encodeSegmentation } from './segmentation.js';

/** One detection to paint. */
export interface PaintDetection {
  /** Class index 1..20 (the label painted). */
  label: number;
  confidence: number;
  /** xmin, ymin, xmax, ymax. */
  box: ArrayLike<number>;
}

/** `'class'`: list order (VOC2010 script); `'confidence'`: ascending confidence (VOC2011/2012 script). */
export type PaintOrder = 'class' | 'confidence';

/** MATLAB `round`: halves away from zero. */
function matlabRound(x: number): number {
  return x < 0 ? -Math.round(-x) : Math.round(x);
}
/** `min(max(v, 1), n)` with MATLAB's NaN-ignoring max. */
function clip(v: number, n: number): number {
  const lo = Number.isNaN(v) ? 1 : Math.max(v, 1);
  return Math.min(lo, n);
}

/**
 * Renders one image (`convert_dets_to_image`): returns the class image and the instance image, row-major.
 * `detections` must be in the official list order (class order, then results-file order).
 */
export function renderDetections(
  width: number,
  height: number,
  detections: readonly PaintDetection[],
  threshold = -Infinity,
  paintOrder: PaintOrder = 'class',
): { classes: Uint8Array; instances: Uint8Array } {
  const classes = new Uint8Array(width * height);
  const instances = new Uint8Array(width * height);
  const order = detections.map((_, i) => i);
  // VOC2011/2012: [sc, si] = sort([dets.conf]): ascending, stable, NaN last.
  if (paintOrder === 'confidence') order.sort((a, b) => {
    const ca = detections[a].confidence;
    const cb = detections[b].confidence;
    const na = Number.isNaN(ca);
    const nb = Number.isNaN(cb);
    if (na || nb) return na === nb ? a - b : na ? 1 : -1;
    return ca < cb ? -1 : ca > cb ? 1 : a - b;
  });
  for (const j of order) {
    const d = detections[j];
    if (d.confidence < threshold) continue; // si(sc < confidence) = []
    const x1 = clip(matlabRound(d.box[0]), width);
    const y1 = clip(matlabRound(d.box[1]), height);
    const x2 = clip(matlabRound(d.box[2]), width);
    const y2 = clip(matlabRound(d.box[3]), height);
    const inst = Math.min(j + 1, 255);
    for (let y = y1; y <= y2; y++) {
      const row = (y - 1) * width;
      classes.fill(d.label, row + x1 - 1, row + x2);
      instances.fill(inst, row + x1 - 1, row + x2);
    }
  }
  return { classes, instances };
}

export interface SegFromDetOptions extends VocCommonOptions {
  /** Folder for the class PNGs (default `<results>/Segmentation/<segcomp>_<set>_cls`). */
  outDir?: string;
  /** Only detections with `confidence >= threshold` are painted (default: all). */
  threshold?: number;
  /** Also write instance PNGs (into `<outDir>/../<segcomp>_<set>_inst`). */
  instances?: boolean;
  /** Competition id of the written segmentations (default: the detection comp, as the VOC2010 script). */
  segComp?: string;
  /** Painting order (default `'class'`, the VOC2010 script). */
  order?: PaintOrder;
}

/** `comp3` → `comp5`, the VOC2011/2012 script's output id (`sprintf('comp%d', sscanf(id,'comp%d') + 2)`); other ids unchanged. */
export function segCompFor(detComp: string): string {
  const m = /^comp(\d+)/.exec(detComp);
  return m ? `comp${Number(m[1]) + 2}` : detComp;
}

export interface SegFromDetSummary {
  images: number;
  detectionsRead: number;
  detectionsUsed: number;
  outDir: string;
  instDir?: string;
  sizeSources: Record<ImageSize['source'], number>;
}

/** Reads the detection results of a VOCdevkit tree and writes one segmentation PNG per image of the segmentation set. */
export async function createSegmentationsFromDetections(options: SegFromDetOptions, context?: Partial<RunContext>): Promise<SegFromDetSummary> {
  const paths = resolveVocPaths({ ...options, comp: options.comp ?? 'comp3' }, 'det');
  const threshold = options.threshold ?? -Infinity;
  const segComp = options.segComp ?? paths.comp;
  const outDir = options.outDir ?? join(paths.resultsDir, 'Segmentation', `${segComp}_${paths.set}_cls`);
  const instDir = options.instances ? join(outDir, '..', `${segComp}_${paths.set}_inst`) : undefined;

  // All detections, class order then file order (the official `dets` list), grouped by image.
  const problems = new ProblemCollector();
  const byImage = new Map<string, PaintDetection[]>();
  let detectionsRead = 0;
  for (let c = 0; c < VOC_CLASSES.length; c++) {
    const file = detResultsPath(paths, VOC_CLASSES[c]);
    let text: string;
    try {
      text = await readTextFile(file, 'a detection results file');
    } catch (e) {
      problems.addError(e);
      continue;
    }
    const dets = parseDetResults(text, file, problems);
    for (let i = 0; i < dets.count; i++) {
      let list = byImage.get(dets.images[i]);
      if (!list) byImage.set(dets.images[i], (list = []));
      list.push({ label: c + 1, confidence: dets.confidence[i], box: dets.boxes.subarray(i * 4, i * 4 + 4) });
    }
    detectionsRead += dets.count;
  }
  const listFile = paths.imageSet('Segmentation', paths.set);
  const ids = parseImageListTokens(await readTextFile(listFile, 'an image set list'));
  problems.throwIfAny();

  const progress = context?.progress;
  progress?.begin('segmentations from detections', ids.length);
  const sizeSources: SegFromDetSummary['sizeSources'] = { jpeg: 0, png: 0, annotation: 0 };
  let used = 0;
  await ensureOutputDir(outDir, 'the segmentation PNGs');
  if (instDir) await ensureOutputDir(instDir, 'the instance PNGs');
  const one = async (id: string) => {
    if (context?.signal?.aborted) throw context.signal.reason ?? new Error('aborted');
    const size = await imageSize(paths.dataDir, id);
    sizeSources[size.source]++;
    const dets = byImage.get(id) ?? [];
    used += dets.filter((d) => !(d.confidence < threshold)).length;
    const { classes, instances } = renderDetections(size.width, size.height, dets, threshold, options.order ?? 'class');
    await writeOutputFile(join(outDir, `${id}.png`), encodeSegmentation({ width: size.width, height: size.height, data: classes }), 'a segmentation PNG');
    if (instDir) await writeOutputFile(join(instDir, `${id}.png`), encodeSegmentation({ width: size.width, height: size.height, data: instances }), 'an instance PNG');
    progress?.advance(1);
  };
  try {
    // A few images in flight so file I/O overlaps the encoding.
    let next = 0;
    const lane = async () => {
      while (next < ids.length) await one(ids[next++]);
    };
    await Promise.all(Array.from({ length: Math.min(8, ids.length) }, lane));
  } finally {
    progress?.end();
  }
  return { images: ids.length, detectionsRead, detectionsUsed: used, outDir, instDir, sizeSources };
}

/** The summary as a Report (task `voc2010/seg-from-det`). */
export function segFromDetReport(summary: SegFromDetSummary, version: Record<string, string>, totalMs: number): Report {
  return createReport({
    dataset: 'voc2010',
    task: 'voc2010/seg-from-det',
    metric: 'none',
    summary: { images: summary.images, detectionsRead: summary.detectionsRead, detectionsUsed: summary.detectionsUsed },
    rows: [{ key: 'written', images: summary.images, classDir: summary.outDir, ...(summary.instDir ? { instanceDir: summary.instDir } : {}) }],
    versions: version,
    timings: { totalMs },
    extra: { ...summary },
  });
}
