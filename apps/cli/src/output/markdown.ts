/** `--format markdown`: a heading, the rows as a Markdown table, then the summary table. */
import type { CompareResult } from '@cvdevkit/analysis';
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

/** A comparison: a heading, the per-class table, the tests as a list, the pairs, ties and the bootstrap table. */
async function renderComparison(result: CompareResult): Promise<string> {
  const t = (await import('@cvdevkit/analysis')).compareTables(result);
  // the first column (class, method) left-aligned, the values right-aligned
  const table = (rows: string[][], textColumns = 1) => markdownTable(rows[0], rows.slice(1), rows[0].map((_, i) => i >= textColumns));
  let out = `## ${mdCell(t.header)}\n\n${table(t.classes)}\n${t.tests.map((l) => `- ${mdCell(l)}\n`).join('')}\n${table(t.pairs, 2)}`;
  if (t.ties) out += `\n${mdCell(t.ties)}\n`;
  if (t.bootstrap) out += `\n${mdCell(t.bootstrapTitle!)}\n\n${table(t.bootstrap)}`;
  return out;
}

export const markdownFormatter: ReportFormatter = { name: 'markdown', extensions: ['.md', '.markdown'], render, renderComparison };
