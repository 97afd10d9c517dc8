import type { DiagnoseInput } from './input.js';
import type { Prepared } from './prepare.js';
import { fixErrors, fixPlan, type FixPlan } from './tide-fix.js';
import { emptyTable, TIDE_QUALIFIERS, type ErrorTable, type TideClassResult, type TideQualifierResult, type TideResult } from './tide-result.js';
import { E_MISS, TIDE_ERRORS, tideRun, type TideData, type TideErrorName, type TideRunResult } from './tide-run.js';

/** TIDE's IoU thresholds of `evaluate_range` (its Python literals). */
export const TIDE_THRESHOLDS: readonly number[] = [0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95];

/**
 * The detections and ground truth in TIDE's input form: each +1-pixel box `x1 y1 x2 y2` becomes
 * `[x1 − 1, y1 − 1, x2 − x1 + 1, y2 − y1 + 1]` (`xywh` boxes are taken as they are); difficult (and uncounted)
 * objects become crowd regions of their class; images, objects and detections keep the input order. Every
 * detection takes part (TIDE keeps the first `maxDets` of each image itself), skipped ones included. When the
 * task gives its own IoU (`overlaps`: crowd regions, masks), TIDE's runs read it from the preparation's cache.
 */
export function toTideData(input: DiagnoseInput, p?: Prepared, maxDets = 100): TideData {
  const conv = (b: Float64Array): Float64Array => {
    if (input.boxFormat === 'xywh') return b;
    const out = new Float64Array(b.length);
    for (let k = 0; k < b.length; k += 4) {
      out[k] = b[k] - 1;
      out[k + 1] = b[k + 1] - 1;
      out[k + 2] = b[k + 2] - b[k] + 1;
      out[k + 3] = b[k + 3] - b[k + 1] + 1;
    }
    return out;
  };
  const o = input.objects;
  const crowd = new Uint8Array(o.image.length);
  for (let j = 0; j < crowd.length; j++) crowd[j] = o.difficult[j] || (o.uncounted && o.uncounted[j]) ? 1 : 0;
  const d = input.detections;
  return {
    classCount: input.classes.length,
    imageCount: input.images.length,
    gt: { image: o.image, cls: o.cls, box: conv(o.boxes), crowd },
    det: { image: d.image, cls: d.cls, score: d.score, box: conv(d.boxes) },
    maxDets,
    ...(input.overlaps && p ? { iou: cachedIou(p) } : {}),
  };
}

/** The preparation's IoU cache in TIDE's terms: object j's position among its image's objects. */
function cachedIou(p: Prepared): NonNullable<TideData['iou']> {
  const pos = new Uint32Array(p.nObj);
  for (let i = 0; i < p.nImg; i++) for (let r = p.objStart[i]; r < p.objStart[i + 1]; r++) pos[p.objList[r]] = r - p.objStart[i];
  return { off: p.iouOff, values: p.iou, pos };
}

type FixedPerClass = Record<TideErrorName | 'FalsePos' | 'FalseNeg', Float64Array>;

/** AP at each of TIDE's thresholds; the 0.5 run (the last one made) also classifies the errors. */
function thresholdRuns(data: TideData): { apByThreshold: { threshold: number; ap: number }[]; run: TideRunResult } {
  const apByThreshold = TIDE_THRESHOLDS.map((t) => (t === 0.5 ? null : { threshold: t, ap: tideRun(data, t, false).ap }));
  const run = tideRun(data, 0.5, true);
  apByThreshold[0] = { threshold: 0.5, ap: run.ap };
  return { apByThreshold: apByThreshold.map((x) => x!), run };
}

/** TIDE's main fixes (one error type at a time), its special fixes (all false positives, all false negatives) and the no-op fix. */
function mainAndSpecialFixes(run: TideRunResult, plan: FixPlan, cls: Int32Array) {
  const errors = run.errors!;
  const main = emptyTable();
  const fixedAp = { ...emptyTable(), FalsePos: 0, FalseNeg: 0 };
  const fixedPerClass = {} as FixedPerClass;
  TIDE_ERRORS.forEach((name, type) => {
    const r = fixErrors(run, plan, cls, { fix: (k) => errors.type[k] === type });
    fixedAp[name] = r.ap;
    fixedPerClass[name] = r.perClass;
    main[name] = Math.max(r.ap - run.ap, 0);
  });
  const fp = fixErrors(run, plan, cls, { perfectPrecision: true });
  const fn = fixErrors(run, plan, cls, { perfectRecall: true });
  fixedAp.FalsePos = fp.ap;
  fixedAp.FalseNeg = fn.ap;
  fixedPerClass.FalsePos = fp.perClass;
  fixedPerClass.FalseNeg = fn.perClass;
  const noop = fixErrors(run, plan, cls, {});
  return { main, fixedAp, fixedPerClass, fp, fn, noop };
}

