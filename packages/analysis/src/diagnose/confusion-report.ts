import type { FieldInfo, ReportRow } from '@cvdevkit/core';
import type { ConfusionResult } from './confusion.js';

/** The confusion section in the report's table: per-class columns, summary keys and their meanings. */
export const CONFUSION_FIELDS: Record<string, FieldInfo> = {
  confCorrect: { description: 'confusion matrix (score ≥ conf): objects of the class matched by a detection of the class' },
  confAsOther: { description: 'confusion matrix: objects of the class matched by a detection of another class' },
  confMissed: { description: 'confusion matrix: objects of the class matched by no detection (background column)' },
  confBackground: { description: 'confusion matrix: detections of the class matched to no object (background row)' },
  confusedWith: { description: 'confusion matrix: the other class the objects of this class are most often detected as' },
  'confusion.conf': { description: 'confusion matrix: the score threshold (detections with a score ≥ it take part)' },
  'confusion.correct': { description: 'confusion matrix: objects matched by a detection of their class (the diagonal)' },
  'confusion.asOther': { description: 'confusion matrix: objects matched by a detection of another class' },
  'confusion.missed': { description: 'confusion matrix: objects matched by no detection' },
  'confusion.background': { description: 'confusion matrix: detections matched to no object' },
};

/** Adds the class's confusion columns to its row. */
export function confusionColumns(row: ReportRow, r: ConfusionResult, c: number): void {
  const k = r.perClass[c];
  Object.assign(row, { confCorrect: k.correct, confAsOther: k.asOtherClass, confMissed: k.missed, confBackground: k.background, confusedWith: k.confusedWith });
}

/** The confusion section's summary keys. */
export function confusionSummary(r: ConfusionResult): Record<string, number> {
  const sum = (f: (k: ConfusionResult['perClass'][number]) => number) => r.perClass.reduce((s, k) => s + f(k), 0);
  return {
    'confusion.conf': r.conf,
    'confusion.correct': sum((k) => k.correct),
    'confusion.asOther': sum((k) => k.asOtherClass),
    'confusion.missed': sum((k) => k.missed),
    'confusion.background': sum((k) => k.background),
  };
}
