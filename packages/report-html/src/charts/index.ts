/**
 * The charts of a report. A task declares them (`TaskDefinition.charts`: report-html's generic kinds, named for
 * what they draw; the CLI passes them here); the charts read only the report's data. A report whose task
 * declares none gets the charts its fields allow (the behaviour before declarations; kept for one release).
 */
import { displayReport, type ChartRequest, type Report } from '@cvdevkit/core';
import { analysisCharts } from './analysis.js';
import { boundaryCharts } from './boundary.js';
import { errorByGuessesCharts } from './classification-localisation.js';
import type { ReportChart } from './common.js';
import { precisionRecallCharts } from './precision-recall.js';
import { classBars, confusionMatrices, segmentationCharts } from './segmentation.js';

/** Chart kind → what draws it. */
const CHART_BUILDERS: { [K in ChartRequest['kind']]: (report: Report, request: Extract<ChartRequest, { kind: K }>) => ReportChart[] } = {
  'pr-curves': (report, request) => precisionRecallCharts(report, request),
  'class-bars': classBars,
  'confusion-matrix': confusionMatrices,
  'f-threshold': (report) => boundaryCharts(report),
  'error-by-cutoff': (report) => errorByGuessesCharts(report),
};

/** The report's charts: the declared ones in order (or the guessed ones), then the analysis charts of an analyze report. */
export function buildReportCharts(full: Report, requests?: readonly ChartRequest[]): ReportChart[] {
  // names are shown cut at 200 characters (a megabyte class name would be drawn on every axis and legend)
  const report = displayReport(full);
  const base = requests ? requests.flatMap((r) => (CHART_BUILDERS[r.kind] as (report: Report, request: ChartRequest) => ReportChart[])(report, r)) : guessedCharts(report);
  return report.analysis !== undefined ? [...base, ...analysisCharts(report)] : base;
}

/** The charts a report without declarations gets, from its fields. */
function guessedCharts(report: Report): ReportChart[] {
  const has = (field: string) => report.rows.some((r) => r[field] !== undefined);
  if (has('odsF')) return boundaryCharts(report);
  if (has('clsError') || has('locError')) return errorByGuessesCharts(report);
  if (has('iou') || Object.keys(report.matrices ?? {}).length > 0) return segmentationCharts(report);
  if (has('ap') || report.curves.length > 0) return precisionRecallCharts(report);
  return [];
}

export type { ReportChart, VegaLiteSpec } from './common.js';
export { isoFContour } from './boundary.js';
