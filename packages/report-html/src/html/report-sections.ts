/** The sections of a report's page: headline numbers, protocol fingerprint, per-class table, diagnostics. */
import { formatLocation, reportFieldInfo, type Diagnostic, type Report, type ReportValue } from '@cvdevkit/core';
import { escapeHtml } from './escape.js';
import type { InputDescription } from './inputs.js';
import { thousands } from '../thousands.js';

/** What the page says about how the report was made (beyond the report itself). */
export interface ReportProtocol {
  /** The command line that made the report. */
  command?: string;
  /** The task's option values as given (paths resolved). */
  options?: Record<string, unknown>;
  /** The input paths among the options, with what is there (see `describeInputs`). */
  inputs?: InputDescription[];
  /** When the report was made (ISO 8601); default: now. */
  date?: string;
  /** Versions not in `report.versions` (Node.js, …). */
  versions?: Record<string, string>;
  /** Said next to the inputs when their paths no longer exist (a demo's temporary sample folder). */
  inputsNote?: string;
}

/** A number for a cell: integers as is, others to 4 decimals; NaN/null as `–`. */
export function formatValue(v: ReportValue | undefined): string {
  if (v === undefined || v === null) return '–';
  if (typeof v === 'number') {
    if (Number.isNaN(v)) return 'NaN';
    if (!Number.isFinite(v)) return v > 0 ? '∞' : '−∞';
    return Number.isInteger(v) ? String(v) : v.toFixed(4);
  }
  return String(v);
}

const isCount = (v: number | null) => typeof v === 'number' && Number.isInteger(v) && Math.abs(v) > 1;

/** The summary numbers as cards; counts (integers > 1, such as images or a seed) go to the fingerprint. */
export function headlineSection(report: Report): string {
  const entries = Object.entries(report.summary).filter(([, v]) => !isCount(v));
  if (entries.length === 0) return '<p class="muted">The report has no summary numbers.</p>';
  const info = reportFieldInfo(report);
  const cards = entries
    .map(([k, v], i) => {
      const unit = info[k]?.unit;
      const help = info[k]?.description;
      return `<div class="number${i === 0 ? ' official' : ''}"${help ? ` title="${escapeHtml(help)}"` : ''}><div class="label">${escapeHtml(k)}</div><div class="value" title="${escapeHtml(String(v))}">${escapeHtml(formatValue(v))}</div>${unit ? `<div class="unit">${escapeHtml(unit)}</div>` : ''}</div>`;
    })
    .join('');
  return `<div class="headline">${cards}</div><p class="muted">Exact values (full precision) are in the table cells' tooltips and in the JSON report below.</p>`;
}

function factRow(label: string, html: string): string {
  return `<tr><th scope="row">${escapeHtml(label)}</th><td>${html}</td></tr>`;
}

function scalarText(v: unknown): string {
  if (v === null || v === undefined) return '–';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

const kebab = (s: string) => s.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

function describeInput(i: InputDescription): string {
  const what =
    i.kind === 'missing'
      ? 'not found'
      : i.kind === 'file'
        ? `file, ${formatBytes(i.bytes ?? 0)}`
        : `directory, ${i.truncated ? '≥ ' : ''}${thousands(i.files)} ${i.files === 1 ? 'file' : 'files'}`;
  return `<code>--${escapeHtml(kebab(i.option))}</code> <code>${escapeHtml(i.path)}</code> <span class="muted">(${escapeHtml(what)})</span>`;
}

function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  if (n < 1024 ** 3) return `${(n / 1024 / 1024).toFixed(1)} MiB`;
  return `${(n / 1024 ** 3).toFixed(2)} GiB`;
}

