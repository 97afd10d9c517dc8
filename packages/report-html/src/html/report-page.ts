/** The self-contained HTML page of one report. */
import { gzip } from 'node:zlib';
import { promisify } from 'node:util';
import { displayReport, reportToJson, type Report } from '@cvdevkit/core';
import { buildReportCharts, type ReportChart } from '../charts/index.js';
import { renderChartSvgs, warmChartWorker } from '../chart-renderer.js';
import { addSvgTitles, escapeHtml, prefixSvgIds } from './escape.js';
import { buildHtmlPage, type HtmlSection, type TocGroup } from './page.js';
import { diagnosticsSection, fingerprintSection, headlineSection, tableSection, type ReportProtocol } from './report-sections.js';
import { topSection, type TopSectionOptions } from './top-section.js';

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
  /** Crops of an analyze report's top detections (default images folder: the report's `extra.imagesDir`). */
  crops?: TopSectionOptions;
}

/** The report with its `charts` key set (built from the report unless it already has them). */
export function withCharts(report: Report): ReportWithCharts {
  const r = report as ReportWithCharts;
  return r.charts ? r : { ...report, charts: buildReportCharts(report) };
}

/** A figure per chart: heading, inline SVG, caption. */
export function chartFigure(chart: ReportChart, svg: string, index: number, prefix = ''): string {
  const id = `${prefix ? `${prefix}-` : ''}chart-${chart.id}`;
  return `<figure class="chart" id="${escapeHtml(id)}"><div class="svg">${addSvgTitles(prefixSvgIds(svg, `${prefix ? `${prefix}-` : ''}c${index}`)).replace('<svg ', `<svg role="img" aria-label="${escapeHtml(chart.title)}" `)}</div><figcaption>${escapeHtml(chart.description)}</figcaption></figure>`;
}

const gzipAsync = promisify(gzip);

/**
 * The embedded JSON report. Compact JSON, gzip level 1: a third of the time of indented JSON at level 6,
 * for about 5 % more bytes. The JSON is written here; the compression runs on libuv's thread pool while
 * this thread goes on drawing charts.
 */
async function downloadSection(report: ReportWithCharts, id: string): Promise<string> {
  const json = reportToJson(report, 0);
  const gz = await gzipAsync(json, { level: 1 });
  const name = `${report.task.replace(/[^A-Za-z0-9._-]+/g, '-')}-report.json`;
  return `<p>The full report as JSON (schema <code>${escapeHtml(report.schema)}</code>, every curve point at full precision), with the chart specs under its <code>charts</code> key (Vega-Lite: a notebook re-renders them with <code>altair.Chart.from_dict</code> or <code>vega-embed</code>).</p>
<p><button type="button" class="download-json no-js-hidden" data-link="${escapeHtml(id)}-gz" data-name="${escapeHtml(name)}">Download ${escapeHtml(name)}</button>
<a id="${escapeHtml(id)}-gz" download="${escapeHtml(name)}.gz" href="data:application/gzip;base64,${gz.toString('base64')}">Download ${escapeHtml(name)}.gz</a>
<span class="muted">(${(json.length / 1024).toFixed(0)} KiB of JSON, ${(gz.length / 1024).toFixed(0)} KiB compressed)</span></p>`;
}

/**
 * What writing the embedded JSON report costs this thread, in milliseconds (see `ChartSvgOptions.costHere`):
 * about 0.4 µs per curve number (80 ms for VOC det `large`'s 200 k numbers, with other threads beside).
 */
function embeddedJsonCost(report: Report): number {
  let numbers = 0;
  for (const c of report.curves) for (const v of Object.values(c)) if (v !== null && typeof v === 'object' && typeof (v as ArrayLike<unknown>).length === 'number') numbers += (v as ArrayLike<unknown>).length;
  return 5 + numbers * 0.0004;
}

