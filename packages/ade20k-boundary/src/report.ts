import { createReport, type Diagnostic, type Report, type ReportCurve, type ReportRow } from '@cvdevkit/core';
import { collectBoundaryScores, type BoundaryCounts, type BoundaryScores } from '@cvdevkit/boundary';
import { ADE20K_CLASS_COUNT, ADE20K_CLASS_NAMES, classKey } from './classes.js';
import { entryKey, expandArray, type BoundaryCountSet, type StoredCounts } from './counts.js';
import { boundaryPerImage } from './per-image.js';
import { PACKAGE_NAME, PACKAGE_VERSION } from './version.js';

export { PACKAGE_NAME };

export interface ReportFromCountsOptions {
  task?: string;
  metric?: string;
  version?: string;
  debugCounts?: boolean;
  /** Add the per-image statistics (`extra.perImage`, for `cvdevkit compare --bootstrap`). */
  perImage?: boolean;
  diagnostics?: Diagnostic[];
  timings?: Record<string, number>;
}

function anyNonZero(c: StoredCounts): boolean {
  return c.cntR !== null || c.sumR !== null || c.cntP !== null || c.sumP !== null;
}

function meanOf(values: number[]): number {
  if (values.length === 0) return NaN;
  let s = 0;
  for (const v of values) s += v;
  return s / values.length;
}

type DebugCounts = Record<string, Record<string, { cntR: number[]; sumR: number[]; cntP: number[]; sumP: number[] }>>;

/** One class's counts per image in sorted order (zero for an absent entry), recorded in `debug` when given; `nonTrivial`: some image has counts. */
function classCounts(set: BoundaryCountSet, cls: number, zeroArray: Float64Array, debug: DebugCounts | undefined): { perImage: BoundaryCounts[]; nonTrivial: boolean } {
  const zero: BoundaryCounts = { cntR: zeroArray, sumR: zeroArray, cntP: zeroArray, sumP: zeroArray };
  const perImage: BoundaryCounts[] = [];
  let nonTrivial = false;
  for (let im = 0; im < set.images.length; im++) {
    const stored = set.entries.get(entryKey(im, cls));
    if (!stored || !anyNonZero(stored)) {
      perImage.push(zero);
      continue;
    }
    const c: BoundaryCounts = {
      cntR: expandArray(stored.cntR, zeroArray),
      sumR: expandArray(stored.sumR, zeroArray),
      cntP: expandArray(stored.cntP, zeroArray),
      sumP: expandArray(stored.sumP, zeroArray),
    };
    perImage.push(c);
    nonTrivial = true;
    if (debug) {
      (debug[classKey(cls)] ??= {})[set.images[im]] = { cntR: Array.from(c.cntR), sumR: Array.from(c.sumR), cntP: Array.from(c.cntP), sumP: Array.from(c.sumP) };
    }
  }
  return { perImage, nonTrivial };
}

function classRow(cls: number, s: BoundaryScores): ReportRow {
  const key = classKey(cls);
  return {
    key,
    name: ADE20K_CLASS_NAMES[cls - 1] ?? key,
    odsThreshold: s.odsThreshold,
    odsRecall: s.odsRecall,
    odsPrecision: s.odsPrecision,
    odsF: s.odsF,
    oisRecall: s.oisRecall,
    oisPrecision: s.oisPrecision,
    oisF: s.oisF,
    ap: s.ap,
  };
}

function classCurve(cls: number, s: BoundaryScores): ReportCurve {
  return {
    key: classKey(cls),
    threshold: Array.from(s.curve.threshold),
    recall: Array.from(s.curve.recall),
    precision: Array.from(s.curve.precision),
    f: Array.from(s.curve.f),
  };
}

/** The given diagnostics, plus a warning when not every class was evaluated. */
function reportDiagnostics(set: BoundaryCountSet, given: Diagnostic[] | undefined): Diagnostic[] {
  const diagnostics = [...(given ?? [])];
  if (set.classes.length !== ADE20K_CLASS_COUNT) {
    diagnostics.push({
      severity: 'warning',
      code: 'ade20k/class-subset',
      message: `only ${set.classes.length} of ${ADE20K_CLASS_COUNT} classes were evaluated: the score is their mean F-ODS, not the challenge score`,
    });
  }
  return diagnostics;
}

/**
 * The report of a complete counts set: `collect_eval_bdry.m` per class over the images in sorted order,
 * the challenge score = mean F-ODS over the classes (all 150 in a full run; absent classes count as 0).
 */
export function reportFromCounts(set: BoundaryCountSet, options: ReportFromCountsOptions = {}): Report {
  const zeroArray = new Float64Array(set.thresholds.length);
  const rows: ReportRow[] = [];
  const curves: ReportCurve[] = [];
  const debug: DebugCounts = {};
  const ods: number[] = [];
  const ois: number[] = [];
  const aps: number[] = [];
  for (const cls of set.classes) {
    const { perImage, nonTrivial } = classCounts(set, cls, zeroArray, options.debugCounts ? debug : undefined);
    const s = collectBoundaryScores(perImage, set.thresholds);
    rows.push(classRow(cls, s));
    ods.push(s.odsF);
    ois.push(s.oisF);
    aps.push(s.ap);
    if (nonTrivial) curves.push(classCurve(cls, s));
  }
  const version = options.version ?? PACKAGE_VERSION;
  return createReport({
    dataset: 'ade20k',
    task: options.task ?? 'ade20k/boundary',
    metric: options.metric ?? 'bsds-ods',
    summary: { score: meanOf(ods), odsF: meanOf(ods), oisF: meanOf(ois), ap: meanOf(aps), images: set.images.length, classes: set.classes.length, seed: set.seed },
    rows,
    curves,
    diagnostics: reportDiagnostics(set, options.diagnostics),
    versions: { [PACKAGE_NAME]: version },
    timings: options.timings,
    ...(options.debugCounts || options.perImage
      ? { extra: { ...(options.debugCounts ? { counts: debug } : {}), ...(options.perImage ? { perImage: boundaryPerImage(set) } : {}) } }
      : {}),
  });
}
