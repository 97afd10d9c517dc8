/**
 * The output formats: a name → formatter map (vitest reporters / ESLint formatters style). A new format is one
 * file exporting a `ReportFormatter` plus one line here.
 */
import { extname } from 'node:path';
import type { Report } from '@cvdevkit/core';
import { usageError } from '@cvdevkit/core';
import { csvFormatter } from './csv.js';
import type { FormatContext, ReportFormatter } from './formatter.js';
import { htmlFormatter } from './html.js';
import { jsonFormatter } from './json.js';
import { markdownFormatter } from './markdown.js';
import { tableFormatter } from './table.js';

export type { FormatContext, ReportFormatter } from './formatter.js';

export const FORMATTERS: ReadonlyMap<string, ReportFormatter> = new Map(
  [tableFormatter, jsonFormatter, csvFormatter, markdownFormatter, htmlFormatter].map((f) => [f.name, f]),
);

/** The `--format` values of the report-printing commands. */
export const REPORT_FORMATS: readonly string[] = [...FORMATTERS.keys()];

/** The `--format` values of `cvdevkit compare`: the formats that render a comparison. */
export const COMPARISON_FORMATS: readonly string[] = [...FORMATTERS.values()].filter((f) => f.renderComparison !== undefined).map((f) => f.name);

/** The format an `--out` file's extension selects, if any. */
export function formatForFile(file: string): string | undefined {
  const ext = extname(file).toLowerCase();
  for (const f of FORMATTERS.values()) if (f.extensions.includes(ext)) return f.name;
  return undefined;
}

/** Renders one or several reports in `format` (any format, including those that render asynchronously). */
export async function formatReports(reports: Report[], format: string, context: FormatContext = {}): Promise<string> {
  const f = FORMATTERS.get(format) ?? tableFormatter;
  if (reports.length === 1) return f.render(reports[0], { ...context, taskOptions: context.taskOptions?.slice(0, 1) });
  if (f.renderMany) return f.renderMany(reports, context);
  const texts = await Promise.all(reports.map((r, i) => f.render(r, { ...context, taskOptions: context.taskOptions?.slice(i, i + 1) })));
  return texts.join('\n');
}

/** Renders one or several reports in a format that renders synchronously (every format but `html`). */
export function renderReports(reports: Report[], format: string): string {
  const f = FORMATTERS.get(format) ?? tableFormatter;
  const text = reports.length === 1 ? f.render(reports[0]) : f.renderMany ? f.renderMany(reports) : reports.map((r) => f.render(r)).join('\n');
  if (typeof text !== 'string') throw usageError(`format ${format} renders asynchronously: use formatReports`, 'usage/async-format');
  return text;
}

/** Writes one or several reports in `format` through `write`: streamed when the format can, else rendered whole. */
export async function writeReports(reports: Report[], format: string, write: (chunk: string) => void, context: FormatContext = {}): Promise<void> {
  const f = FORMATTERS.get(format) ?? tableFormatter;
  if (f.stream) f.stream(reports, write);
  else write(await formatReports(reports, format, context));
}
