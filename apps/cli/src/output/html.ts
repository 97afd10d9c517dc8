/**
 * `--format html` (and `--out report.html`): one self-contained page per run, built by
 * `@cvdevkit/report-html` (loaded only when this format is chosen). The page's protocol fingerprint lists
 * the task options the run used and counts the files at their paths.
 */
import type { CompareResult } from '@cvdevkit/analysis';
import type { Report } from '@cvdevkit/core';
import type { ReportProtocol } from '@cvdevkit/report-html';
import type { FormatContext, ReportFormatter } from './formatter.js';

import { loadReportHtml as loadOptional, type ReportHtml } from '../report-html.js';

function protocolOf(lib: ReportHtml, options: Record<string, unknown> | undefined, note: string | undefined): ReportProtocol {
  return { options, inputs: options ? lib.describeInputs(options) : undefined, versions: { node: process.version }, ...(note ? { inputsNote: note } : {}) };
}

/** report-html with its code cache set and its chart worker started (it loads Vega while the inputs are described). */
async function loadReportHtml(context: FormatContext): Promise<ReportHtml> {
  const lib = await loadOptional('--format html');
  lib.useChartCodeCache(context.cacheDir);
  lib.warmChartWorker();
  return lib;
}

async function render(report: Report, context: FormatContext = {}): Promise<string> {
  const lib = await loadReportHtml(context);
  return lib.renderReportHtml(report, { protocol: protocolOf(lib, context.taskOptions?.[0], context.inputsNote) });
}

async function renderMany(reports: Report[], context: FormatContext = {}): Promise<string> {
  const lib = await loadReportHtml(context);
  return lib.renderReportsHtml(reports, { protocols: reports.map((_, i) => protocolOf(lib, context.taskOptions?.[i], context.inputsNote)) });
}

/** The comparison page (the CD diagram drawn like every chart, the tables). */
async function renderComparison(result: CompareResult, context: FormatContext = {}): Promise<string> {
  const lib = await loadReportHtml(context);
  return (await import('./compare-html.js')).compareHtml(result, lib);
}

export const htmlFormatter: ReportFormatter = { name: 'html', extensions: ['.html', '.htm'], render, renderMany, renderComparison };
