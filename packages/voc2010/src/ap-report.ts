import { createReport, findMetric, usageError, type MetricPlugin, type Diagnostic, type Report, type ReportCurve, type ReportRow, type RunContext } from '@cvdevkit/core';
import { apVoc2007, apVoc2010, type RankedCurve } from '@cvdevkit/metrics/ranked';
import { PACKAGE_NAME, PACKAGE_VERSION } from './version.js';

/** The official metric of the AP tasks (`VOCap.m`) and the alternative VOC2007 11-point AP. */
export const AP_METRICS: readonly MetricPlugin<RankedCurve, number>[] = [apVoc2010, apVoc2007];
export const AP_METRIC = apVoc2010.name;

/** The AP metric a run uses: its name, its AP function and the protocol changes it asks for. */
export interface ApMetricChoice {
  name: string;
  ap: (recall: ArrayLike<number>, precision: ArrayLike<number>) => number;
  protocol: Readonly<Record<string, string | number | boolean>>;
  /** Whether `ap` is VOCap itself (`apVoc2010`), which the cls kernel computes as it does. */
  isVocAp: boolean;
}

/**
 * The metric asked for: the object the registry resolved (`context.metricPlugin`), else the name looked up
 * among the AP metrics (default `ap-voc2010`); an unknown name is a usage error.
 */
export function apMetric(context: RunContext): ApMetricChoice {
  const name = context.metric ?? AP_METRIC;
  const metric = (context.metricPlugin as MetricPlugin<RankedCurve, number> | undefined) ?? findMetric({ metrics: AP_METRICS }, name);
  if (metric === undefined) throw usageError(`unknown AP metric "${name}"`, 'usage/unknown-metric', `use one of ${AP_METRICS.map((m) => m.name).join(', ')}`);
  return { name: metric.name, ap: (recall, precision) => metric.compute({ recall, precision }), protocol: metric.protocol ?? {}, isVocAp: metric === apVoc2010 };
}

/** One evaluated class / part / action: its PR curve (every official point, NaN kept) and AP. */
export interface ApEntry {
  key: string;
  recall: Float64Array;
  precision: Float64Array;
  ap: number;
  /** Positives (the recall denominator). */
  npos: number;
  /** Ranked predictions (rows of the curve). */
  ndet: number;
  /** The ranking behind the curve (only when per-image statistics are asked for): entry r is `order[r]`. */
  ranked?: RankedOutcomes;
}

/** Each curve row's source entry (`order`) and outcome (`tp` / `fp`, both 0 = ignored), in ranked order. */
export interface RankedOutcomes {
  order: Uint32Array;
  tp: Uint8Array;
  fp: Uint8Array;
}

/** The mean of the numeric (non-NaN) values; NaN when there is none. */
export function meanOfNumeric(values: readonly number[]): number {
  let s = 0;
  let n = 0;
  for (const v of values) {
    if (!Number.isNaN(v)) {
      s += v;
      n++;
    }
  }
  return n === 0 ? NaN : s / n;
}

export interface ApReportInit {
  task: string;
  metric: string;
  entries: ApEntry[];
  diagnostics?: Diagnostic[];
  timings: Record<string, number>;
  extra?: Record<string, unknown>;
}

/** The Report of an AP task: rows key → ap, npos, ndet; summary mAP (mean of the numeric APs); curves. */
export function apReport(init: ApReportInit): Report {
  const rows: ReportRow[] = init.entries.map((e) => ({ key: e.key, ap: e.ap, npos: e.npos, ndet: e.ndet }));
  const curves: ReportCurve[] = init.entries.map((e) => ({ key: e.key, recall: e.recall, precision: e.precision }));
  const mAP = meanOfNumeric(init.entries.map((e) => e.ap));
  return createReport({
    dataset: 'voc2010',
    task: init.task,
    metric: init.metric,
    summary: { mAP: Number.isNaN(mAP) ? null : mAP },
    rows,
    curves,
    diagnostics: init.diagnostics ?? [],
    versions: { [PACKAGE_NAME]: PACKAGE_VERSION },
    timings: { totalMs: 0, ...init.timings },
    extra: init.extra,
  });
}
