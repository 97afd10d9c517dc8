/**
 * The output formats: a name → formatter map (vitest reporters / ESLint formatters style). A new format is one
 * file exporting a `ReportFormatter` plus one line here.
 */
import { extname } from 'node:path';
import type { Report } from '@cvdevkit/core';
import { csvFormatter } from './csv.js';
import type { ReportFormatter } from './formatter.js';
import { jsonFormatter } from './json.js';
import { markdownFormatter } from './markdown.js';
import { tableFormatter } from './table.js';

export type { ReportFormatter } from './formatter.js';

export const FORMATTERS: ReadonlyMap<string, ReportFormatter> = new Map(
  [tableFormatter, jsonFormatter, csvFormatter, markdownFormatter].map((f) => [f.name, f]),
);

/** The `--format` values of the report-printing commands. */
export const REPORT_FORMATS: readonly string[] = [...FORMATTERS.keys()];

/** The format an `--out` file's extension selects, if any. */
export function formatForFile(file: string): string | undefined {
  const ext = extname(file).toLowerCase();
  for (const f of FORMATTERS.values()) if (f.extensions.includes(ext)) return f.name;
  return undefined;
}

/** Renders one or several reports in `format`. */
export function renderReports(reports: Report[], format: string): string {
  const f = FORMATTERS.get(format) ?? tableFormatter;
  if (reports.length === 1) return f.render(reports[0]);
  return f.renderMany ? f.renderMany(reports) : reports.map((r) => f.render(r)).join('\n');
}

/** Writes one or several reports in `format` through `write`: streamed when the format can, else rendered whole. */
export function writeReports(reports: Report[], format: string, write: (chunk: string) => void): void {
  const f = FORMATTERS.get(format) ?? tableFormatter;
  if (f.stream) f.stream(reports, write);
  else write(renderReports(reports, format));
}
