import { ilsvrcMatcher } from '@cvdevkit/metrics';
import { statSync } from 'node:fs';
import { inputError, usageError, type AnalyzeOptionValues, type DetectionAnalysisRequest, type DiagnoseInput, type RunContext } from '@cvdevkit/core';
import { similarGroupsFromParents } from './similar-classes.js';
import { ILSVRC_AP, PACKAGE_NAME, VERSION, type DetectionTaskInputs, type DetectionTaskSettings } from './detection-task.js';
import { readGroundTruthCache, readGroundTruthXml, type GroundTruth } from './ground-truth.js';
import { readBlacklist, readImageList, readPredictions, type Blacklist, type Predictions } from './inputs.js';
import { checkGroundTruthClasses, readSynsets, type Synsets } from './meta.js';

/** MATLAB `sort(…, 'descend')` order of two confidences: NaN first, then larger first; 0 on ties. */
function confOrder(a: number, b: number): number {
  const an = Number.isNaN(a);
  const bn = Number.isNaN(b);
  if (an || bn) return an === bn ? 0 : an ? -1 : 1;
  return a > b ? -1 : a < b ? 1 : 0;
}

/** Classes that share a parent in the meta file's hierarchy (`children` holds `*_ID`s). */
export function ilsvrcSimilarGroups(synsets: Synsets, numClasses: number): number[][] {
  if (!synsets.children) return [];
  const labelOfId = new Map<number, number>();
  synsets.ids.forEach((id, i) => {
    if (i < numClasses && !Number.isNaN(id)) labelOfId.set(id, i);
  });
  const parentsOf: number[][] = Array.from({ length: numClasses }, () => []);
  synsets.children.forEach((kids, q) => {
    for (const id of kids) {
      const c = labelOfId.get(id);
      if (c !== undefined) parentsOf[c].push(q);
    }
  });
  return similarGroupsFromParents(parentsOf);
}

/**
 * The neutral diagnosis input of an ILSVRC detection evaluation, in the official order: every list
 * entry is an image (detections go to the last entry with their index), detections ranked by confidence
 * (NaN first) with ties by image group (index or line order) then file order; blacklisted (image, class)
 * detections are skipped rows and their objects are not positives; labels outside 1..numClasses (in no
 * curve) and detections off the list are left out.
 */
// Long on purpose: one pass per input array, in the official order.
export function ilsvrcDiagnoseInput(gt: GroundTruth, preds: Predictions, blacklist: Blacklist | undefined, synsets: Synsets, settings: Pick<DetectionTaskSettings, 'order' | 'outside'>): DiagnoseInput {
  const nEntries = gt.imageIds.length;
  const numClasses = gt.numPos.length;
  const entryOf = new Map<number, number>();
  for (let i = 0; i < nEntries; i++) entryOf.set(gt.imageIds[i], i);
  const group = new Int32Array(nEntries);
  if (settings.order === 'index') {
    const ids = Array.from(entryOf.keys()).sort((a, b) => a - b);
    ids.forEach((id, g) => (group[entryOf.get(id)!] = g));
  } else for (let i = 0; i < nEntries; i++) group[i] = i;
  const bl = new Set<string>();
  if (blacklist) for (let k = 0; k < blacklist.imageIds.length; k++) bl.add(`${blacklist.imageIds[k]}:${blacklist.labels[k]}`);

  const keep: number[] = [];
  for (let d = 0; d < preds.count; d++) {
    const e = entryOf.get(preds.imageIds[d]);
    if (e === undefined) {
      if (settings.outside === 'error') {
        throw inputError({ code: 'input/unknown-image', file: preds.file, line: preds.lines[d], field: 'image index', expected: 'an image index of the image list', found: String(preds.imageIds[d]) });
      }
      continue;
    }
    const label = preds.labels[d];
    if (label >= 1 && label <= numClasses) keep.push(d);
  }
  const n = keep.length;
  const det = { image: new Int32Array(n), cls: new Int32Array(n), score: new Float64Array(n), boxes: new Float64Array(4 * n), skip: new Uint8Array(n) };
  keep.forEach((d, k) => {
    const e = entryOf.get(preds.imageIds[d])!;
    det.image[k] = e;
    det.cls[k] = preds.labels[d] - 1;
    det.score[k] = preds.confidences[d];
    det.boxes.set(preds.boxes.subarray(4 * d, 4 * d + 4), 4 * k);
    if (bl.has(`${preds.imageIds[d]}:${preds.labels[d]}`)) det.skip[k] = 1;
  });
  const order = Array.from({ length: n }, (_, k) => k);
  order.sort((a, b) => confOrder(det.score[a], det.score[b]) || group[det.image[a]] - group[det.image[b]] || a - b);

  const nObj = gt.labels.length;
  const objects = {
    image: new Int32Array(nObj),
    cls: new Int32Array(nObj),
    boxes: Float64Array.from(gt.boxes),
    difficult: new Uint8Array(nObj),
    uncounted: new Uint8Array(nObj),
    minOverlap: Float64Array.from(gt.thr),
  };
  for (let i = 0; i < nEntries; i++) {
    for (let k = gt.objStart[i]; k < gt.objStart[i + 1]; k++) {
      objects.image[k] = i;
      objects.cls[k] = gt.labels[k] - 1;
      if (bl.has(`${gt.imageIds[i]}:${gt.labels[k]}`)) objects.uncounted[k] = 1;
    }
  }
  return {
    classes: Array.from({ length: numClasses }, (_, c) => synsets.wnids[c] ?? `class_${c + 1}`),
    images: Array.from(gt.imageIds, (id) => String(id)),
    ...imageSizes(gt),
    match: ilsvrcMatcher,
    detections: { ...det, rank: Uint32Array.from(order) },
    objects,
    similarGroups: ilsvrcSimilarGroups(synsets, numClasses),
    meanRule: 'all',
  };
}

