/** What `cvdevkit compare` runs (loaded only when the command runs: the statistics and PNG libraries are heavy). */
import { readFileSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { DevkitError, inputError, perImageStatisticsOf, usageError, type Replicator, type Report } from '@cvdevkit/core';
import { cdDiagramData, compareReports, methodNames, type CompareResult, type PosthocMethod, validateReport } from '@cvdevkit/analysis';
import { loadReportHtml } from '../report-html.js';
import { EXIT } from '../failures.js';
import { chartFile } from '../output/chart-file.js';
import { FORMATTERS } from '../output/index.js';
import { outputFormat } from '../output/out-format.js';
import { checkOutputTarget, OutputCommit } from '../output/targets.js';
import type { CliSession } from '../session.js';

/** The comparison in `format`, by the formatter that renders reports in it (same escaping, same extensions). */
function renderComparison(result: CompareResult, format: string): Promise<string> {
  const formatter = FORMATTERS.get(format);
  if (formatter?.renderComparison === undefined) throw usageError(`compare: the ${format} format cannot show a comparison`, 'usage/invalid');
  return formatter.renderComparison(result);
}

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


/** `--cd-diagram`'s file: a .svg or .png name whose target can be written (checked before any work). */
function checkDiagramTarget(file: string): void {
  const ext = extname(file).toLowerCase();
  if (ext !== '.png' && ext !== '.svg') throw usageError(`--cd-diagram ${file}: expected a .svg or .png file name`, 'usage/cd-diagram');
  checkOutputTarget(file, '--cd-diagram');
}

/** The CD diagram: report-html's chart, drawn and turned into PNG like every chart (`--plots`). */
async function renderDiagram(file: string, result: CompareResult, outputs: OutputCommit): Promise<void> {
  const data = cdDiagramData(result);
  if (!data) throw usageError(`--cd-diagram: ${result.task} has no per-class values to rank the methods over`, 'usage/cd-diagram', 'leave out --cd-diagram for this task');
  const lib = await loadReportHtml('--cd-diagram');
  const [svg] = await lib.renderChartSvgs([lib.criticalDifferenceChart(data).spec]);
  outputs.stage(file, '--cd-diagram', await chartFile(lib, svg, extname(file).toLowerCase() === '.png' ? 'png' : 'svg'));
}

/**
 * The task's replicator of each report's per-image statistics (`TaskDefinition.replicate`): compareReports replays
 * them to check the stored numbers, and the bootstrap draws from them. The bootstrap needs the task's plugin
 * installed; a report without statistics is left to compareReports' own error.
 */
async function replicatorsOf(session: CliSession, task: string, inputs: readonly { file: string; report: Report }[], required: boolean): Promise<(Replicator | undefined)[] | undefined> {
  if (!inputs.some((i) => perImageStatisticsOf(i.report) !== undefined)) return undefined;
  // without --bootstrap the replicators only check the stored numbers: done when the task's plugin is installed
  if (!required && !session.registry.hasTask(task)) return undefined;
  const entry = await session.registry.loadTask(task);
  const hook = entry.task.replicate;
  if (!hook && !required) return undefined;
  if (!hook) throw usageError(`task ${task} provides no replicator of its per-image statistics (no \`replicate\` hook): it cannot be bootstrapped`, 'usage/no-per-image', 'leave out --bootstrap');
  return Promise.all(inputs.map(async (i) => {
    const stats = perImageStatisticsOf(i.report);
    if (!stats) return undefined;
    try {
      return await hook.call(entry.task, stats);
    } catch (e) {
      if (e instanceof DevkitError && e.kind === 'input' && e.problems[0]?.file === undefined) throw inputError({ ...e.problems[0], file: i.file });
      throw e;
    }
  }));
}

export async function compare(session: CliSession, task: string, files: string[], opts: Record<string, unknown>, formatExplicit: boolean): Promise<number> {
  session.quiet = opts.quiet === true;
  const out = typeof opts.out === 'string' ? resolve(session.io.cwd, opts.out) : undefined;
  const format = outputFormat(out, formatExplicit ? ((opts.format as string | undefined) ?? 'table') : undefined);
  const diagram = typeof opts.cdDiagram === 'string' ? resolve(session.io.cwd, opts.cdDiagram) : undefined;
  if (out !== undefined) checkOutputTarget(out, '--out');
  if (diagram !== undefined) checkDiagramTarget(diagram);
  // the diagram and the page are drawn by report-html, an optional package: say so before any file is read
  if (diagram !== undefined) await loadReportHtml('--cd-diagram');
  if (format === 'html') await loadReportHtml('compare --format html');
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
  const bootstrap = (opts.bootstrap as number | undefined) ?? 0;
  const replicators = await replicatorsOf(session, task, inputs, bootstrap > 0);
  const result = compareReports(inputs, {
    posthoc: opts.posthoc as PosthocMethod | undefined,
    alpha: opts.alpha as number | undefined,
    control: typeof opts.control === 'string' ? opts.control : undefined,
    bootstrap,
    seed: (opts.seed as number | undefined) ?? 0,
    replicators,
  });
  const outputs = new OutputCommit();
  try {
    if (out !== undefined) outputs.stage(out, '--out', await renderComparison(result, format));
    if (diagram !== undefined) await renderDiagram(diagram, result, outputs);
    outputs.commit();
  } catch (e) {
    outputs.abort();
    throw e;
  }
  // with --out, stdout gets what a terminal gets: the table
  session.out(await renderComparison(result, out !== undefined ? 'table' : format));
  if (out !== undefined && !session.quiet) session.io.stderr.write(`comparison written to ${out}\n`);
  return EXIT.ok;
}
