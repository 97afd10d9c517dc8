/** The report of a complete evaluation: summary, one row per class, the confusion matrix, the warnings. */
import { createReport, type Diagnostic, type Report, type ReportMatrix, type ReportRow } from '@cvdevkit/core';
import { CLASS_COUNT, CLASS_NAMES, classKey } from './classes.js';
import { BINS } from './image-counts.js';
import { evaluatedCounts, recordDiagnostics, type EntryRecord, type RunSettings } from './records.js';
import { computeTotals } from './totals.js';
import { sceneParsingPerImage } from './per-image.js';

export const TASK_ID = 'ade20k/sceneparsing';
export const METRIC = 'challenge-score';

/** The confusion matrix's labels: bin 0 (unlabeled, or predicted 0) then the 150 class names. */
export const CONFUSION_LABELS: readonly string[] = ['(unlabeled / 0)', ...CLASS_NAMES];

/**
 * The confusion matrix (rows = ground-truth bin, columns = masked prediction bin; values above 150 in the
 * class-150 bin) restricted to the bins that hold a pixel in their row or column: the rows and columns
 * left out are all zero, and a 151 × 151 heat map of a small case would be mostly empty.
 */
export function confusionMatrix(confusion: Float64Array): ReportMatrix {
  const used: number[] = [];
  for (let b = 0; b < BINS; b++) {
    let any = false;
    for (let k = 0; k < BINS && !any; k++) any = confusion[b * BINS + k] !== 0 || confusion[k * BINS + b] !== 0;
    if (any) used.push(b);
  }
  return { labels: used.map((b) => CONFUSION_LABELS[b]), counts: used.map((g) => used.map((p) => confusion[g * BINS + p])) };
}

export interface ReportOptions {
  metric?: string;
  packageName: string;
  version: string;
  /** Diagnostics added after the records' own. */
  diagnostics?: Diagnostic[];
  /** Put the per-image statistics in `extra.perImage` (`cvdevkit eval --per-image`, for `compare --bootstrap`). */
  perImage?: boolean;
}

/** Builds the report from every entry's record (all shards, in order); at least one image must be evaluated. */
export function reportFromRecords(records: readonly EntryRecord[], settings: RunSettings, options: ReportOptions): Report {
  const totals = computeTotals(evaluatedCounts(records));
  const rows: ReportRow[] = [];
  for (let c = 0; c < CLASS_COUNT; c++) {
    rows.push({ key: classKey(c + 1), name: CLASS_NAMES[c], iou: totals.iou[c], intersection: totals.intersection[c], union: totals.union[c] });
  }
  const skipped = records.filter((r) => r.counts === undefined).length;
  return createReport({
    dataset: 'ade20k',
    task: TASK_ID,
    metric: options.metric ?? METRIC,
    summary: {
      score: totals.score,
      mIoU: totals.mIoU,
      pixelAccuracy: totals.pixelAccuracy,
      images: totals.images,
      skipped,
      pixelsLabeled: totals.pixelLabeled,
      pixelsCorrect: totals.pixelCorrect,
    },
    rows,
    matrices: { confusion: confusionMatrix(totals.confusion) },
    diagnostics: [...recordDiagnostics(records, settings), ...(options.diagnostics ?? [])],
    versions: { [options.packageName]: options.version },
    ...(options.perImage ? { extra: { perImage: sceneParsingPerImage(records) } } : {}),
  });
}