/** The XML `<size>` of every entry, when every one has a positive width and height (the size analysis needs them all). */
function imageSizes(gt: GroundTruth): { imageWidth?: Float64Array; imageHeight?: Float64Array } {
  const { imageWidth, imageHeight } = gt;
  if (!imageWidth || !imageHeight) return {};
  for (let i = 0; i < imageWidth.length; i++) if (!(imageWidth[i] > 0 && imageHeight[i] > 0)) return {};
  return { imageWidth, imageHeight };
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** `cvdevkit analyze ilsvrc2015/det|vid`: the inputs read and ranked as the evaluation does, for the diagnosis (overlap, size with XML ground truth, Hoiem, TIDE, top). */
export async function analyzeDetectionTask(inputs: DetectionTaskInputs, _values: AnalyzeOptionValues, settings: DetectionTaskSettings, context: RunContext): Promise<DetectionAnalysisRequest> {
  const t0 = performance.now();
  const metric = context.metric ?? ILSVRC_AP;
  if (metric !== ILSVRC_AP) throw usageError(`unknown metric "${metric}" for this task`, 'usage/unknown-metric', `the ILSVRC detection tasks accept only ${ILSVRC_AP}`);
  for (const k of ['pred', 'meta', 'gt'] as const) if (!inputs[k]) throw usageError(`missing option --${k}`, 'usage/missing-option');
  if (settings.excludeGenerated) throw usageError('analyze does not support --exclude-generated', 'usage/invalid');
  const synsets = readSynsets(inputs.meta);
  const useCache = isFile(inputs.gt) && /\.mat$/i.test(inputs.gt);
  if (!inputs.list && !useCache) throw usageError('missing option --list (the image list is needed to read XML ground truth)', 'usage/missing-option');
  const list = inputs.list ? readImageList(inputs.list) : undefined;
  const gt = useCache ? readGroundTruthCache(inputs.gt) : await readGroundTruthXml(inputs.gt, list!, synsets, context, settings.version);
  const preds = readPredictions(inputs.pred);
  const blacklist = inputs.blacklist ? readBlacklist(inputs.blacklist, synsets) : undefined;
  checkGroundTruthClasses(gt.numPos.length, synsets, inputs.gt);
  if (gt.numPos.length === 0) {
    throw inputError({ code: 'input/no-ground-truth', file: inputs.gt, expected: 'at least one ground-truth object', found: 'no objects' });
  }
  const input = ilsvrcDiagnoseInput(gt, preds, blacklist, synsets, settings);
  const t1 = performance.now();
  const noSizes = gt.source === 'cache' ? `the ground-truth cache ${inputs.gt} holds no image sizes: pass the Annotations directory` : 'an annotation has no <size> with a positive width and height';
  return {
    kind: 'detection',
    dataset: settings.dataset,
    task: settings.task,
    metric,
    input,
    unavailable: { size: noSizes },
    sectionNotes: synsets.children ? {} : { hoiem: `hoiem: ${inputs.meta} has no hierarchy (no "children" field), so no two classes are similar and Sim is empty` },
    classNames: Array.from({ length: input.classes.length }, (_, c) => synsets.names[c]),
    // the headline `eval` gives, in place of the generic mAP (the same mean and median: bit-identical)
    headline: {
      mean: 'meanAP',
      median: 'medianAP',
      meanDescription: "mean of the classes' APs, as eval_det.m / eval_vid.m",
      medianDescription: "median of the classes' APs, as eval_det.m / eval_vid.m",
    },
    versions: { [settings.packageName]: settings.version, [PACKAGE_NAME]: VERSION, ...settings.versions },
    timings: { totalMs: t1 - t0, readMs: t1 - t0 },
    extra: { images: gt.imageIds.length, objects: gt.labels.length, detections: input.detections.score.length, similarGroups: input.similarGroups.length },
  };
}
