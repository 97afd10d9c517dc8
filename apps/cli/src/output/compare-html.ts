/** The HTML page of `cvdevkit compare --format html`: the CD diagram (a report-html chart) and the tables, on report-html's page. */
import { cdDiagramData, compareTables, type CompareResult } from '@cvdevkit/analysis';
import type { ReportHtml } from '../report-html.js';

function table(escapeHtml: ReportHtml['escapeHtml'], rows: string[][], sortable = true): string {
  const head = rows[0].map((c) => `<th>${escapeHtml(c)}</th>`).join('');
  const body = rows
    .slice(1)
    .map((r) => `<tr>${r.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`)
    .join('\n');
  return `<table${sortable ? ' class="sortable"' : ''}><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

/** The tests' formulas as a reader expects them: subscripts and a root sign instead of `χ²_F`, `F_F`, `q_α`, `sqrt(…)` (on escaped text). */
export function formulaHtml(escaped: string): string {
  return escaped
    .replace(/χ²_F/g, 'χ²<sub>F</sub>')
    .replace(/\bF_F\b/g, 'F<sub>F</sub>')
    .replace(/q_α/g, 'q<sub>α</sub>')
    .replace(/sqrt\(k\(k\+1\)\/\(6N\)\)/g, '√(k(k+1)/(6N))')
    .replace(/·√/g, ' · √');
}

/** The page, drawn with report-html (`lib`, loaded by the caller: it is an optional package). */
export async function compareHtml(r: CompareResult, lib: ReportHtml): Promise<string> {
  const { buildHtmlPage, escapeHtml } = lib;
  const t = compareTables(r);
  const tests = `<ul>${t.tests.map((l) => `<li>${formulaHtml(escapeHtml(l))}</li>`).join('')}</ul>`;
  const cd = cdDiagramData(r);
  let diagram = '';
  if (cd) {
    const chart = lib.criticalDifferenceChart(cd);
    const [svg] = await lib.renderChartSvgs([chart.spec]);
    diagram = lib.chartFigure(chart, svg, 0, 'cd');
  }
  const sections = [
    cd ? { id: 'cd', title: 'Critical-difference diagram', html: `${diagram}\n${tests}` } : { id: 'notes', title: 'No per-class values', html: tests },
    { id: 'classes', title: r.perClass ? 'Per class (value, rank)' : `Per row (${r.valueField})`, html: table(escapeHtml, t.classes) },
    { id: 'pairs', title: 'Pairs', html: table(escapeHtml, t.pairs) },
    ...(t.bootstrap ? [{ id: 'bootstrap', title: `Paired bootstrap over images (${r.bootstrap!.replicates} replicates, seed ${r.bootstrap!.seed})`, html: table(escapeHtml, t.bootstrap) }] : []),
  ];
  return buildHtmlPage({ title: `Comparison of ${r.k} methods: ${r.task}`, subtitle: t.header, sections });
}
