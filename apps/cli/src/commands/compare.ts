/** `cvdevkit compare <task> <report.json…>`: ranks, significance tests, CD diagram and bootstrap intervals. */
import { readFileSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { InvalidArgumentError, Option } from 'commander';
import { inputError, usageError, type Report } from '@cvdevkit/core';
import {
  POSTHOC_METHODS,
  cdDiagramSvg,
  compareReports,
  compareToJson,
  formatCompareCsv,
  formatCompareMarkdown,
  formatCompareText,
  methodNames,
  type CompareResult,
  type PosthocMethod,
} from '@cvdevkit/analysis';
import { addCommonOptions } from '../common-options.js';
import { compareHtml } from './compare-html.js';
import { EXIT } from '../failures.js';
import { writeAtomic } from '../io.js';
import { parseIntegerArg, parsePositiveIntegerArg } from '../options.js';
import type { CliSession } from '../session.js';
import type { CommandModule } from './command.js';

const FORMATS: Record<string, (r: CompareResult) => string> = {
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
  try {
    return JSON.parse(text) as Report;
  } catch (e) {
    throw inputError({ code: 'input/json', file, expected: 'JSON (a report written by `cvdevkit eval … --format json`)', found: (e as Error).message.split('\n')[0] });
  }
}

function parseAlpha(v: string): number {
  const a = Number(v);
  if (!(a > 0 && a < 1)) throw new InvalidArgumentError(`expected a number in (0, 1), found "${v}"`);
  return a;
}

async function renderDiagram(file: string, result: CompareResult): Promise<void> {
  const svg = cdDiagramSvg(result);
  if (extname(file).toLowerCase() === '.png') {
    const { Resvg } = await import('@resvg/resvg-js');
    const png = new Resvg(svg, { fitTo: { mode: 'zoom', value: 2 }, font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' } }).render().asPng();
    writeAtomic(file, png);
  } else if (extname(file).toLowerCase() === '.svg') writeAtomic(file, svg);
  else throw usageError(`--cd-diagram ${file}: expected a .svg or .png file name`, 'usage/cd-diagram');
}

async function compare(session: CliSession, task: string, files: string[], opts: Record<string, unknown>, formatExplicit: boolean): Promise<number> {
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

export const compareCommand: CommandModule = ({ program, session, done }) => {
  const cmd = program
    .command('compare')
    .description('compare submissions of one task: per-class ranks, Friedman and post-hoc tests, CD diagram, paired bootstrap over images')
    .argument('<task>', 'task id of the reports')
    .argument('<reports...>', 'reports written by `cvdevkit eval <task> … --format json` (add --per-image to bootstrap)')
    .option('--names <names>', 'comma-separated method names (default: the file names)')
    .addOption(new Option('--posthoc <test>', 'post-hoc test over the classes').choices([...POSTHOC_METHODS]).default('nemenyi'))
    .option('--control <name>', 'control method of --posthoc bonferroni-dunn')
    .option('--alpha <a>', 'significance level, and 1 − the bootstrap interval level', parseAlpha, 0.05)
    .option('--bootstrap <n>', 'paired bootstrap over images with n replicates (needs eval --per-image reports)', parsePositiveIntegerArg)
    .option('--seed <n>', 'seed of the bootstrap (default 0)', parseIntegerArg, 0)
    .option('--cd-diagram <file>', 'write the critical-difference diagram (.svg or .png)')
    .option('--out <file>', 'also write the output to this file (atomically; format from the extension unless --format is given)');
  addCommonOptions(cmd, {}, Object.keys(FORMATS)).action((task: string, files: string[], opts: Record<string, unknown>) =>
    done(compare(session, task, files, opts, cmd.getOptionValueSource('format') === 'cli')),
  );
};
