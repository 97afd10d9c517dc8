/** Text building blocks the formatters share: numbers and cells for people and machines, aligned and Markdown tables, CSV fields. */
import { displayText, type Report, type ReportValue } from '@cvdevkit/core';

/** A number for people: integers as is, others to 6 significant digits (trailing zeros dropped). */
export function formatNumber(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? 'Inf' : '-Inf';
  if (Number.isInteger(v)) return String(v);
  return String(Number(v.toPrecision(6)));
}

/** A report cell for people (table, Markdown): `-` for missing/null; text cut at 200 characters (`displayText`). */
export function formatCell(v: ReportValue | undefined): string {
  if (v === undefined || v === null) return '-';
  if (typeof v === 'number') return formatNumber(v);
  return displayText(String(v));
}

/** A report cell for machines (CSV): numbers round-trip exactly, NaN as `NaN`, null/missing empty. */
export function exactCell(v: ReportValue | undefined): string {
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

/** Per column: true when every row's value is a number (or null/missing), so the column is right-aligned. */
export function numericColumns(report: Report, cols: string[]): boolean[] {
  const isNumeric = (v: unknown): boolean => typeof v === 'number' || v === null;
  return cols.map((c) => c !== 'key' && report.rows.every((r) => r[c] === undefined || isNumeric(r[c])));
}

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

/** A CSV field, quoted when it holds a quote, comma, line break or surrounding white space. */
export function csvField(s: string): string {
  return /[",\r\n]/.test(s) || s !== s.trim() ? `"${s.replace(/"/g, '""')}"` : s;
}

/** A Markdown table cell: backslashes and pipes escaped, line breaks folded. */
export function mdCell(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

/** A Markdown table (`| a | b |`); numeric columns right-aligned. */
export function markdownTable(header: string[], rows: string[][], numeric: boolean[] = []): string {
  const line = (r: string[]) => `| ${r.map(mdCell).join(' | ')} |`;
  return [line(header), `|${header.map((_, i) => (numeric[i] ? '---:' : '---')).join('|')}|`, ...rows.map(line)].join('\n') + '\n';
}
