import { formatLocation, reportToJson, type Diagnostic, type Report, type ReportValue } from '@cvdevkit/core';

export type ReportFormat = 'table' | 'json' | 'csv' | 'markdown';
export const REPORT_FORMATS: readonly ReportFormat[] = ['table', 'json', 'csv', 'markdown'];

/** A number for people: integers as is, others to 6 significant digits (trailing zeros dropped). */
export function formatNumber(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? 'Inf' : '-Inf';
  if (Number.isInteger(v)) return String(v);
  return String(Number(v.toPrecision(6)));
}

/** A report cell for people (table, Markdown): `-` for missing/null. */
export function formatCell(v: ReportValue | undefined): string {
  if (v === undefined || v === null) return '-';
  if (typeof v === 'number') return formatNumber(v);
  return String(v);
}

/** A report cell for machines (CSV): numbers round-trip exactly, NaN as `NaN`, null/missing empty. */
function exactCell(v: ReportValue | undefined): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'number') return Number.isNaN(v) ? 'NaN' : Number.isFinite(v) ? String(v) : v > 0 ? 'Infinity' : '-Infinity';
  return String(v);
}

/** The row fields of a report: `key`, then every other field in first-seen order. */
export function rowColumns(report: Report): string[] {
  const cols = new Set<string>(['key']);
  for (const row of report.rows) for (const k of Object.keys(row)) cols.add(k);
  return [...cols];
}

const isNumeric = (v: unknown): boolean => typeof v === 'number' || v === null;

/** Aligned text columns; numeric columns (by their values) are right-aligned. */
export function alignColumns(header: string[] | undefined, rows: string[][], numeric: boolean[] = []): string {
  const all = header ? [header, ...rows] : rows;
  if (all.length === 0) return '';
  const widths = all[0].map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => (i === r.length - 1 && !numeric[i] ? c : numeric[i] ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return all.map(line).join('\n') + '\n';
}

function title(report: Report): string {
  return `${report.task} (metric ${report.metric})`;
}

function renderTable(report: Report): string {
  let out = title(report) + '\n\n';
  if (report.rows.length > 0) {
    const cols = rowColumns(report);
    const numeric = cols.map((c) => c !== 'key' && report.rows.every((r) => r[c] === undefined || isNumeric(r[c])));
    out += alignColumns(cols, report.rows.map((r) => cols.map((c) => formatCell(r[c]))), numeric) + '\n';
  }
  const summary = Object.entries(report.summary);
  if (summary.length > 0) out += alignColumns(undefined, summary.map(([k, v]) => [k, formatCell(v)]), [false, true]);
  const matrices = Object.entries(report.matrices ?? {});
  for (const [name, m] of matrices) out += `(matrix ${name}: ${m.labels.length}×${m.labels.length}; see --format json)\n`;
  return out;
}

function csvField(s: string): string {
  return /[",\r\n]/.test(s) || s !== s.trim() ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * CSV: a header (`key` + the union of the row fields) and one line per row, then a blank line and a
 * second section `summary,value` with one line per summary entry. Numbers at full precision.
 */
function renderCsv(report: Report): string {
  const lines: string[] = [];
  if (report.rows.length > 0) {
    const cols = rowColumns(report);
    lines.push(cols.map(csvField).join(','));
    for (const r of report.rows) lines.push(cols.map((c) => csvField(exactCell(r[c]))).join(','));
    lines.push('');
  }
  lines.push('summary,value');
  for (const [k, v] of Object.entries(report.summary)) lines.push(`${csvField(k)},${exactCell(v)}`);
  return lines.join('\n') + '\n';
}

function mdCell(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

/** A Markdown table (`| a | b |`); numeric columns right-aligned. */
export function markdownTable(header: string[], rows: string[][], numeric: boolean[] = []): string {
  const line = (r: string[]) => `| ${r.map(mdCell).join(' | ')} |`;
  return [line(header), `|${header.map((_, i) => (numeric[i] ? '---:' : '---')).join('|')}|`, ...rows.map(line)].join('\n') + '\n';
}

function renderMarkdown(report: Report): string {
  let out = `## ${mdCell(report.task)} (${mdCell(report.metric)})\n\n`;
  if (report.rows.length > 0) {
    const cols = rowColumns(report);
    const numeric = cols.map((c) => c !== 'key' && report.rows.every((r) => r[c] === undefined || isNumeric(r[c])));
    out += markdownTable(cols, report.rows.map((r) => cols.map((c) => formatCell(r[c]))), numeric) + '\n';
  }
  out += markdownTable(['summary', 'value'], Object.entries(report.summary).map(([k, v]) => [k, formatCell(v)]), [false, true]);
  return out;
}

/** Renders one report. JSON is exactly `reportToJson` (REPORT.md): NaN → null, full precision. */
export function renderReport(report: Report, format: ReportFormat): string {
  switch (format) {
    case 'json':
      return reportToJson(report) + '\n';
    case 'csv':
      return renderCsv(report);
    case 'markdown':
      return renderMarkdown(report);
    default:
      return renderTable(report);
  }
}

/**
 * Renders several reports (`cvdevkit demo`): JSON as an array, CSV sections each preceded by a
 * `task,<id>` line, table and Markdown one after the other.
 */
export function renderReports(reports: Report[], format: ReportFormat): string {
  if (reports.length === 1) return renderReport(reports[0], format);
  if (format === 'json') return '[\n' + reports.map((r) => reportToJson(r)).join(',\n') + '\n]\n';
  if (format === 'csv') return reports.map((r) => `task,${csvField(r.task)}\n${renderCsv(r)}`).join('\n');
  return reports.map((r) => renderReport(r, format)).join('\n');
}

/** One line per diagnostic: `warning: file:line: message (code)`. */
export function formatDiagnostic(d: Diagnostic): string {
  const where = formatLocation({ file: d.file, line: d.line });
  return `${d.severity}: ${where ? where + ': ' : ''}${d.message}${d.code ? ` [${d.code}]` : ''}`;
}
