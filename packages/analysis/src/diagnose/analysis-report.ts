import { createReport, usageError, type AnalyzeOptionValues, type Report, type ReportRow } from '@cvdevkit/core';
import { SECTIONS, type DiagnoseOptions, type DiagnoseResult, type Section } from './diagnose.js';
import type { SizeResult } from './size.js';
import { TIDE_ERRORS } from './tide-run.js';

/** `--only`, `--tide-mode`, `--top` as DiagnoseOptions; unknown names are usage errors. */
export function diagnoseOptions(values: AnalyzeOptionValues, supported: readonly Section[] = SECTIONS): DiagnoseOptions {
  const out: DiagnoseOptions = {};
  if (values.only !== undefined && values.only !== '') {
    const names = values.only.split(',').map((s) => s.trim()).filter((s) => s !== '');
    for (const n of names) {
      if (!(SECTIONS as readonly string[]).includes(n)) throw usageError(`unknown analysis "${n}"`, 'usage/unknown-analysis', `use a comma-separated subset of ${SECTIONS.join(',')}`);
      if (!supported.includes(n as Section)) throw usageError(`this task has no "${n}" analysis`, 'usage/unknown-analysis', `it supports ${supported.join(',')}`);
    }
    out.only = names as Section[];
  } else out.only = supported;
  if (values.tideMode !== undefined) {
    if (values.tideMode !== 'official' && values.tideMode !== 'tide') throw usageError(`unknown TIDE mode "${values.tideMode}"`, 'usage/invalid', 'use official or tide');
    out.tideMode = values.tideMode;
  }
  if (values.top !== undefined) {
    if (!Number.isInteger(values.top) || values.top < 1) throw usageError(`--top must be a positive integer, not ${values.top}`, 'usage/invalid');
    out.top = values.top;
  }
  return out;
}

export interface AnalysisReportInit {
  dataset: string;
  task: string;
  metric: string;
  result: DiagnoseResult;
  versions: Record<string, string>;
  timings: Record<string, number>;
  extra?: Record<string, unknown>;
}

const nullIfNaN = (v: number | undefined): number | null => (v === undefined || Number.isNaN(v) ? null : v);

/**
 * The report of `cvdevkit analyze`: the official per-class APs as rows (with the headline of each
 * analysis as extra columns), a summary of the headline numbers, and the whole diagnosis in `analysis`.
 */
export function analysisReport(init: AnalysisReportInit): Report {
  const r = init.result;
  const summary: Record<string, number | null> = { mAP: nullIfNaN(r.official.mAP) };
  if (r.overlap) {
    r.overlap.thresholds.forEach((t, k) => {
      if (t === 0.1 || t === 0.3 || t === 0.7 || t === 0.9) summary[`mAP@${t}`] = nullIfNaN(r.overlap!.mAP[k]);
    });
  }
  if (r.tide) {
    for (const e of TIDE_ERRORS) summary[`tide.${e}`] = nullIfNaN(r.tide.main[e]);
    summary['tide.FalsePos'] = nullIfNaN(r.tide.special.FalsePos);
    summary['tide.FalseNeg'] = nullIfNaN(r.tide.special.FalseNeg);
  }
  if (r.hoiem) {
    for (const [k, v] of Object.entries(r.hoiem.overall.gain)) summary[`hoiem.${k}`] = nullIfNaN(v);
    summary['hoiem.apn'] = nullIfNaN(r.hoiem.overall.apn);
  }
  const rows: ReportRow[] = r.official.perClass.map((c, i) => {
    const row: ReportRow = { key: c.key, ap: nullIfNaN(c.ap), npos: c.npos, ndet: c.ndet, tp: c.tp, fp: c.fp };
    if (r.hoiem) {
      const h = r.hoiem.perClass[i];
      Object.assign(row, { Loc: h.counts.Loc, Sim: h.counts.Sim, Oth: h.counts.Oth, BG: h.counts.BG, apn: nullIfNaN(h.apn) });
    }
    if (r.tide) for (const e of TIDE_ERRORS) row[`d${e}`] = nullIfNaN(r.tide.perClass[i].dAP[e]);
    return row;
  });
  return createReport({
    dataset: init.dataset,
    task: init.task,
    metric: init.metric,
    summary,
    rows,
    versions: init.versions,
    timings: { totalMs: 0, ...init.timings, ...r.timings },
    extra: init.extra,
    analysis: analysisObject(r),
  });
}

function analysisObject(r: DiagnoseResult): Record<string, unknown> {
  const a: Record<string, unknown> = {};
  if (r.overlap) a.overlap = r.overlap;
  if (r.size) a.size = r.size;
  if (r.hoiem) a.hoiem = r.hoiem;
  if (r.tide) a.tide = r.tide;
  if (r.top) a.top = r.top;
  if (r.notes.length > 0) a.notes = r.notes;
  return a;
}

/** The report of a classification size analysis (voc2010/cls). */
export function sizeOnlyReport(init: Omit<AnalysisReportInit, 'result'> & { size: SizeResult; official: { key: string; ap: number; npos: number }[] }): Report {
  const mAP = init.size.mAP[init.size.thresholds.indexOf(0)];
  return createReport({
    dataset: init.dataset,
    task: init.task,
    metric: init.metric,
    summary: { mAP: nullIfNaN(mAP) },
    rows: init.official.map((c) => ({ key: c.key, ap: nullIfNaN(c.ap), npos: c.npos })),
    versions: init.versions,
    timings: { totalMs: 0, ...init.timings },
    extra: init.extra,
    analysis: { size: init.size },
  });
}
