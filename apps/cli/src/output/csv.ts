/**
 * `--format csv`: a header (`key` + the union of the row fields) and one line per row, then a blank line and a
 * second section `summary,value`. Numbers at full precision. Several reports: sections each preceded by `task,<id>`.
 */
import type { Report } from '@cvdevkit/core';
import type { ReportFormatter } from './formatter.js';
import { csvField, exactCell, rowColumns } from './text.js';

function render(report: Report): string {
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

export const csvFormatter: ReportFormatter = {
  name: 'csv',
  extensions: ['.csv'],
  render,
  renderMany: (reports) => reports.map((r) => `task,${csvField(r.task)}\n${render(r)}`).join('\n'),
};
