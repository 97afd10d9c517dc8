/**
 * `--format csv`: a header (`key` + the union of the row fields) and one line per row, then a blank line and a
 * second section `summary,value`. Numbers at full precision. Several reports: sections each preceded by `task,<id>`.
 */
import type { CompareResult } from '@cvdevkit/analysis';
import type { Report } from '@cvdevkit/core';
import type { ReportFormatter } from './formatter.js';
import { csvField, exactCell, rowColumns } from './text.js';

/** Writes the CSV of one report a line at a time (any number of rows). */
function writeCsv(report: Report, write: (chunk: string) => void): void {
  if (report.rows.length > 0) {
    const cols = rowColumns(report);
    write(cols.map(csvField).join(',') + '\n');
    for (const r of report.rows) write(cols.map((c) => csvField(exactCell(r[c]))).join(',') + '\n');
    write('\n');
  }
  write('summary,value\n');
  for (const [k, v] of Object.entries(report.summary)) write(`${csvField(k)},${exactCell(v)}\n`);
}

function render(report: Report): string {
  let out = '';
  writeCsv(report, (chunk) => void (out += chunk));
  return out;
}

/** A comparison: `class,method,value,rank,ci_low,ci_high,best,excluded`, one line per (class, method), then the summary per method. */
async function renderComparison(result: CompareResult): Promise<string> {
  const { header, rows } = (await import('@cvdevkit/analysis')).compareRecords(result);
  return [header, ...rows].map((row) => row.map((v) => csvField(exactCell(v))).join(',')).join('\n') + '\n';
}

export const csvFormatter: ReportFormatter = {
  name: 'csv',
  extensions: ['.csv'],
  render,
  renderComparison,
  renderMany: (reports) => reports.map((r) => `task,${csvField(r.task)}\n${render(r)}`).join('\n'),
  stream(reports, write) {
    if (reports.length === 1) return writeCsv(reports[0], write);
    reports.forEach((r, i) => {
      write(`${i > 0 ? '\n' : ''}task,${csvField(r.task)}\n`);
      writeCsv(r, write);
    });
  },
};
