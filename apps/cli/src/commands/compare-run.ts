/** What `cvdevkit compare` runs (loaded only when the command runs: the statistics and PNG libraries are heavy). */
import { readFileSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { inputError, usageError, type Report } from '@cvdevkit/core';
import {
  cdDiagramSvg,
  compareReports,
  compareToJson,
  formatCompareCsv,
  formatCompareMarkdown,
  formatCompareText,
  methodNames,
  type CompareResult,
  type PosthocMethod,
  validateReport,
} from '@cvdevkit/analysis';
import { compareHtml } from './compare-html.js';
import { EXIT } from '../failures.js';
import { writeAtomic } from '../io.js';
import type { CliSession } from '../session.js';

export const FORMATS: Record<string, (r: CompareResult) => string> = {
  table: formatCompareText,
  json: compareToJson,
  csv: formatCompareCsv,
  markdown: formatCompareMarkdown,
  html: compareHtml,
};
const EXTENSIONS: Record<string, string> = { '.json': 'json', '.csv': 'csv', '.md': 'markdown', '.txt': 'table', '.html': 'html', '.htm': 'html' };

function readReport(file: string): Report {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw inputError({ code: 'input/missing-file', file, expected: 'a report written by `cvdevkit eval … --format json`', found: code === 'ENOENT' ? 'no such file' : String(code) });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw inputError({ code: 'input/json', file, expected: 'JSON (a report written by `cvdevkit eval … --format json`)', found: (e as Error).message.split('\n')[0] });
  }
  return validateReport(value, file);
}


async function renderDiagram(file: string, result: CompareResult): Promise<void> {
  if (!result.perClass) throw usageError(`--cd-diagram: ${result.task} has no per-class values to rank the methods over`, 'usage/cd-diagram', 'leave out --cd-diagram for this task');
  const svg = cdDiagramSvg(result);
  if (extname(file).toLowerCase() === '.png') {
    const { Resvg } = await import('@resvg/resvg-js');
    const png = new Resvg(svg, { fitTo: { mode: 'zoom', value: 2 }, font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' } }).render().asPng();
    writeAtomic(file, png);
  } else if (extname(file).toLowerCase() === '.svg') writeAtomic(file, svg);
  else throw usageError(`--cd-diagram ${file}: expected a .svg or .png file name`, 'usage/cd-diagram');
}

export async function compare(session: CliSession, task: string, files: string[], opts: Record<string, unknown>, formatExplicit: boolean): Promise<number> {
  session.quiet = opts.quiet === true;
  const out = typeof opts.out === 'string' ? resolve(session.io.cwd, opts.out) : undefined;
  let format = (opts.format as string | undefined) ?? 'table';
  if (!formatExplicit && out !== undefined) format = EXTENSIONS[extname(out).toLowerCase()] ?? format;
  if (files.length < 2) throw usageError(`compare: expected at least two reports, got ${files.length}`, 'usage/missing-argument');
  const paths = files.map((f) => resolve(session.io.cwd, f));
  const names = methodNames(files, typeof opts.names === 'string' ? opts.names : undefined);
  const inputs = paths.map((file, i) => {
    const report = readReport(file);
    if (report.task !== task) {
      throw inputError({ code: 'input/not-comparable', file, field: 'task', expected: `a report of ${task}`, found: JSON.stringify(report.task ?? null), hint: 'compare reports of the task named on the command line' });
    }
    return { name: names[i], file: files[i], report };
  });
  const result = compareReports(inputs, {
    posthoc: opts.posthoc as PosthocMethod | undefined,
    alpha: opts.alpha as number | undefined,
    control: typeof opts.control === 'string' ? opts.control : undefined,
    bootstrap: (opts.bootstrap as number | undefined) ?? 0,
    seed: (opts.seed as number | undefined) ?? 0,
  });
  const text = FORMATS[format](result);
  if (out) writeAtomic(out, text);
  if (typeof opts.cdDiagram === 'string') await renderDiagram(resolve(session.io.cwd, opts.cdDiagram), result);
  session.out(text);
  return EXIT.ok;
}
