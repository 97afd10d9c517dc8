import {
  createReport,
  defineTask,
  inputError,
  isDevkitError,
  ProblemCollector,
  problemsToDiagnostics,
  usageError,
  type Diagnostic,
  type Report,
  type RunContext,
} from '@cvdevkit/core';
import { computeClsLocErrors, type ClsLocErrors } from './clsloc-error.js';
import { readGroundTruthBoxes, type GroundTruthBoxes } from './ground-truth.js';
import {
  MAX_GUESSES,
  parseBlacklist,
  parseGroundTruthLabels,
  parsePredictions,
  readText,
  type Blacklist,
  type GroundTruthLabels,
  type Predictions,
} from './inputs.js';
import { clslocPerImage } from './per-image.js';
import { builtInSynsets, readSynsetMap, type SynsetMap } from './meta.js';
import { countRows } from './table.js';
import { writeSample } from './sample.js';
import { PACKAGE_NAME, PACKAGE_VERSION } from './version.js';

/** Options of `ilsvrc2015/clsloc` (CLI flags: `--pred`, `--labels`, `--gt`, `--blacklist`, `--meta`). */
export interface ClsLocOptions {
  /** Prediction file: per line up to 5 groups `<label> <xmin> <ymin> <xmax> <ymax>`. */
  pred: string;
  /** Ground-truth labels, one line per image (`ILSVRC2015_clsloc_validation_ground_truth.txt`). */
  labels: string;
  /** Annotations directory (`*.xml`, sorted = line order) or the official `rec` cache .mat. Needed for the localisation error. */
  gt?: string;
  /** Blacklisted image indices, one per line (`ILSVRC2015_clsloc_validation_blacklist.txt`). */
  blacklist?: string;
  /** `meta_clsloc.mat` or a `map_clsloc.txt`-style text map; default: the devkit's 2015 meta (built in). */
  meta?: string;
}

declare module '@cvdevkit/core' {
  interface TaskRegistry {
    'ilsvrc2015/clsloc': ClsLocOptions;
  }
}

/** The official metric: classification and localisation error of `eval_clsloc.m`. */
export const CLSLOC_METRIC = 'ilsvrc-clsloc-error';

interface LoadedInputs {
  synsets: SynsetMap;
  labels: GroundTruthLabels;
  pred: Predictions;
  blacklist?: Blacklist;
}

function requirePath(options: ClsLocOptions, name: 'pred' | 'labels'): string {
  const v = options[name];
  if (typeof v !== 'string' || v === '') throw usageError(`missing --${name}`, 'usage/missing-option');
  return v;
}

/** Reads meta, labels, predictions and blacklist, reporting the problems of all of them together. */
function loadInputs(options: ClsLocOptions): LoadedInputs {
  const predPath = requirePath(options, 'pred');
  const labelsPath = requirePath(options, 'labels');
  const synsets = options.meta ? readSynsetMap(options.meta) : builtInSynsets();
  const problems = new ProblemCollector();
  let labels: GroundTruthLabels | undefined;
  let pred: Predictions | undefined;
  let blacklist: Blacklist | undefined;
  let labelRows: number | undefined;
  let predRows: number | undefined;
  try {
    const text = readText(labelsPath, 'the ground-truth label file');
    labelRows = countRows(text);
    labels = parseGroundTruthLabels(text, labelsPath, synsets.count);
  } catch (e) {
    problems.addError(e);
  }
  try {
    const text = readText(predPath, 'the prediction file');
    predRows = countRows(text);
    pred = parsePredictions(text, predPath, synsets.count);
  } catch (e) {
    problems.addError(e);
  }
  if (options.blacklist) {
    try {
      blacklist = parseBlacklist(readText(options.blacklist, 'the blacklist file'), options.blacklist);
    } catch (e) {
      problems.addError(e);
    }
  }
  if (labelRows !== undefined && predRows !== undefined && labelRows > 0 && predRows > 0 && labelRows !== predRows) {
    problems.add({
      code: 'input/row-count',
      file: predPath,
      expected: `${labelRows} lines, one per line of ${labelsPath} (the official assert size(pred,1)==size(gt_labels,1))`,
      found: `${predRows} lines`,
    });
  }
  problems.throwIfAny();
  return { synsets, labels: labels!, pred: pred!, blacklist };
}

