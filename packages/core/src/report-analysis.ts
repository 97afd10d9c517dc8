/**
 * The analysis section of a report (`report.analysis`, what `cvdevkit analyze` writes): declared once here, so the
 * analysis that computes it and the HTML report that draws it read the same types. NaN is a number in memory
 * and `null` in JSON (a report read back from a file has `null` where a value is undefined).
 */

/** TIDE's error types. */
export type TideErrorName = 'Cls' | 'Loc' | 'Both' | 'Dupe' | 'Bkg' | 'Miss';

export interface OverlapResult {
  thresholds: number[];
  /** mAP per threshold (the task's mean rule). */
  mAP: number[];
  /** Per class: AP per threshold. */
  perClass: { key: string; ap: number[] }[];
  /** The task's headline AP averaged over its own IoU thresholds (when it declares them), per class and overall. */
  averaged?: { thresholds: number[]; mAP: number; perClass: number[] };
}

export interface SizeResult {
  /** `'detection'`: smaller objects marked difficult; `'classification'`: small positives removed. */
  kind: 'detection' | 'classification';
  thresholds: number[];
  /** The mean of the per-class APs under the task's rule (ILSVRC: NaN as soon as one class has no positive left). */
  mAP: number[];
  /** Detection: the mean over the classes that still have a positive at the threshold, and how many they are. */
  mAPWithPositives?: number[];
  classesWithPositives?: number[];
  perClass: { key: string; ap: number[]; npos: number[] }[];
  /**
   * AP per task-declared object-area range (both ends inclusive) at the official matching, averaged over the
   * task's IoU thresholds as its evaluation does: mAP per range and per class.
   */
  areaRanges?: { names: string[]; lo: number[]; hi: number[]; thresholds: number[]; mAP: number[]; perClass: { key: string; ap: number[]; npos: number[] }[] };
}

export type TypeCounts = { TP?: number; Loc: number; Sim: number; Oth: number; BG: number };

export interface HoiemClass {
  key: string;
  npos: number;
  /** False positives of each type (all of them). */
  counts: TypeCounts;
  /** Among the top-ranked detections up to npos: TPs and each FP type (the pie). */
  top: TypeCounts & { TP: number };
  /** Per trend count N: the types among the first N false positives. */
  trend: TypeCounts[];
  ap: number;
  /** AP after removing the Loc, Sim, or B (Oth + BG) false positives, and after fixing Loc. */
  impact: { removeLoc: number; removeSim: number; removeBG: number; fixLoc: number };
  apn: number;
}

export interface HoiemResult {
  /** N̄ = 0.15 × number of images (normalised precision). */
  nbar: number;
  trendCounts: number[];
  overall: {
    counts: TypeCounts;
    top: TypeCounts & { TP: number };
    trend: TypeCounts[];
    ap: number;
    /** The AP gained (mAP after − mAP before). */
    gain: { removeLoc: number; removeSim: number; removeBG: number; fixLoc: number };
    apn: number;
  };
  perClass: HoiemClass[];
  characteristics: CharacteristicResult[];
}

export interface CharacteristicResult {
  /** `size`, `height`, `aspect`, … (the object characteristic). */
  characteristic: string;
  bins: readonly string[];
  /** Mean APN per bin over the classes that have the bin (null when none has it). */
  apn: (number | null)[];
  /** Mean of the classes' overall APN. */
  overall: number;
  /** max − min of the bin APNs, and max − overall. */
  sensitivity: number | null;
  impact: number | null;
  perClass: { key: string; apn: (number | null)[]; objects: number[]; overall: number; sensitivity: number | null; impact: number | null }[];
}

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

export interface TopEntry {
  image: string;
  /** The image's file name in the images folder, when it is not `<image>.jpg`. */
  file?: string;
  box: [number, number, number, number];
  score: number;
  /** 1-based position in the class's official ranking. */
  rank: number;
  /** False positives: Hoiem's type. */
  type?: string;
  /** The object it matched (TP) or overlaps most (FP), when there is one. */
  object?: { box: [number, number, number, number]; class: string; iou: number };
}

