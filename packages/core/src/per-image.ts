/**
 * Per-image sufficient statistics and their replicator: the extension point behind
 * `cvdevkit compare --bootstrap`. A task stores its statistics in `report.extra.perImage` (when
 * `context.perImage` asks for them) and provides, through its `replicate` hook, the `Replicator` that
 * recomputes its official per-class metric from them on a bootstrap replicate of the test images. The
 * bootstrap (`@cvdevkit/analysis`) draws the replicates and knows no metric: it only calls the replicator.
 */

/** The schema tag of per-image statistics (`report.extra.perImage.schema`). */
export const PER_IMAGE_SCHEMA = 'cvdevkit.per-image/1';

/** How the task turns per-class values into its summary. */
export type SummaryRule =
  /** mean of the non-NaN values */
  | 'mean-numeric'
  /** plain mean, NaN propagates */
  | 'mean'
  /** the last row's value (rows that are cut-offs of one metric, not classes) */
  | 'last';

/** What every task's per-image statistics hold, whatever their `kind` (the task's own layout). */
export interface PerImageStatistics {
  schema: typeof PER_IMAGE_SCHEMA;
  /** The task's own layout of the rest of the object; only its replicator reads it. */
  kind: string;
  /** Number of test images (the bootstrap's units). */
  images: number;
  /** Hash of the ground truth (image ids, positives / labels): reports compare only when equal. */
  fingerprint: string;
  /** The report summary key and how it is formed from the per-class values. */
  summaryKey: string;
  summary: SummaryRule;
  /** The per-class value: the report rows' field holding it. */
  valueField: string;
  /** Larger is better (AP, IoU, F) — false for error rates. */
  higherIsBetter: boolean;
  /**
   * The rows are classes (blocks of the Friedman test). False when the rows are cut-offs of one metric
   * (for example an error at 1..5 guesses). Absent = true.
   */
  rowsAreClasses?: boolean;
}

/**
 * Recomputes a task's official per-class metric on a bootstrap replicate, given the multiplicity `w[i]` of
 * every test image: the replicate equals the official metric run on a test set in which image i is listed
 * `w[i]` times.
 */
export interface Replicator {
  images: number;
  classes: string[];
  /**
   * Fills `out[c]` with class c's metric on the replicate. Returns the replicate's summary when the task
   * computes it itself (a summary that is not exactly its `summary` rule applied to the per-class values, for
   * example a mean over pooled cells); returns nothing to have the rule applied.
   */
  evaluate(w: Uint32Array, out: Float64Array): number | void;
}

/** The per-image statistics a report holds (`report.extra.perImage`), or undefined. */
export function perImageStatisticsOf(report: { extra?: Record<string, unknown> }): PerImageStatistics | undefined {
  const p = report.extra?.perImage as PerImageStatistics | undefined;
  return p && typeof p === 'object' && p.schema === PER_IMAGE_SCHEMA ? p : undefined;
}
