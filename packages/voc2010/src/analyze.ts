import { vocMatcher } from '@cvdevkit/metrics';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ProblemCollector, type AnalyzeOptionValues, type DetectionAnalysisRequest, type DiagnoseInput, type RunContext } from '@cvdevkit/core';
import { VOC_SIMILAR_GROUPS } from './similar-classes.js';
import { apMetric } from './ap-report.js';
import { readVocRecords, type VocRecord } from './annotations.js';
import { readDetResults, readDetSet, type DetInputs, type VocDetOptions } from './det.js';
import { PACKAGE_NAME, PACKAGE_VERSION } from './version.js';
import { VOC_CLASSES } from './voc-options.js';

/** The neutral diagnosis input of `voc2010/det`: detections class by class in file order, objects image by image. */
export function vocDiagnoseInput(inputs: Pick<DetInputs, 'classes' | 'set' | 'results' | 'imageOf'>, records: readonly VocRecord[]): DiagnoseInput {
  const { classes, set, results, imageOf } = inputs;
  const slot = new Map<string, number>(classes.map((c, k) => [c, k]));
  let nDet = 0;
  for (const r of results) nDet += r.count;
  const det = { image: new Int32Array(nDet), cls: new Int32Array(nDet), score: new Float64Array(nDet), boxes: new Float64Array(4 * nDet) };
  let d = 0;
  results.forEach((r, k) => {
    det.image.set(imageOf[k], d);
    det.cls.fill(k, d, d + r.count);
    det.score.set(r.confidence, d);
    det.boxes.set(r.boxes.subarray(0, 4 * r.count), 4 * d);
    d += r.count;
  });
  const img: number[] = [], cls: number[] = [], boxes: number[] = [], difficult: number[] = [];
  const width = new Float64Array(set.keys.length);
  const height = new Float64Array(set.keys.length);
  let sizes = true;
  records.forEach((rec, i) => {
    if (rec.size && rec.size.width > 0 && rec.size.height > 0) {
      width[i] = rec.size.width;
      height[i] = rec.size.height;
    } else sizes = false;
    for (const o of rec.objects) {
      const k = slot.get(o.name);
      if (k === undefined) continue;
      img.push(i);
      cls.push(k);
      boxes.push(...o.bbox);
      difficult.push(o.difficult ? 1 : 0);
    }
  });
  // Similar-class groups, 1-based in the full VOC order, mapped to the selected classes.
  const groups = VOC_SIMILAR_GROUPS.map((g) => g.map((c) => slot.get(VOC_CLASSES[c - 1]) ?? -1).filter((c) => c >= 0));
  return {
    classes,
    images: set.keys,
    ...(sizes ? { imageWidth: width, imageHeight: height } : {}),
    match: vocMatcher,
    detections: det,
    objects: { image: Int32Array.from(img), cls: Int32Array.from(cls), boxes: Float64Array.from(boxes), difficult: Uint8Array.from(difficult) },
    similarGroups: groups,
    meanRule: 'numeric',
  };
}

/** `cvdevkit analyze voc2010/det`: the inputs read and matched as the evaluation does, for the diagnosis (overlap, size, Hoiem, TIDE, top). */
export async function analyzeDet(options: VocDetOptions & AnalyzeOptionValues, context: RunContext): Promise<DetectionAnalysisRequest> {
  const t0 = performance.now();
  const metric = apMetric(context);
  const problems = new ProblemCollector();
  const base = await readDetSet(options, problems);
  const { paths, set } = base;
  let inputs: DetInputs | undefined;
  const read = (ctx: RunContext, meanwhile?: () => Promise<void>) =>
    readVocRecords(set.keys, { annotationsDir: paths.annotationsDir, path: paths.annotation, label: 'reading annotations', meanwhile }, ctx, problems);
  let records = await read(context, async () => {
    inputs = readDetResults(base, problems);
  });
  // The size analysis needs each image's <size>: records cached by an older version lack it, so read again uncached.
  if (context.cacheDir && records.some((r) => r !== undefined && r.size === undefined)) records = await read({ ...context, cacheDir: undefined });
  problems.throwIfAny();
  const t1 = performance.now();
  const input = vocDiagnoseInput(inputs!, records as VocRecord[]);
  input.ap = metric.ap;
  // A metric whose protocol counts difficult objects (ap-voc2010-difficult) sees no difficult object.
  if (metric.protocol.countDifficult === true) input.objects.difficult.fill(0);
  // the VOCdevkit keeps the images beside Annotations/: <root>/VOC2010/JPEGImages
  const images = options.images ?? join(paths.dataDir, 'JPEGImages');
  // An images folder asked for but absent: the HTML shows ids and boxes, and says why.
  const diagnostics: DetectionAnalysisRequest['diagnostics'] =
    options.images !== undefined && !existsSync(images)
      ? [{ severity: 'info', code: 'analysis/image-unavailable', file: images, message: 'top detections: --images names no folder; shown as image ids and boxes' }]
      : [];
  return {
    kind: 'detection',
    dataset: 'voc2010',
    task: 'voc2010/det',
    metric: metric.name,
    input,
    versions: { [PACKAGE_NAME]: PACKAGE_VERSION },
    timings: { totalMs: t1 - t0, readMs: t1 - t0 },
    extra: { root: paths.root, set: paths.set, comp: paths.comp, images: set.keys.length, ...(existsSync(images) ? { imagesDir: images } : {}) },
    diagnostics,
  };
}