function diagnosticsFor(inputs: LoadedInputs, boxes: GroundTruthBoxes | undefined, result: ClsLocErrors): Diagnostic[] {
  const out: Diagnostic[] = [];
  const { pred, labels, blacklist } = inputs;
  if (!boxes) {
    out.push({
      severity: 'info',
      code: 'clsloc/classification-only',
      message: 'no --gt given: only the classification error is computed (the official eval_clsloc with one output); locError is null',
    });
  }
  if (pred.widestRow > MAX_GUESSES) {
    out.push({
      severity: 'info',
      code: 'clsloc/extra-guesses',
      message: `some lines have up to ${pred.widestRow} guesses; only the first ${MAX_GUESSES} are scored, as the official code cuts them`,
      file: pred.file,
    });
  }
  if (pred.invertedBoxes > 0) {
    out.push({
      severity: 'info',
      code: 'ilsvrc/inverted-box',
      message: `${pred.invertedBoxes} guessed boxes have xmax < xmin or ymax < ymin; they are scored as the official code does (usually no overlap)`,
      file: pred.file,
    });
  }
  if (blacklist && boxes) {
    const seen = new Set<number>();
    blacklist.indices.forEach((b, k) => {
      if (b > labels.rows) {
        out.push({
          severity: 'warning',
          code: 'clsloc/blacklist-out-of-range',
          message: `blacklisted image ${b} is beyond the ${labels.rows} images; as in the official code it excludes nothing but still reduces the localisation denominator`,
          file: blacklist.file,
          line: blacklist.lines[k],
        });
      } else if (seen.has(b)) {
        out.push({
          severity: 'warning',
          code: 'clsloc/blacklist-duplicate',
          message: `image ${b} is blacklisted twice; as in the official code (length(blacklist)) it is subtracted twice from the localisation denominator`,
          file: blacklist.file,
          line: blacklist.lines[k],
        });
      }
      seen.add(b);
    });
  }
  if (boxes && boxes.images > labels.rows) {
    out.push({
      severity: 'warning',
      code: 'clsloc/extra-annotations',
      message: `${boxes.source} holds ${boxes.images} images but ${labels.file} only ${labels.rows}; the first ${labels.rows} (in sorted order) are used`,
      file: boxes.source,
    });
  }
  if (result.locError && result.intendedLocError && result.locError.some((v, k) => !Object.is(v, result.intendedLocError![k]))) {
    const fmt = (v: number) => (Number.isFinite(v) ? v.toFixed(6) : String(v));
    out.push({
      severity: 'warning',
      code: 'clsloc/multilabel-quirk',
      message:
        `the ground truth has rows with ${labels.counts[0]} and with other numbers of labels; the official loop "for k = 1:n" only visits ` +
        `the first row's ${labels.counts[0]} label(s) of every row (${result.quirkRows} rows affected). Official locError at 5 guesses ` +
        `${fmt(result.locError[MAX_GUESSES - 1])} (reported); with every row's own labels it would be ${fmt(result.intendedLocError[MAX_GUESSES - 1])}`,
      file: labels.file,
      intendedLocError: result.intendedLocError,
    });
  }
  return out;
}

