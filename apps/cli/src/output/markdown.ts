/** `--format markdown`: a heading, the rows as a Markdown table, then the summary table. */
import type { Report } from '@cvdevkit/core';
import type { ReportFormatter } from './formatter.js';
import { formatCell, markdownTable, mdCell, numericColumns, rowColumns } from './text.js';

function render(report: Report): string {
  let out = `## ${mdCell(report.task)} (${mdCell(report.metric)})\n\n`;
  if (report.rows.length > 0) {
    const cols = rowColumns(report);
    out += markdownTable(cols, report.rows.map((r) => cols.map((c) => formatCell(r[c]))), numericColumns(report, cols)) + '\n';
  }
  out += markdownTable(['summary', 'value'], Object.entries(report.summary).map(([k, v]) => [k, formatCell(v)]), [false, true]);
  return out;
}

export const markdownFormatter: ReportFormatter = { name: 'markdown', extensions: ['.md', '.markdown'], render };
