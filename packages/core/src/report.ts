import type { ErrorCode } from './codes.js';
import type { ReportAnalysis } from './report-analysis.js';

/**
 * The Report: what every task returns (schema `cvdevkit.report/1`, see shared/REPORT.md).
 * It is data, not text; the CLI renders it as a table, JSON, CSV or Markdown.
 * NaN and ±Infinity are kept as numbers in memory and written as `null` in JSON.
 */
export type ReportValue = number | string | boolean | null;

export interface ReportRow {
  /** The row's key, for example a class name or WNID. */
  key: string;
  [field: string]: ReportValue | undefined;
}

/**
 * One series of a curve: a plain array, or a Float64Array (8 bytes a point, outside the JS heap: a
 * 10 M-point PR curve kept as numbers would cost ~40 bytes a point). Both are written as the same JSON.
 */
export type CurveSeries = number[] | Float64Array;

/** A curve series either way it is held (a report read back from JSON has plain arrays, with null for NaN). */
export function isCurveSeries(value: unknown): value is CurveSeries {
  return Array.isArray(value) || value instanceof Float64Array;
}

export interface ReportCurve {
  key: string;
  recall?: CurveSeries;
  precision?: CurveSeries;
  [series: string]: string | CurveSeries | undefined;
}

export interface ReportMatrix {
  labels: string[];
  /** Rows = ground truth, columns = prediction (for confusion matrices). */
  counts: number[][];
}

export type Severity = 'error' | 'warning' | 'info';

export interface Diagnostic {
  severity: Severity;
  /** A stable code from the catalogue (`codes.ts`). */
  code: ErrorCode;
  message: string;
  file?: string;
  line?: number;
  [extra: string]: unknown;
}

export interface Report {
  schema: 'cvdevkit.report/1';
  /** The dataset plugin's name, for example `voc2010`. */
  dataset?: string;
  task: string;
  metric: string;
  summary: Record<string, number | null>;
  rows: ReportRow[];
  curves: ReportCurve[];
  matrices: Record<string, ReportMatrix>;
  diagnostics: Diagnostic[];
  versions: Record<string, string>;
  timings: { totalMs: number; [phase: string]: number };
  /** Anything else a task wants to expose (debug counts, …); rendered only as JSON. */
  extra?: Record<string, unknown>;
  /** `cvdevkit analyze`: the diagnosis (overlap, size, hoiem, tide, top; computed by `@cvdevkit/analysis`). */
  analysis?: ReportAnalysis;
}

export interface ReportInit {
  dataset?: string;
  task: string;
  metric: string;
  summary?: Record<string, number | null>;
  rows?: ReportRow[];
  curves?: ReportCurve[];
  matrices?: Record<string, ReportMatrix>;
  diagnostics?: Diagnostic[];
  versions?: Record<string, string>;
  timings?: { totalMs?: number; [phase: string]: number | undefined };
  extra?: Record<string, unknown>;
  analysis?: ReportAnalysis;
}

/** Builds a Report with every required key present. */
export function createReport(init: ReportInit): Report {
  const timings: { totalMs: number; [phase: string]: number } = { totalMs: 0 };
  for (const [k, v] of Object.entries(init.timings ?? {})) if (v !== undefined) timings[k] = v;
  const report: Report = {
    schema: 'cvdevkit.report/1',
    ...(init.dataset !== undefined ? { dataset: init.dataset } : {}),
    task: init.task,
    metric: init.metric,
    summary: init.summary ?? {},
    rows: init.rows ?? [],
    curves: init.curves ?? [],
    matrices: init.matrices ?? {},
    diagnostics: init.diagnostics ?? [],
    versions: init.versions ?? {},
    timings,
  };
  if (init.extra !== undefined) report.extra = init.extra;
  if (init.analysis !== undefined) report.analysis = init.analysis;
  return report;
}

/**
 * The report as JSON text. Numbers round-trip exactly (shortest repr), NaN and ±Infinity become null
 * (what `JSON.stringify` does), typed arrays become plain arrays.
 */
export function reportToJson(report: Report, indent = 2): string {
  // Typed arrays are converted by a walk over the objects first: a replacer function would be called
  // for every number of every curve (twice as slow on a report with 100 k-point curves).
  return JSON.stringify(withPlainArrays(report), null, indent);
}

/**
 * `value` with every typed array (at any depth) replaced by a plain array. Copy on write: an object or
 * array without a typed array below it is returned as it is (a page's chart specs hold thousands of small
 * data objects; copying them cost more than writing them), and arrays of numbers are not walked.
 */
function withPlainArrays(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (ArrayBuffer.isView(value)) return value instanceof DataView ? value : Array.from(value as unknown as ArrayLike<number>);
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      if (typeof v !== 'object' || v === null) continue;
      const w = withPlainArrays(v);
      if (w !== v) (out ??= value.slice())[i] = w;
    }
    return out ?? value;
  }
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return value;
  let out: Record<string, unknown> | undefined;
  for (const [k, v] of Object.entries(value)) {
    const w = withPlainArrays(v);
    if (w !== v) (out ??= { ...(value as Record<string, unknown>) })[k] = w;
  }
  return out ?? value;
}
