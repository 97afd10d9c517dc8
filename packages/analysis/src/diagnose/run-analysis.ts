/**
 * `cvdevkit analyze`: the diagnosis of what a task's `analyze` hook prepared (`AnalysisRequest`, core types), and
 * its report. The task reads and matches with its own code; the diagnosis and the report are built here, so a
 * plugin never depends on this package.
 */
import { silentProgress, type AnalysisRequest, type AnalyzeOptionValues, type DetectionAnalysisRequest, type ProgressSink, type Report } from '@cvdevkit/core';
import { mean, median } from '@cvdevkit/metrics';
import { analysisReport, diagnoseOptions, sizeOnlyReport } from './analysis-report.js';
import { diagnose, SECTIONS, type Section } from './diagnose.js';
import { classificationSizeAnalysis } from './size.js';

/** The task's own headline (mean and median of the classes' official APs) in place of the generic `mAP`. */
function headlineAsEval(report: Report, aps: number[], headline: NonNullable<DetectionAnalysisRequest['headline']>): void {
  const { mAP: _generic, ...rest } = report.summary;
  const nullIfNaN = (v: number) => (Number.isNaN(v) ? null : v);
  report.summary = { [headline.mean]: nullIfNaN(mean(aps)), [headline.median]: nullIfNaN(median(aps)), ...rest };
  const fields = report.extra?.fields as Record<string, unknown> | undefined;
  if (fields) {
    delete fields.mAP;
    fields[headline.mean] = { unit: 'AP (0–1)', description: headline.meanDescription };
    fields[headline.median] = { unit: 'AP (0–1)', description: headline.medianDescription };
  }
}

/** The evaluation's names for some summary keys: first, in the given order; their field notes follow them. */
function renameSummary(report: Report, names: Readonly<Record<string, string>>): void {
  const fields = report.extra?.fields as Record<string, unknown> | undefined;
  const summary: Report['summary'] = {};
  for (const [from, to] of Object.entries(names)) {
    if (!(from in report.summary) || to in summary) continue;
    summary[to] = report.summary[from];
    if (fields && fields[from] !== undefined) fields[to] = fields[from];
  }
  for (const [k, v] of Object.entries(report.summary)) if (!(k in names) && !(k in summary)) summary[k] = v;
  for (const from of Object.keys(names)) if (fields && from in fields && !(from in summary)) delete fields[from];
  report.summary = summary;
}

/** The report of an analysis request, with the `--only`, `--tide-mode`, `--top` values. */
export function runAnalysis(request: AnalysisRequest, values: AnalyzeOptionValues, progress: ProgressSink = silentProgress): Report {
  const t0 = performance.now();
  const before = request.timings?.totalMs ?? 0;
  const totalMs = () => before + performance.now() - t0;
  if (request.kind === 'classification-size') {
    diagnoseOptions(values, ['size']);
    const size = classificationSizeAnalysis(request.classes, undefined, request.ap);
    const report = sizeOnlyReport({
      dataset: request.dataset,
      task: request.task,
      metric: request.metric,
      size,
      official: size.perClass.map((c) => ({ key: c.key, ap: c.ap[0], npos: c.npos[0] })),
      versions: request.versions,
      timings: { ...request.timings, totalMs: totalMs() },
      extra: request.extra,
    });
    report.diagnostics.push(...(request.diagnostics ?? []));
    return report;
  }
  const sections = (request.sections ?? SECTIONS) as readonly Section[];
  const diag = { ...diagnoseOptions(values, sections), ...(request.unavailable ? { unavailable: request.unavailable } : {}) };
  progress.begin('analysing detections', 1);
  const result = diagnose(request.input, diag);
  progress.end();
  for (const [section, note] of Object.entries(request.sectionNotes ?? {})) if (result[section as Section] !== undefined) result.notes.push(note);
  const report = analysisReport({
    dataset: request.dataset,
    task: request.task,
    metric: request.metric,
    result,
    versions: request.versions,
    timings: { ...request.timings, totalMs: totalMs() },
    extra: request.extra,
  });
  if (request.headline) headlineAsEval(report, result.official.perClass.map((c) => c.ap), request.headline);
  if (request.summaryNames) renameSummary(report, request.summaryNames);
  if (result.hoiem && request.input.similarGroups.length === 0) {
    const fields = report.extra!.fields as Record<string, { description?: string }>;
    fields.Sim = { description: 'Hoiem false positives: confusion with a similar class; always 0 here: the task defines no similar-class groups' };
  }
  // Readable class names next to the keys, as in the evaluation report (tables and charts use them).
  const names = request.classNames;
  if (names) {
    report.rows.forEach((row, c) => {
      const name = names[c];
      const { key, ...rest } = row;
      if (name) report.rows[c] = { key, name, ...rest };
    });
  }
  report.diagnostics.push(...(request.diagnostics ?? []));
  return report;
}
