import { createReport, type Diagnostic, type Report, type ReportCurve, type ReportRow } from '@cvdevkit/core';
import { precisionIndex, type Accumulated } from './accumulate.js';
import type { CocoFixes, EvalSetup } from './evaluate.js';
import { fixNames } from './options.js';
import type { CocoParams } from './params.js';
import { pairwiseSumStrided } from './pairwise-sum.js';
import { curveCell, DETECTION_STAT_NAMES, KEYPOINT_STAT_NAMES, resolveQuery, statQueries, summarizeOne, summarizeResolved, type ResolvedQuery } from './summarize.js';

export const PACKAGE_NAME = '@cvdevkit/coco';
export const METRIC = 'ap-coco';
export const REFERENCE = 'pycocotools 2.0.11';

export interface CocoReportInput {
  task: string;
  params: CocoParams;
  fixes: CocoFixes;
  setup: EvalSetup;
  acc: Accumulated;
  /** Categories' names by id. */
  names: Map<number, string>;
  /** Per K index: non-ignored GTs in the first area range, detections. */
  ngt: ArrayLike<number>;
  ndet: ArrayLike<number>;
  arrays?: boolean;
  diagnostics: Diagnostic[];
  version: string;
  timings?: Record<string, number>;
  /** Extra fields for extra (a shard's coverage, …). */
  extra?: Record<string, unknown>;
}

/** "pycocotools 2.0.11" or "pycocotools 2.0.11 + fix maxdets,ignore": the protocol in force. */
export function protocolName(fixes: CocoFixes): string {
  const f = fixNames(fixes);
  return f.length === 0 ? REFERENCE : `${REFERENCE} + fix ${f.join(',')}`;
}

/** A flat C-order array as nested lists of the given shape. */
export function nested(a: Float64Array, shape: number[]): unknown {
  const build = (dim: number, offset: number): unknown => {
    const n = shape[dim];
    if (dim === shape.length - 1) return Array.from(a.subarray(offset, offset + n));
    const stride = shape.slice(dim + 1).reduce((x, y) => x * y, 1);
    const out: unknown[] = [];
    for (let i = 0; i < n; i++) out.push(build(dim + 1, offset + i * stride));
    return out;
  };
  return build(0, 0);
}

/** The statistics a category's row shows (the others are the summary's only). */
const ROW_FIELDS = { detection: ['AP', 'AP50', 'AP75', 'APs', 'APm', 'APl', 'AR100'], keypoints: ['AP', 'AP50', 'AP75', 'APm', 'APl', 'AR'] };

/** `queries[i]`: the resolved query of statistic `fields[i]`. */
function rowFor(input: CocoReportInput, k: number, fields: readonly string[], queries: readonly (ResolvedQuery | null)[]): ReportRow {
  const { acc, setup } = input;
  const catId = setup.kCatIds[k];
  const row: ReportRow = { key: String(catId), name: catId === -1 ? 'all categories (useCats=0)' : (input.names.get(catId) ?? String(catId)) };
  // a category's value is NaN (null in JSON) where pycocotools' mean over its cells gives -1 (no non-ignored ground
  // truth in the range): no value, which compare and the charts leave out (the summary keeps pycocotools' -1)
  for (let i = 0; i < fields.length; i++) {
    const v = summarizeResolved(acc, queries[i], k);
    row[fields[i]] = v === -1 ? NaN : v;
  }
  row.ngt = input.ngt[k];
  row.ndet = input.ndet[k];
  return row;
}

/**
 * PR curves of a category: recall = the recall thresholds, `precision` at IoU 0.5 and `precisionMean`
 * (the mean over the IoU thresholds, numpy's pairwise order) in area "all" at the AP's maxDets;
 * none when the category has no non-ignored GT. The series are Float64Arrays (the JSON writer's fast path: no
 * string per number), `recall` the one array `recall` given for every category.
 */
function curveFor(input: CocoReportInput, k: number, recall: Float64Array): ReportCurve | undefined {
  const { params, acc, setup, fixes } = input;
  const { T, R } = acc;
  const cell = curveCell(params, fixes.maxdets === true);
  if (!cell) return undefined;
  const t50 = params.iouThrs.indexOf(0.5);
  const base = precisionIndex(acc, 0, 0, k, cell.a, cell.m);
  const rStride = precisionIndex(acc, 0, 1, k, cell.a, cell.m) - base;
  const tStride = R * rStride;
  const p = acc.precision;
  if (p[base] === -1) return undefined;
  const precisionMean = new Float64Array(R);
  for (let r = 0; r < R; r++) precisionMean[r] = pairwiseSumStrided(p, base + r * rStride, tStride, T) / T;
  let precision: Float64Array;
  if (t50 >= 0) {
    precision = new Float64Array(R);
    for (let r = 0; r < R; r++) precision[r] = p[base + t50 * tStride + r * rStride];
  } else precision = precisionMean.slice();
  return { key: String(setup.kCatIds[k]), recall, precisionMean, precision };
}

export function cocoReport(input: CocoReportInput): Report {
  const { params, acc, fixes } = input;
  // each statistic's cells resolved once, for the summary and every category's row
  const queries = statQueries(params, fixes.maxdets === true).map((q) => resolveQuery(acc, params, q));
  const names: readonly string[] = params.iouType === 'keypoints' ? KEYPOINT_STAT_NAMES : DETECTION_STAT_NAMES;
  const summary: Record<string, number> = {};
  names.forEach((n, i) => (summary[n] = summarizeResolved(acc, queries[i])));
  const fields = params.iouType === 'keypoints' ? ROW_FIELDS.keypoints : ROW_FIELDS.detection;
  const rowQueries = fields.map((f) => queries[names.indexOf(f)]);
  const rows: ReportRow[] = [];
  const curves: ReportCurve[] = [];
  const recall = Float64Array.from(params.recThrs);
  for (let k = 0; k < acc.K; k++) {
    rows.push(rowFor(input, k, fields, rowQueries));
    const c = curveFor(input, k, recall);
    if (c) curves.push(c);
  }
  const fixList = fixNames(fixes);
  const report = createReport({
    dataset: 'coco',
    task: input.task,
    metric: METRIC,
    summary,
    rows,
    curves,
    diagnostics: input.diagnostics,
    versions: { [PACKAGE_NAME]: input.version, reference: REFERENCE },
    timings: input.timings,
    extra: {
      protocol: protocolName(fixes),
      fixes: fixList,
      params: {
        iouType: params.iouType,
        iouThrs: Array.from(params.iouThrs),
        recThrs: Array.from(params.recThrs),
        maxDets: params.maxDets,
        areaRng: params.areaRanges.map((r) => [r.lo, r.hi]),
        areaRngLbl: params.areaRanges.map((r) => r.label),
        useCats: params.useCats ? 1 : 0,
        catIds: input.setup.catIds,
        images: input.setup.imgIds.length,
        ...(params.iouType === 'keypoints' ? { kptOksSigmas: Array.from(params.kptSigmas) } : {}),
      },
      ...(input.extra ?? {}),
    },
  });
  if (input.arrays) {
    const { T, R, K, A, M } = acc;
    if (acc.S !== A * M || acc.scores === null) throw new Error('coco report: --arrays needs every precision cell and the scores accumulated');
    Object.assign(report, {
      precision: nested(acc.precision, [T, R, K, A, M]),
      recall: nested(acc.recall, [T, K, A, M]),
      scores: nested(acc.scores, [T, R, K, A, M]),
    });
  }
  return report;
}

/** AP of one query over every category (re-exported for the golden tests of the report). */
export { summarizeOne };