async function evaluateClsLoc(options: ClsLocOptions, context: RunContext): Promise<Report> {
  const t0 = performance.now();
  if (context.metric !== undefined && context.metric !== CLSLOC_METRIC) {
    throw usageError(`ilsvrc2015/clsloc has one metric, ${CLSLOC_METRIC}; got ${context.metric}`, 'usage/unknown-metric', `use --metric ${CLSLOC_METRIC} or leave it out`);
  }
  const inputs = loadInputs(options);
  const t1 = performance.now();
  let boxes: GroundTruthBoxes | undefined;
  if (options.gt) {
    boxes = await readGroundTruthBoxes(options.gt, inputs.synsets, context);
    // the rec cache holds class labels: each must be a synset of the meta (a meta of another dataset is an error, issue 25)
    let maxLabel = 0;
    for (const l of boxes.labels) if (l > maxLabel) maxLabel = l;
    if (maxLabel > inputs.synsets.count) {
      throw inputError({
        code: 'input/meta-gt-mismatch',
        file: options.gt,
        field: 'rec(:).objects.label',
        expected: `class labels 1..${inputs.synsets.count} (the ${inputs.synsets.count} synsets of ${inputs.synsets.source})`,
        found: `label ${maxLabel}`,
        hint: 'the meta file and the ground truth come from different datasets or tasks',
      });
    }
    if (boxes.images < inputs.labels.rows) {
      throw inputError({
        code: 'input/annotation-count',
        file: options.gt,
        expected: `ground truth for ${inputs.labels.rows} images, one per line of ${inputs.labels.file} (in sorted file order)`,
        found: `${boxes.images} images`,
      });
    }
  }
  const t2 = performance.now();
  const result = computeClsLocErrors({ pred: inputs.pred, labels: inputs.labels, boxes, blacklist: inputs.blacklist, perColumn: context.perImage === true });
  const t3 = performance.now();
  const rows = result.clsError.map((c, k) => ({
    key: String(k + 1),
    clsError: c,
    locError: result.locError ? result.locError[k] : null,
  }));
  return createReport({
    dataset: 'ilsvrc2015',
    task: 'ilsvrc2015/clsloc',
    metric: CLSLOC_METRIC,
    summary: {
      clsError: result.clsError[MAX_GUESSES - 1],
      locError: result.locError ? result.locError[MAX_GUESSES - 1] : null,
    },
    rows,
    diagnostics: diagnosticsFor(inputs, boxes, result),
    versions: { [PACKAGE_NAME]: PACKAGE_VERSION },
    timings: { totalMs: t3 - t0, readInputsMs: t1 - t0, groundTruthMs: t2 - t1, evaluateMs: t3 - t2 },
    extra: {
      images: inputs.labels.rows,
      guessesPerLine: inputs.pred.widestRow,
      labelsPerImage: inputs.labels.width,
      synsets: inputs.synsets.source,
      ...(boxes
        ? {
            groundTruth: { source: boxes.source, kind: boxes.kind, images: boxes.images, objects: boxes.labels.length, fromCache: boxes.fromCache === true },
            blacklistedImages: result.blacklistedRows,
            blacklistSize: result.blacklistSize,
          }
        : {}),
      ...(context.perImage ? { perImage: clslocPerImage(inputs.pred, inputs.labels, boxes, inputs.blacklist, result) } : {}),
    },
  });
}

async function validateClsLoc(options: ClsLocOptions): Promise<Diagnostic[]> {
  try {
    loadInputs(options);
    return [];
  } catch (e) {
    if (!isDevkitError(e) || e.kind !== 'input') throw e;
    return problemsToDiagnostics(e, { fields: ['file', 'line', 'field'], message: 'plain' });
  }
}

export const clslocTask = defineTask<ClsLocOptions>({
  id: 'ilsvrc2015/clsloc',
  title: 'ILSVRC2015 classification + localisation (CLS-LOC) error, as eval_clsloc.m',
  description:
    'Top-1..5 classification and localisation error of the ILSVRC2015 devkit (eval_clsloc.m run by demo_eval_clsloc.m for 1..5 guesses): ' +
    'a guess localises an image when its label is right and its box has IoU ≥ 0.5 (+1 pixel rule) with a ground-truth box of that label.',
  options: [
    { name: 'pred', type: 'path', required: true, description: 'prediction file: per line up to 5 groups "<label> <xmin> <ymin> <xmax> <ymax>"' },
    { name: 'labels', type: 'path', required: true, description: 'ground-truth labels, one line per image (ILSVRC2015_clsloc_validation_ground_truth.txt)' },
    {
      name: 'gt',
      type: 'path',
      description: 'Annotations directory (*.xml, sorted order = line order) or the official rec cache .mat (ILSVRC2015_clsloc_validation_ground_truth.mat); needed for the localisation error',
    },
    { name: 'blacklist', type: 'path', description: 'blacklisted image indices, one per line (ILSVRC2015_clsloc_validation_blacklist.txt); used by the localisation error only' },
    { name: 'meta', type: 'path', description: 'meta_clsloc.mat or a map_clsloc.txt-style "<WNID> <label>" list (default: the devkit 2015 meta, built in)' },
  ],
  metric: CLSLOC_METRIC,
  metrics: [CLSLOC_METRIC],
  evaluate: evaluateClsLoc,
  validate: validateClsLoc,
  sample: writeSample,
  charts: [{ kind: 'error-by-cutoff' }],
  async replicate(stats) {
    const { perImageOfKind } = await import('@cvdevkit/metrics');
    return (await import('./replicate.js')).clslocReplicator(perImageOfKind(stats, 'clsloc', 'ilsvrc2015/clsloc'));
  },
});
