import { classRows } from './class-ap.js';
import { hoiemTypes } from './fp-types.js';
import { hoiemAnalysis, type HoiemResult } from './hoiem.js';
import type { DiagnoseInput } from './input.js';
import { classAps, meanAps, setClassAp } from './sampled-ap.js';
import { overlapAnalysis, type OverlapResult } from './overlap.js';
import { prepare, IGNORED, SKIPPED, TP, type Prepared } from './prepare.js';
import { detectionSizeAnalysis, type SizeResult } from './size.js';
import { tideCompatAnalysis, toTideData } from './tide-compat.js';
import { tideOfficialAnalysis } from './tide-official.js';
import type { TideResult } from './tide-result.js';
import { topAnalysis, type TopClass } from './top.js';
import { confusionAnalysis, confusionNotes, type ConfusionResult } from './confusion.js';
import { f1Analysis, type F1Result } from './f1.js';

export const SECTIONS = ['overlap', 'size', 'hoiem', 'tide', 'top', 'confusion', 'f1'] as const;
export type Section = (typeof SECTIONS)[number];
export type TideMode = 'official' | 'tide';

export interface DiagnoseOptions {
  /** Sections to compute (default all; `size` needs image sizes and is left out without them). */
  only?: readonly Section[];
  tideMode?: TideMode;
  /** Entries per list in `top` (default 10). */
  top?: number;
  /** Score threshold of `confusion` (default 0.25): detections with a score ≥ it. */
  conf?: number;
  /** Why a section cannot run on this input (section → reason), for the note when it is left out. */
  unavailable?: Readonly<Record<string, string>>;
}

export interface OfficialSummary {
  mAP: number;
  perClass: { key: string; ap: number; npos: number; ndet: number; tp: number; fp: number; ignored: number }[];
}

export interface DiagnoseResult {
  official: OfficialSummary;
  overlap?: OverlapResult;
  size?: SizeResult;
  hoiem?: HoiemResult;
  tide?: TideResult;
  top?: TopClass[];
  confusion?: ConfusionResult;
  f1?: F1Result;
  timings: Record<string, number>;
  notes: string[];
  /** The boxes' layout when it is not the default corners (`'xywh'`), for whoever draws them. */
  boxFormat?: 'xywh';
}

/** The official per-class APs from the shared matching (equal to the task's evaluation). */
export function officialSummary(p: Prepared): OfficialSummary {
  const aps = classAps(p.input, p.nCls);
  const perClass = p.input.classes.map((key, c) => {
    let tp = 0;
    let fp = 0;
    let ignored = 0;
    for (let r = p.clsStart[c]; r < p.clsStart[c + 1]; r++) {
      const o = p.outcome[p.clsList[r]];
      if (o === TP) tp++;
      else if (o === IGNORED || o === SKIPPED) ignored++;
      else fp++;
    }
    const rows = classRows(p, c, p.outcome);
    const ap = setClassAp(p.input, aps, c, rows.tp, rows.fp, p.npos[c]);
    return { key, ap, npos: p.npos[c], ndet: p.clsStart[c + 1] - p.clsStart[c], tp, fp, ignored };
  });
  return { mAP: meanAps(p.input, aps), perClass };
}

/** Runs the selected analyses over one shared preparation (one ranking, one IoU per detection and object). */
export function diagnose(input: DiagnoseInput, options: DiagnoseOptions = {}): DiagnoseResult {
  const want = new Set<Section>(options.only ?? SECTIONS);
  const timings: Record<string, number> = {};
  const notes: string[] = [];
  let t = performance.now();
  const lap = (name: string): void => {
    const now = performance.now();
    timings[name] = now - t;
    t = now;
  };
  const p = prepare(input);
  lap('prepareMs');
  const result: DiagnoseResult = { official: officialSummary(p), timings, notes, ...(input.boxFormat === 'xywh' ? { boxFormat: 'xywh' as const } : {}) };
  const types = want.has('hoiem') || want.has('top') ? hoiemTypes(p) : undefined;
  if (want.has('overlap')) {
    result.overlap = overlapAnalysis(p);
    lap('overlapMs');
  }
  if (want.has('size')) {
    if (input.imageWidth && input.imageHeight) {
      result.size = detectionSizeAnalysis(p);
      lap('sizeMs');
    } else notes.push(`size: left out (${options.unavailable?.size ?? 'the task gives no image sizes'})`);
  }
  if (want.has('hoiem')) {
    result.hoiem = hoiemAnalysis(p, types);
    lap('hoiemMs');
  }
  if (want.has('tide')) {
    result.tide = options.tideMode === 'tide' ? tideCompatAnalysis(toTideData(input, p), input.classes) : tideOfficialAnalysis(p);
    lap('tideMs');
  }
  if (want.has('top')) {
    result.top = topAnalysis(p, types!, options.top ?? 10);
    lap('topMs');
  }
  if (want.has('confusion')) {
    result.confusion = confusionAnalysis(p, options.conf);
    notes.push(...confusionNotes(result.confusion, p));
    lap('confusionMs');
  }
  if (want.has('f1')) {
    result.f1 = f1Analysis(p);
    if (result.f1.unscoredDetections > 0) notes.push(`f1: ${result.f1.unscoredDetections} detections with a NaN score are left out (no threshold keeps them)`);
    lap('f1Ms');
  }
  return result;
}