/** Per class: AP, positives, error counts (a miss counts for its object's class, the others for the detection's) and fixed AP. */
function classResults(data: TideData, run: TideRunResult, classNames: readonly string[], fixedPerClass: FixedPerClass): { counts: ErrorTable; perClass: TideClassResult[] } {
  const errors = run.errors!;
  const counts = emptyTable();
  const perClassCounts = classNames.map(() => emptyTable());
  for (let k = 0; k < errors.count; k++) {
    const name = TIDE_ERRORS[errors.type[k]];
    counts[name]++;
    const c = errors.type[k] === E_MISS ? data.gt.cls[errors.gt[k]] : data.det.cls[errors.det[k]];
    perClassCounts[c][name]++;
  }
  const perClass: TideClassResult[] = classNames.map((key, c) => {
    const base = run.perClass[c];
    const f = {} as TideClassResult['fixedAp'];
    const dAP = {} as TideClassResult['dAP'];
    for (const name of [...TIDE_ERRORS, 'FalsePos', 'FalseNeg'] as const) {
      f[name] = fixedPerClass[name][c];
      dAP[name] = fixedPerClass[name][c] - base;
    }
    return { key, ap: Number.isNaN(base) ? null : base, npos: run.base.npos[c], counts: perClassCounts[c], fixedAp: f, dAP };
  });
  return { counts, perClass };
}

/** Qualifiers: fix only the errors whose object (or, without one, detection) passes the size or aspect test. */
function qualifierResults(data: TideData, run: TideRunResult, plan: FixPlan): TideQualifierResult[] {
  const errors = run.errors!;
  const cls = data.det.cls;
  return TIDE_QUALIFIERS.map((q) => {
    const inBin = new Uint8Array(errors.count);
    const qCounts = emptyTable();
    for (let k = 0; k < errors.count; k++) {
      const useGt = errors.gt[k] >= 0;
      const box = useGt ? data.gt.box : data.det.box;
      const i = 4 * (useGt ? errors.gt[k] : errors.det[k]);
      if (q.test(box[i + 2], box[i + 3])) {
        inBin[k] = 1;
        qCounts[TIDE_ERRORS[errors.type[k]]]++;
      }
    }
    const qMain = {} as ErrorTable;
    TIDE_ERRORS.forEach((name, type) => {
      const r = fixErrors(run, plan, cls, { fix: (k) => errors.type[k] === type && inBin[k] === 1 });
      qMain[name] = Math.max(r.ap - run.ap, 0);
    });
    return { name: q.name, group: q.group, main: qMain, counts: qCounts };
  });
}

/**
 * `--tide-mode tide`: TIDE v1.0.1's numbers (percent), plus the per-class and qualifier tables it never
 * printed, in the fixed sequence of TIDE's summarize: range runs, main fixes, special fixes, tables.
 */
export function tideCompatAnalysis(data: TideData, classNames: readonly string[]): TideResult {
  const { apByThreshold, run } = thresholdRuns(data);
  const plan = fixPlan(run, data.det.score);
  const { main, fixedAp, fixedPerClass, fp, fn, noop } = mainAndSpecialFixes(run, plan, data.det.cls);
  const { counts, perClass } = classResults(data, run, classNames, fixedPerClass);
  const qualifiers = qualifierResults(data, run, plan);
  const notes: string[] = [];
  if (run.unfixable > 0) {
    notes.push(`${run.unfixable} Cls/Loc error(s) target an object whose candidates all score <= -1: TIDE v1.0.1 itself fails there (KeyError 'best_id'); they are left unfixed here`);
  }
  const aps = apByThreshold.map((x) => x.ap);
  return {
    mode: 'tide',
    units: 'percent',
    ap: run.ap,
    main,
    special: { FalsePos: fp.ap - run.ap, FalseNeg: fn.ap - run.ap },
    counts,
    fixedAp,
    perClass,
    qualifiers,
    apByThreshold,
    ap50_95: aps.reduce((s, v) => s + v, 0) / aps.length,
    noopFixAp: noop.ap,
    errorsOnIgnored: run.ignoredErrors,
    notes,
  };
}
