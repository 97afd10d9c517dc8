import { createReport, usageError, type AnalyzeOptionValues, type FieldInfo, type Report, type ReportRow } from '@cvdevkit/core';
import { CONFUSION_FIELDS, confusionColumns, confusionSummary } from './confusion-report.js';
import { SECTIONS, type DiagnoseOptions, type DiagnoseResult, type Section } from './diagnose.js';
import { F1_FIELDS, f1Columns, f1Summary } from './f1-report.js';
import type { SizeResult } from './size.js';
import { TIDE_ERRORS } from './tide-run.js';

/** `--only`, `--tide-mode`, `--top`, `--conf` as DiagnoseOptions; unknown names are usage errors. */
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
  if (values.conf !== undefined) {
    if (typeof values.conf !== 'number' || !Number.isFinite(values.conf)) throw usageError(`--conf must be a finite number (a detection score), not ${values.conf}`, 'usage/invalid');
    out.conf = values.conf;
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

/** The unit of TIDE's numbers in each mode: `official` gives AP fractions, `tide` AP points as TIDE v1.0.1 prints them. */
export function tideUnit(units: 'fraction' | 'percent'): string {
  return units === 'percent' ? 'AP points (×100, as TIDE prints them)' : 'AP (0–1)';
}

const TIDE_MEANING: Record<string, string> = {
  Cls: 'classification errors (right place, wrong class)',
  Loc: 'localisation errors (right class, IoU between the background and foreground thresholds)',
  Both: 'both wrong class and poor localisation',
  Dupe: 'duplicate detections of an already matched object',
  Bkg: 'background detections (no object near)',
  Miss: 'missed objects',
  FalsePos: 'all false positives',
  FalseNeg: 'all false negatives',
};

/** Units and meanings of the analysis report's summary keys and row fields (`extra.fields`). */
function analysisFields(r: DiagnoseResult): Record<string, FieldInfo> {
  const f: Record<string, FieldInfo> = {
    mAP: { unit: 'AP (0–1)' },
    ap: { unit: 'AP (0–1)', description: 'average precision of the class, by the official code' },
    npos: { description: 'ground-truth objects that count (not difficult)' },
    ndet: { description: 'detections of the class' },
    tp: { description: 'true positives' },
    fp: { description: 'false positives' },
  };
  if (r.hoiem) {
    f.apn = { unit: 'AP (0–1)', description: 'normalised AP (Hoiem et al.): AP as if every class had the same share of positives' };
    f.Loc = { description: 'Hoiem false positives: localisation errors (right class, poor overlap or duplicate)' };
    f.Sim = { description: 'Hoiem false positives: confusion with a similar class' };
    f.Oth = { description: 'Hoiem false positives: confusion with another (dissimilar) class' };
    f.BG = { description: 'Hoiem false positives: background' };
    f['hoiem.apn'] = { unit: 'AP (0–1)', description: 'normalised AP over the classes' };
    for (const k of Object.keys(r.hoiem.overall.gain)) f[`hoiem.${k}`] = { unit: 'AP (0–1)', description: 'Hoiem: mAP gained by removing or fixing these false positives' };
  }
  if (r.overlap?.averaged) {
    const t = r.overlap.averaged.thresholds;
    f[averagedKey(t)] = { unit: 'AP (0–1)', description: `AP averaged over the ${t.length} IoU thresholds of the task's evaluation, as it averages them` };
    f[averagedKey(t).replace('mAP', 'ap')] = { unit: 'AP (0–1)', description: `the class's AP averaged over the ${t.length} IoU thresholds of the task's evaluation` };
    f.mAP = { unit: 'AP (0–1)', description: 'mean AP at IoU 0.5 on the official matching' };
    f.ap = { unit: 'AP (0–1)', description: "the class's AP at IoU 0.5, by the official code" };
    for (const k of [0.1, 0.3, 0.7, 0.9]) f[`mAP@${k}`] = { unit: 'AP (0–1)', description: `mean AP at IoU ${k} on the official matching` };
    f['mAP@0.75'] = { unit: 'AP (0–1)', description: 'AP at IoU 0.75 on the official matching' };
  }
  if (r.size?.areaRanges) {
    for (const [k, name] of r.size.areaRanges.names.entries()) {
      f[`mAP[area=${name}]`] = { unit: 'AP (0–1)', description: `AP of the objects of area ${r.size.areaRanges.lo[k]}–${r.size.areaRanges.hi[k]} (the evaluation's area range "${name}"), averaged over its IoU thresholds` };
    }
  }
  if (r.tide) {
    const unit = tideUnit(r.tide.units);
    for (const e of [...TIDE_ERRORS, 'FalsePos', 'FalseNeg']) f[`tide.${e}`] = { unit, description: `TIDE: AP gained by fixing the ${TIDE_MEANING[e]}` };
    for (const e of TIDE_ERRORS) f[`d${e}`] = { unit, description: `TIDE: AP of the class gained by fixing its ${TIDE_MEANING[e]}` };
  }
  if (r.confusion) Object.assign(f, CONFUSION_FIELDS);
  if (r.f1) Object.assign(f, F1_FIELDS);
  return f;
}

/** The summary key of the AP averaged over the task's thresholds: `mAP@[0.5:0.95]`. */
export function averagedKey(thresholds: readonly number[]): string {
  const f = (t: number) => String(Number(t.toFixed(2)));
  return `mAP@[${f(thresholds[0])}:${f(thresholds[thresholds.length - 1])}]`;
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
    const avg = r.overlap.averaged;
    if (avg) summary[averagedKey(avg.thresholds)] = nullIfNaN(avg.mAP);
    r.overlap.thresholds.forEach((t, k) => {
      if (t === 0.1 || t === 0.3 || t === 0.7 || t === 0.9 || (avg && t === 0.75)) summary[`mAP@${t}`] = nullIfNaN(r.overlap!.mAP[k]);
    });
  }
  const ranges = r.size?.areaRanges;
  if (ranges) ranges.names.forEach((name, k) => (summary[`mAP[area=${name}]`] = nullIfNaN(ranges.mAP[k])));
  if (r.tide) {
    for (const e of TIDE_ERRORS) summary[`tide.${e}`] = nullIfNaN(r.tide.main[e]);
    summary['tide.FalsePos'] = nullIfNaN(r.tide.special.FalsePos);
    summary['tide.FalseNeg'] = nullIfNaN(r.tide.special.FalseNeg);
  }
  if (r.hoiem) {
    for (const [k, v] of Object.entries(r.hoiem.overall.gain)) summary[`hoiem.${k}`] = nullIfNaN(v);
    summary['hoiem.apn'] = nullIfNaN(r.hoiem.overall.apn);
  }
  if (r.confusion) Object.assign(summary, confusionSummary(r.confusion));
  if (r.f1) Object.assign(summary, f1Summary(r.f1));
  const rows: ReportRow[] = r.official.perClass.map((c, i) => {
    const row: ReportRow = { key: c.key, ap: nullIfNaN(c.ap) };
    const avg = r.overlap?.averaged;
    if (avg) row[averagedKey(avg.thresholds).replace('mAP', 'ap')] = nullIfNaN(avg.perClass[i]);
    Object.assign(row, { npos: c.npos, ndet: c.ndet, tp: c.tp, fp: c.fp });
    if (r.hoiem) {
      const h = r.hoiem.perClass[i];
      Object.assign(row, { Loc: h.counts.Loc, Sim: h.counts.Sim, Oth: h.counts.Oth, BG: h.counts.BG, apn: nullIfNaN(h.apn) });
    }
    if (r.tide) for (const e of TIDE_ERRORS) row[`d${e}`] = nullIfNaN(r.tide.perClass[i].dAP[e]);
    if (r.confusion) confusionColumns(row, r.confusion, i);
    if (r.f1) f1Columns(row, r.f1, i);
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
    extra: { ...init.extra, fields: analysisFields(r) },
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
  if (r.confusion) a.confusion = r.confusion;
  if (r.f1) a.f1 = r.f1;
  if (r.boxFormat) a.boxFormat = r.boxFormat;
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
