/** `--format markdown`: a heading, the rows as a Markdown table, then the summary table. */
import { fieldsByUnit, reportFieldInfo, type Report } from '@cvdevkit/core';
import type { ReportFormatter } from './formatter.js';
import { formatCell, markdownTable, mdCell, numericColumns, rowColumns } from './text.js';

function render(report: Report): string {
  let out = `## ${mdCell(report.task)} (${mdCell(report.metric)})\n\n`;
  const info = reportFieldInfo(report);
  if (report.rows.length > 0) {
    const cols = rowColumns(report);
    out += markdownTable(cols, report.rows.map((r) => cols.map((c) => formatCell(r[c]))), numericColumns(report, cols)) + '\n';
    const units = fieldsByUnit(cols, info);
    if (units.length > 0) out += `Units: ${units.map(([u, f]) => `${f.map((x) => `\`${x}\``).join(', ')}: ${mdCell(u)}`).join('; ')}.\n\n`;
  }
  const summary = Object.entries(report.summary);
  if (summary.some(([k]) => info[k]?.unit !== undefined)) out += markdownTable(['summary', 'value', 'unit'], summary.map(([k, v]) => [k, formatCell(v), info[k]?.unit ?? '']), [false, true, false]);
  else out += markdownTable(['summary', 'value'], summary.map(([k, v]) => [k, formatCell(v)]), [false, true]);
  return out;
}

export const markdownFormatter: ReportFormatter = { name: 'markdown', extensions: ['.md', '.markdown'], render };
