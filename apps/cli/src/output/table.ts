/** `--format table` (the default): the task and metric, the rows as aligned columns, then the summary. */
import { fieldsByUnit, reportFieldInfo, type Report } from '@cvdevkit/core';
import type { ReportFormatter } from './formatter.js';
import { alignColumns, formatCell, numericColumns, rowColumns } from './text.js';

function render(report: Report): string {
  let out = `${report.task} (metric ${report.metric})\n\n`;
  const info = reportFieldInfo(report);
  if (report.rows.length > 0) {
    const cols = rowColumns(report);
    out += alignColumns(cols, report.rows.map((r) => cols.map((c) => formatCell(r[c]))), numericColumns(report, cols));
    const units = fieldsByUnit(cols, info);
    if (units.length > 0) out += `units: ${units.map(([u, f]) => `${f.join(', ')}: ${u}`).join('; ')}\n`;
    out += '\n';
  }
  // the summary's numbers with their units when the report gives them (TIDE's change between modes)
  const summary = Object.entries(report.summary);
  const withUnit = summary.some(([k]) => info[k]?.unit !== undefined);
  if (summary.length > 0) out += alignColumns(undefined, summary.map(([k, v]) => (withUnit ? [k, formatCell(v), info[k]?.unit ?? ''] : [k, formatCell(v)])), [false, true, false]);
  for (const [name, m] of Object.entries(report.matrices ?? {})) out += `(matrix ${name}: ${m.labels.length}×${m.labels.length}; see --format json)\n`;
  return out;
}

export const tableFormatter: ReportFormatter = {
  name: 'table',
  extensions: ['.txt'],
  render,
  renderComparison: async (result) => (await import('@cvdevkit/analysis')).formatCompareText(result),
};