export interface TopClass {
  key: string;
  truePositives: TopEntry[];
  falsePositives: TopEntry[];
  /** False positives on images that contain an object of the class. */
  nearMisses: TopEntry[];
}

/**
 * `confusion`: a detection confusion matrix over the classes plus background at one score threshold. Rows are the
 * ground-truth classes then `background`, columns the detected classes then `background` (see the analysis README
 * for the greedy matching). `counts[C][C]` (background × background) is always 0.
 */
export interface ConfusionResult {
  /** Detections with a score ≥ `conf` take part. */
  conf: number;
  /** The IoU a match needs: the task's threshold at the official 0.5 (per object, e.g. ILSVRC's small-object rule). */
  iouThreshold: number;
  /** The classes in the task's order, then `background`. */
  labels: string[];
  /** `counts[g][d]`, (C + 1) × (C + 1). */
  counts: number[][];
  /** Per class (task order): its row's and column's totals and cells. */
  perClass: ConfusionClass[];
  /** Ground-truth objects left out: difficult, crowd or uncounted (every detection matched to one is left out too). */
  ignoredObjects: number;
  /** Detections with a score ≥ conf in the matrix (column sums), and the ones left out on an ignored object. */
  detections: number;
  ignoredDetections: number;
  /** Detections left out: a NaN score (no threshold keeps them) or skipped by the task (a blacklisted pair). */
  unscoredDetections: number;
  skippedDetections: number;
}

export interface ConfusionClass {
  key: string;
  /** Objects of the class that count (the row's sum) and detections of the class in the matrix (the column's sum). */
  objects: number;
  detections: number;
  /** Objects matched by a detection of the class (the diagonal cell). */
  correct: number;
  /** Objects matched by a detection of another class (the rest of the row but background). */
  asOtherClass: number;
  /** Objects left unmatched (the row's background cell). */
  missed: number;
  /** Detections of the class matched to an object of another class (the rest of the column but background). */
  onOtherClass: number;
  /** Detections of the class matched to no object (the background row's cell). */
  background: number;
  /** The other class its objects are most often detected as (first in class order on ties), or null. */
  confusedWith: string | null;
}

/** One precision / recall / F1 curve against the score threshold (the class's or, micro, all detections'). */
export interface F1Curve {
  key: string;
  /** Positives (objects that count) and scored detections (true and false positives; ignored and skipped ones left out). */
  npos: number;
  ndet: number;
  /** At each of `F1Result.thresholds`: the values over the detections with a score ≥ it (NaN where undefined). */
  precision: number[];
  recall: number[];
  f1: number[];
  /**
   * The best F1 over every distinct detection score (keeping the detections with a score ≥ `threshold`; ties:
   * the highest threshold); `threshold` NaN when no threshold gives a true positive (F1 = 0) or no positive.
   */
  best: { threshold: number; f1: number; precision: number; recall: number; tp: number; fp: number };
}

/** `f1`: precision, recall and F1 against the score threshold on the task's official matching at IoU 0.5. */
export interface F1Result {
  iouThreshold: number;
  /** The threshold grid of the curves (k/100 when every score is in [0, 1], else 101 steps from the lowest to the highest score). */
  thresholds: number[];
  /** Micro over all classes: every detection and every positive counted once. */
  overall: F1Curve;
  perClass: F1Curve[];
  /** Detections with a NaN score: on no threshold, left out. */
  unscoredDetections: number;
}

/** `report.analysis`: the sections that ran, and notes on the ones that did not. */
export interface ReportAnalysis {
  overlap?: OverlapResult;
  size?: SizeResult;
  hoiem?: HoiemResult;
  tide?: TideResult;
  top?: TopClass[];
  confusion?: ConfusionResult;
  f1?: F1Result;
  notes?: string[];
  /** `'xywh'`: the boxes in `top` are `[x, y, w, h]` (no +1 pixel); absent: `x1, y1, x2, y2` in the +1-pixel convention. */
  boxFormat?: 'xywh';
}