/** Task, metric, options, seed, inputs with file counts, versions, date: enough to rerun and compare. */
export function fingerprintSection(report: Report, protocol: ReportProtocol): string {
  const rows: string[] = [];
  rows.push(factRow('task', `<code>${escapeHtml(report.task)}</code>${report.dataset ? ` <span class="muted">(dataset ${escapeHtml(report.dataset)})</span>` : ''}`));
  rows.push(factRow('official metric', `<code>${escapeHtml(report.metric)}</code>`));
  if (protocol.command) rows.push(factRow('command', `<code>${escapeHtml(protocol.command)}</code>`));
  const inputPaths = new Set((protocol.inputs ?? []).map((i) => i.option));
  const options = Object.entries(protocol.options ?? {}).filter(([k, v]) => v !== undefined && !inputPaths.has(k));
  if (options.length > 0) rows.push(factRow('options', options.map(([k, v]) => `<code>--${escapeHtml(kebab(k))} ${escapeHtml(scalarText(v))}</code>`).join(' ')));
  const seed = protocol.options?.seed ?? report.summary.seed ?? (report.extra as Record<string, unknown> | undefined)?.seed;
  rows.push(factRow('seed', seed === undefined ? '<span class="muted">none (the task is deterministic)</span>' : `<code>${escapeHtml(scalarText(seed))}</code>`));
  if (protocol.inputsNote) rows.push(factRow('inputs', `<span class="muted">${escapeHtml(protocol.inputsNote)}</span>`));
  for (const i of protocol.inputs ?? []) rows.push(factRow('input', describeInput(i)));
  const counts = Object.entries(report.summary).filter(([k, v]) => isCount(v) && k !== 'seed');
  const extraCounts = Object.entries(report.extra ?? {}).filter(([, v]) => typeof v === 'number' || typeof v === 'string');
  if (counts.length + extraCounts.length > 0)
    rows.push(factRow('counts', [...counts, ...extraCounts].map(([k, v]) => `${escapeHtml(k)} <code>${escapeHtml(scalarText(v))}</code>`).join(' · ')));
  const versions = { ...report.versions, ...(protocol.versions ?? {}) };
  rows.push(factRow('versions', Object.entries(versions).map(([k, v]) => `<code>${escapeHtml(k)}@${escapeHtml(v)}</code>`).join(' ')));
  rows.push(factRow('date', escapeHtml(protocol.date ?? new Date().toISOString())));
  rows.push(factRow('evaluation time', `${(report.timings.totalMs / 1000).toFixed(2)} s`));
  return `<table class="facts"><tbody>${rows.join('')}</tbody></table>`;
}

/** The row fields: `key` first, then every other field in first-seen order. */
export function rowColumns(report: Report): string[] {
  const cols = new Set<string>(['key']);
  for (const row of report.rows) for (const k of Object.keys(row)) cols.add(k);
  return [...cols];
}

/** The per-class table: sortable by any column (script), filterable by name; exact values in tooltips. */
export function tableSection(report: Report, tableId = 'rows'): string {
  if (report.rows.length === 0) return '<p class="muted">The report has no rows.</p>';
  const cols = rowColumns(report);
  const numeric = cols.map((c) => c !== 'key' && report.rows.every((r) => r[c] === undefined || r[c] === null || typeof r[c] === 'number'));
  const info = reportFieldInfo(report);
  const help = (c: string) => [info[c]?.description, info[c]?.unit ? `unit: ${info[c]!.unit}` : undefined].filter((x) => x !== undefined).join(' · ');
  const head = cols.map((c, i) => `<th scope="col"${numeric[i] ? ' class="num"' : ''}${help(c) ? ` title="${escapeHtml(help(c))}"` : ''}>${escapeHtml(c)}</th>`).join('');
  const body = report.rows
    .map(
      (r) =>
        `<tr>${cols
          .map((c, i) => {
            const v = r[c];
            if (!numeric[i]) return `<td>${escapeHtml(formatValue(v))}</td>`;
            const exact = typeof v === 'number' && Number.isFinite(v) ? String(v) : '';
            return `<td class="num" data-value="${exact}"${exact ? ` title="${exact}"` : ''}>${escapeHtml(formatValue(v))}</td>`;
          })
          .join('')}</tr>`,
    )
    .join('\n');
  return `<input class="filter no-js-hidden" type="search" placeholder="Filter rows…" aria-label="Filter rows" data-table="${tableId}">
<p class="muted">${report.rows.length} rows. Click a column heading to sort.</p>
<div class="table-wrap"><table class="sortable" id="${tableId}"><thead><tr>${head}</tr></thead><tbody>
${body}
</tbody></table></div>`;
}

/** Diagnostics as a table (severity, code, where, message). */
export function diagnosticsSection(diagnostics: Diagnostic[], tableId = 'diagnostics-table'): string {
  if (diagnostics.length === 0) return '<p>No diagnostics: the inputs raised no warning.</p>';
  const rows = diagnostics
    .map((d) => {
      const where = formatLocation({ file: d.file, line: d.line });
      return `<tr><td class="sev-${escapeHtml(d.severity)}">${escapeHtml(d.severity)}</td><td><code>${escapeHtml(d.code)}</code></td><td><code>${escapeHtml(where)}</code></td><td>${escapeHtml(d.message)}</td></tr>`;
    })
    .join('\n');
  return `<div class="table-wrap"><table class="sortable" id="${escapeHtml(tableId)}"><thead><tr><th scope="col">severity</th><th scope="col">code</th><th scope="col">where</th><th scope="col">message</th></tr></thead><tbody>
${rows}
</tbody></table></div>`;
}
