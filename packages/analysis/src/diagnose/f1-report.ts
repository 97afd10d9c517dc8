import type { FieldInfo, ReportRow } from '@cvdevkit/core';
import type { F1Result } from './f1.js';

const nullIfNaN = (v: number): number | null => (Number.isNaN(v) ? null : v);

/** The f1 section in the report's table: per-class columns, summary keys and their meanings. */
export const F1_FIELDS: Record<string, FieldInfo> = {
  f1: { unit: 'F1 (0–1)', description: 'the best F1 of the class over the score thresholds (official matching at IoU 0.5)' },
  f1Threshold: { description: "the score threshold of the class's best F1 (detections with a score ≥ it)" },
  f1Precision: { unit: 'precision (0–1)', description: "precision at the class's best-F1 threshold" },
  f1Recall: { unit: 'recall (0–1)', description: "recall at the class's best-F1 threshold" },
  'f1.best': { unit: 'F1 (0–1)', description: 'the best overall F1 (micro: all detections and positives together) over the score thresholds' },
  'f1.threshold': { description: 'the score threshold of the best overall F1' },
  'f1.precision': { unit: 'precision (0–1)', description: 'overall precision at the best-F1 threshold' },
  'f1.recall': { unit: 'recall (0–1)', description: 'overall recall at the best-F1 threshold' },
};

/** Adds the class's best-F1 columns to its row. */
export function f1Columns(row: ReportRow, r: F1Result, c: number): void {
  const b = r.perClass[c].best;
  Object.assign(row, { f1: nullIfNaN(b.f1), f1Threshold: nullIfNaN(b.threshold), f1Precision: nullIfNaN(b.precision), f1Recall: nullIfNaN(b.recall) });
}

/** The f1 section's summary keys (the overall, micro, best point). */
export function f1Summary(r: F1Result): Record<string, number | null> {
  const b = r.overall.best;
  return { 'f1.best': nullIfNaN(b.f1), 'f1.threshold': nullIfNaN(b.threshold), 'f1.precision': nullIfNaN(b.precision), 'f1.recall': nullIfNaN(b.recall) };
}