/** The sections of one report (ids and titles prefixed when several reports share a page). */
export async function reportSections(fullReport: Report, options: ReportHtmlOptions = {}, prefix = ''): Promise<HtmlSection[]> {
  if (options.svgs === undefined) warmChartWorker();
  const charts = options.charts ?? (fullReport as ReportWithCharts).charts ?? buildReportCharts(fullReport);
  // the embedded JSON keeps every name in full; the page shows them cut at 200 characters
  const full: ReportWithCharts = { ...fullReport, charts };
  const report = displayReport(fullReport);
  // the charts are drawn (the costliest in a worker thread, see chart-renderer.ts) while this thread writes the JSON download
  const drawn = options.svgs !== undefined ? Promise.resolve(options.svgs) : renderChartSvgs(charts.map((c) => c.spec), { onWarning: options.onWarning, costHere: embeddedJsonCost(report) });
  drawn.catch(() => undefined);
  const id = (s: string) => (prefix ? `${prefix}-${s}` : s);
  // An analyze report's top detections (image crops by libvips, also off this thread) before the download,
  // whose embedded report gets the page's diagnostics about images that could not be shown.
  const top = report.analysis?.top;
  let topHtml: string | undefined;
  if (Array.isArray(top) && top.length > 0) {
    const imagesDir = options.crops?.imagesDir ?? (report.extra as { imagesDir?: unknown } | undefined)?.imagesDir;
    const rows = new Map(report.rows.map((r) => [r.key, r]));
    const nameOf = (key: string) => (typeof rows.get(key)?.name === 'string' && rows.get(key)!.name !== '' ? String(rows.get(key)!.name) : key);
    const boxFormat = report.analysis?.boxFormat === 'xywh' ? ('xywh' as const) : undefined;
    const t = await topSection(top, { nameOf, ...options.crops, imagesDir: typeof imagesDir === 'string' ? imagesDir : undefined, ...(boxFormat ? { boxFormat } : {}) });
    topHtml = t.html;
    if (t.diagnostics.length > 0) full.diagnostics = [...full.diagnostics, ...t.diagnostics];
  }
  const downloading = downloadSection(full, id('download'));
  downloading.catch(() => undefined);
  const svgs = await drawn;
  const download = await downloading;
  const protocol = { ...options.protocol, date: options.protocol?.date ?? new Date().toISOString() };
  const title = (s: string) => (prefix ? `${report.task}: ${s}` : s);
  const perRow = report.rows.length > 0 && /^\d+$/.test(report.rows[0].key) ? 'row' : 'class';
  const sections: HtmlSection[] = [{ id: id('headline'), title: title('Headline numbers'), html: headlineSection(report) }];
  if (charts.length > 0) sections.push({ id: id('charts'), title: title('Charts'), html: charts.map((c, i) => chartFigure(c, svgs[i], i, prefix)).join('\n') });
  sections.push(...(options.sections ?? []));
  if (topHtml !== undefined) sections.push({ id: id('top'), title: title('Top detections'), html: topHtml });
  sections.push({ id: id('table'), title: title(`Per-${perRow} results`), html: tableSection(report, id('rows')) });
  sections.push({ id: id('protocol'), title: title('Protocol'), html: fingerprintSection(report, protocol) });
  sections.push({ id: id('diagnostics'), title: title(`Diagnostics (${full.diagnostics.length})`), html: diagnosticsSection(full.diagnostics, id('diagnostics-table')) });
  sections.push({ id: id('data'), title: title('Data'), html: download });
  return sections;
}

function footer(reports: Report[]): string {
  const cli = reports.map((r) => r.versions?.['@cvdevkit/cli']).find((v) => v !== undefined);
  return `Made by cvdevkit${cli ? ` ${cli}` : ''}; one self-contained file: no network, no external file.`;
}

/** The whole page of one report: headline, charts, per-class table, protocol fingerprint, diagnostics, the embedded JSON report. */
export async function renderReportHtml(report: Report, options: ReportHtmlOptions = {}): Promise<string> {
  const date = options.protocol?.date ?? new Date().toISOString();
  const sections = await reportSections(report, { ...options, protocol: { ...options.protocol, date } });
  const headline = Object.entries(report.summary)[0];
  return buildHtmlPage({
    title: `${report.task} report`,
    subtitle: `${report.metric}${headline ? ` · ${headline[0]} ${typeof headline[1] === 'number' ? headline[1].toFixed(4) : 'n/a'}` : ''} · ${date}`,
    sections,
    footer: footer([report]),
  });
}

/** One page for several reports (`cvdevkit demo`): each report's sections in turn, prefixed by its task. */
export async function renderReportsHtml(reports: Report[], options: { protocols?: Array<ReportProtocol | undefined>; onWarning?: (m: string) => void } = {}): Promise<string> {
  if (reports.length === 1) return renderReportHtml(reports[0], { protocol: options.protocols?.[0], onWarning: options.onWarning });
  const date = new Date().toISOString();
  const sections: HtmlSection[] = [];
  const perReport: HtmlSection[][] = [];
  // the reports of one dataset together (in their order), as the contents group them
  const order = groupedOrder(reports);
  for (let i = 0; i < reports.length; i++) {
    const prefix = `r${i + 1}-${reports[order[i]].task.replace(/[^A-Za-z0-9]+/g, '-')}`;
    const own = await reportSections(reports[order[i]], { protocol: { date, ...options.protocols?.[order[i]] }, onWarning: options.onWarning }, prefix);
    perReport.push(own);
    sections.push(...own);
  }
  return buildHtmlPage({ title: `cvdevkit: ${reports.length} reports`, subtitle: `${reports.map((r) => r.task).join(' · ')} · ${date}`, sections, toc: tocByDataset(order.map((i) => reports[i]), perReport), footer: footer(reports) });
}

/** A report's dataset: its `dataset`, else its task's part before `/`. */
function datasetOf(r: Report): string {
  return typeof r.dataset === 'string' && r.dataset !== '' ? r.dataset : r.task.split('/')[0];
}

/** The reports' indices, those of one dataset together, datasets in the order they first appear. */
function groupedOrder(reports: Report[]): number[] {
  const byDataset = new Map<string, number[]>();
  reports.forEach((r, i) => {
    const d = datasetOf(r);
    byDataset.set(d, [...(byDataset.get(d) ?? []), i]);
  });
  return [...byDataset.values()].flat();
}

/**
 * The contents of a page of several reports (`perReport`: each one's sections), grouped by dataset (see
 * `datasetOf`), a line per task: its name, then its sections (their titles without the task's name).
 */
export function tocByDataset(reports: Report[], perReport: HtmlSection[][]): TocGroup[] {
  const groups = new Map<string, TocGroup>();
  reports.forEach((r, i) => {
    const dataset = datasetOf(r);
    const group = groups.get(dataset) ?? { heading: dataset, lines: [] };
    groups.set(dataset, group);
    const lead = `${r.task}: `;
    group.lines.push({ label: r.task, links: perReport[i].map((s) => ({ id: s.id, title: s.title.startsWith(lead) ? s.title.slice(lead.length) : s.title })) });
  });
  return [...groups.values()];
}
