/**
 * The charts of a report, chosen from what the report holds (never from the task's name, so a new
 * plugin's report gets the charts its data allows): PR curves and AP when rows have `ap` and curves
 * recall/precision; IoU and confusion when rows have `iou` or the report has matrices; error by number
 * of guesses when rows have `clsError`/`locError`; BSDS plots when rows have `odsF`.
 */
import { displayReport, type Report } from '@cvdevkit/core';
import { analysisCharts } from './analysis.js';
import { boundaryCharts } from './boundary.js';
import { errorByGuessesCharts } from './classification-localisation.js';
import type { ReportChart } from './common.js';
import { precisionRecallCharts } from './precision-recall.js';
import { segmentationCharts } from './segmentation.js';

export function buildReportCharts(full: Report): ReportChart[] {
  // names are shown cut at 200 characters (a megabyte class name would be drawn on every axis and legend)
  const report = displayReport(full);
  if (report.analysis !== undefined) return [...baseCharts(report), ...analysisCharts(report)];
  return baseCharts(report);
}

function baseCharts(report: Report): ReportChart[] {
  const has = (field: string) => report.rows.some((r) => r[field] !== undefined);
  if (has('odsF')) return boundaryCharts(report);
  if (has('clsError') || has('locError')) return errorByGuessesCharts(report);
  if (has('iou') || Object.keys(report.matrices ?? {}).length > 0) return segmentationCharts(report);
  if (has('ap') || report.curves.length > 0) return precisionRecallCharts(report);
  return [];
}

export type { ReportChart, VegaLiteSpec } from './common.js';
export { isoFContour } from './boundary.js';
