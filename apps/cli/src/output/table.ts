/** `--format table` (the default): the task and metric, the rows as aligned columns, then the summary. */
import type { Report } from '@cvdevkit/core';
import type { ReportFormatter } from './formatter.js';
import { alignColumns, formatCell, numericColumns, rowColumns } from './text.js';

function render(report: Report): string {
  let out = `${report.task} (metric ${report.metric})\n\n`;
  if (report.rows.length > 0) {
    const cols = rowColumns(report);
    out += alignColumns(cols, report.rows.map((r) => cols.map((c) => formatCell(r[c]))), numericColumns(report, cols)) + '\n';
  }
  const summary = Object.entries(report.summary);
  if (summary.length > 0) out += alignColumns(undefined, summary.map(([k, v]) => [k, formatCell(v)]), [false, true]);
  for (const [name, m] of Object.entries(report.matrices ?? {})) out += `(matrix ${name}: ${m.labels.length}×${m.labels.length}; see --format json)\n`;
  return out;
}

export const tableFormatter: ReportFormatter = { name: 'table', extensions: ['.txt'], render };
