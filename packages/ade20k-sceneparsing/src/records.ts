/**
 * The outcome of every listed file, in the evaluation's order: what a run (or a shard) found, and what a
 * merge of shards puts back together. The report (numbers and warnings) is a function of these records
 * alone, so that merged shards give the report of one run, bit for bit.
 */
import { join } from 'node:path';
import type { Diagnostic } from '@cvdevkit/core';
import type { ImageCounts } from './image-counts.js';
import type { PlanEntry } from './plan.js';

export type EntryOutcome =
  | 'evaluated'
  | 'scored-as-wrong'
  | 'skipped-truecolour'
  /** A prediction without a ground truth of the same name (skipped, as the official code does). */
  | 'skipped-no-gt'
  /** A ground truth without a prediction (not evaluated, as the official code; warned about). */
  | 'skipped-no-pred';

export interface EntryRecord extends PlanEntry {
  outcome: EntryOutcome;
  /** For `evaluated` and `scored-as-wrong`. */
  counts?: ImageCounts;
}

export interface RunSettings {
  gtDir: string;
  predDir: string;
  missingAsWrong: boolean;
}

/** The counts of the images that enter the totals, in order. */
export function evaluatedCounts(records: readonly EntryRecord[]): ImageCounts[] {
  const out: ImageCounts[] = [];
  for (const r of records) if (r.counts !== undefined) out.push(r.counts);
  return out;
}

/** One warning per file the official code would skip or we score differently, each naming the file. */
export function recordDiagnostics(records: readonly EntryRecord[], settings: RunSettings): Diagnostic[] {
  const out: Diagnostic[] = [];
  // the file is printed first: the messages do not repeat it
  const gt = (r: EntryRecord) => join(settings.gtDir, r.name);
  const pred = (r: EntryRecord) => join(settings.predDir, r.name);
  for (const r of records) {
    if (r.outcome === 'skipped-no-gt') {
      out.push({ severity: 'warning', code: 'input/missing-file', file: pred(r), message: 'no ground truth with this name: skipped, as the official code does' });
    } else if (r.outcome === 'skipped-no-pred') {
      out.push({
        severity: 'warning',
        code: 'input/missing-prediction',
        file: gt(r),
        message: 'no prediction with this name: not evaluated (the official code skips it silently, which rewards leaving out hard images; --missing-as-wrong scores it as all wrong)',
      });
    } else if (r.outcome === 'skipped-truecolour') {
      out.push({
        severity: 'warning',
        code: 'input/png-color-type',
        file: pred(r),
        message: 'a truecolour (RGB) prediction: skipped, as the official code does ("should be a gray-scale image!"); --missing-as-wrong scores it as all wrong',
      });
    } else if (r.outcome === 'scored-as-wrong') {
      out.push(
        r.hasPred
          ? { severity: 'warning', code: 'input/png-color-type', file: pred(r), message: 'a truecolour (RGB) prediction: scored as all wrong (--missing-as-wrong; the official code skips it)' }
          : { severity: 'warning', code: 'input/missing-prediction', file: gt(r), message: 'no prediction with this name: scored as all wrong (--missing-as-wrong; the official code skips it)' },
      );
    }
  }
  return out;
}
