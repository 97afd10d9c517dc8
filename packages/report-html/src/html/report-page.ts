/** The self-contained HTML page of one report. */
import { gzipSync } from 'node:zlib';
import { reportToJson, type Report } from '@cvdevkit/core';
import { buildReportCharts, type ReportChart } from '../charts/index.js';
import { renderVegaLiteSvg } from '../render-chart.js';
import { escapeHtml, prefixSvgIds } from './escape.js';
import { buildHtmlPage, type HtmlSection } from './page.js';
import { diagnosticsSection, fingerprintSection, headlineSection, tableSection, type ReportProtocol } from './report-sections.js';

/** A report with its chart specs (`charts` key of the JSON report). */
export type ReportWithCharts = Report & { charts?: ReportChart[] };

export interface ReportHtmlOptions {
  protocol?: ReportProtocol;
  /** The charts (default: `report.charts`, else built from the report). */
  charts?: ReportChart[];
  /** Their SVGs, when already rendered (same order as `charts`). */
  svgs?: string[];
  /** Extra sections after the charts (e.g. an analysis). */
  sections?: HtmlSection[];
  /** Receives Vega warnings. */
  onWarning?: (message: string) => void;
}

/** The report with its `charts` key set (built from the report unless it already has them). */
export function withCharts(report: Report): ReportWithCharts {
  const r = report as ReportWithCharts;
  return r.charts ? r : { ...report, charts: buildReportCharts(report) };
}

/** A figure per chart: heading, inline SVG, caption. */
export function chartFigure(chart: ReportChart, svg: string, index: number): string {
  return `<figure class="chart" id="chart-${escapeHtml(chart.id)}"><h3>${escapeHtml(chart.title)}</h3><div class="svg">${prefixSvgIds(svg, `c${index}`).replace('<svg ', `<svg role="img" aria-label="${escapeHtml(chart.title)}" `)}</div><figcaption>${escapeHtml(chart.description)}</figcaption></figure>`;
}

function downloadSection(report: ReportWithCharts): string {
  const json = reportToJson(report);
  const gz = gzipSync(json, { level: 6 });
  const name = `${report.task.replace(/[^A-Za-z0-9._-]+/g, '-')}-report.json`;
  return `<p>The full report as JSON (schema <code>${escapeHtml(report.schema)}</code>, every curve point at full precision), with the chart specs under its <code>charts</code> key (Vega-Lite: a notebook re-renders them with <code>altair.Chart.from_dict</code> or <code>vega-embed</code>).</p>
<p><button type="button" id="download-json" class="no-js-hidden" data-name="${escapeHtml(name)}">Download ${escapeHtml(name)}</button>
<a id="download-json-gz" download="${escapeHtml(name)}.gz" href="data:application/gzip;base64,${gz.toString('base64')}">Download ${escapeHtml(name)}.gz</a>
<span class="muted">(${(json.length / 1024).toFixed(0)} KiB of JSON, ${(gz.length / 1024).toFixed(0)} KiB compressed)</span></p>`;
}

/** The whole page: fingerprint, headline, table, charts, diagnostics, the embedded JSON report. */
export async function renderReportHtml(report: Report, options: ReportHtmlOptions = {}): Promise<string> {
  const charts = options.charts ?? (report as ReportWithCharts).charts ?? buildReportCharts(report);
  const full: ReportWithCharts = { ...report, charts };
  const svgs = options.svgs ?? (await Promise.all(charts.map((c) => renderVegaLiteSvg(c.spec, { onWarning: options.onWarning }))));
  const protocol = { ...options.protocol, date: options.protocol?.date ?? new Date().toISOString() };
  const sections: HtmlSection[] = [{ id: 'headline', title: 'Headline numbers', html: headlineSection(report) }];
  if (charts.length > 0) sections.push({ id: 'charts', title: 'Charts', html: charts.map((c, i) => chartFigure(c, svgs[i], i)).join('\n') });
  sections.push(...(options.sections ?? []));
  sections.push({ id: 'table', title: `Per-${report.rows.length > 0 && /^\d+$/.test(report.rows[0].key) ? 'row' : 'class'} results`, html: tableSection(report) });
  sections.push({ id: 'protocol', title: 'Protocol', html: fingerprintSection(report, protocol) });
  sections.push({ id: 'diagnostics', title: `Diagnostics (${report.diagnostics.length})`, html: diagnosticsSection(report.diagnostics) });
  sections.push({ id: 'data', title: 'Data', html: downloadSection(full) });
  const headline = Object.entries(report.summary)[0];
  const versions = report.versions ?? {};
  return buildHtmlPage({
    title: `${report.task} report`,
    subtitle: `${report.metric}${headline ? ` · ${headline[0]} ${typeof headline[1] === 'number' ? headline[1].toFixed(4) : 'n/a'}` : ''} · ${protocol.date}`,
    sections,
    footer: `Made by cvdevkit${versions['@cvdevkit/cli'] ? ` ${versions['@cvdevkit/cli']}` : ''}; one self-contained file: no network, no external file.`,
  });
}
