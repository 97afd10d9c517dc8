import type { TideErrorName } from './tide-run.js';

export type ErrorTable = Record<TideErrorName, number>;
export type SpecialTable = { FalsePos: number; FalseNeg: number };

export interface TideClassResult {
  key: string;
  /** The class's AP before any fix (null: TIDE skips the class, no points and no positives). */
  ap: number | null;
  npos: number;
  counts: ErrorTable;
  /** Class AP after fixing each type (and the two special fixes). */
  fixedAp: ErrorTable & SpecialTable;
  /** fixed − base per type, not clamped. */
  dAP: ErrorTable & SpecialTable;
}

export interface TideQualifierResult {
  /** TIDE's qualifier names: Small/Medium/Large (area ≤ 32², ≤ 96²), Tall/Square/Wide (w/h ≤ 0.75, ≤ 1.33). */
  name: string;
  group: 'area' | 'aspect';
  /** dAP of fixing only the errors whose object (or, without one, detection) is in the bin. */
  main: ErrorTable;
  counts: ErrorTable;
}

export interface TideResult {
  /** `official`: the task's AP and matching; `tide`: TIDE v1.0.1's own numbers. */
  mode: 'official' | 'tide';
  /** `fraction` (the task's AP scale) or `percent` (TIDE prints AP × 100). */
  units: 'fraction' | 'percent';
  /** Baseline mAP. */
  ap: number;
  /** dAP = max(fixed − ap, 0) per main error type. */
  main: ErrorTable;
  /** FalsePos, FalseNeg: fixed − ap, not clamped. */
  special: SpecialTable;
  counts: ErrorTable;
  /** mAP after each fix. */
  fixedAp: ErrorTable & SpecialTable;
  perClass: TideClassResult[];
  qualifiers: TideQualifierResult[];
  /** tide mode: AP at IoU 0.50, 0.55, …, 0.95 and their mean (`evaluate_range`). */
  apByThreshold?: { threshold: number; ap: number }[];
  ap50_95?: number;
  /** tide mode: the mAP of a fix that fixes nothing (TIDE's re-insertion order alone). */
  noopFixAp?: number;
  /** Detections ignored by a crowd region but still typed (tide mode). */
  errorsOnIgnored?: number;
  notes: string[];
}

/** TIDE's area and aspect qualifiers (defined in its qualifiers.py, never wired up there). */
export const TIDE_QUALIFIERS: readonly { name: string; group: 'area' | 'aspect'; test: (w: number, h: number) => boolean }[] = [
  { name: 'Small', group: 'area', test: (w, h) => w * h <= 32 ** 2 },
  { name: 'Medium', group: 'area', test: (w, h) => 32 ** 2 < w * h && w * h <= 96 ** 2 },
  { name: 'Large', group: 'area', test: (w, h) => 96 ** 2 < w * h },
  { name: 'Tall', group: 'aspect', test: (w, h) => w / h <= 0.75 },
  { name: 'Square', group: 'aspect', test: (w, h) => 0.75 < w / h && w / h <= 1.33 },
  { name: 'Wide', group: 'aspect', test: (w, h) => 1.33 < w / h },
];

export function emptyTable(): ErrorTable {
  return { Cls: 0, Loc: 0, Both: 0, Dupe: 0, Bkg: 0, Miss: 0 };
}
