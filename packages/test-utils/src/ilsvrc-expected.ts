// Checks of a report against an official ILSVRC detection expected.json (DET and VID golden files share one shape).
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';

/** `expected.json` numbers: NaN is the string "NaN", ±Inf "Infinity"/"-Infinity". */
export function num(v: unknown): number {
  if (v === 'NaN') return NaN;
  if (v === 'Infinity') return Infinity;
  if (v === '-Infinity') return -Infinity;
  return v as number;
}

/** A curve that may be written as a bare number (one element) or be absent (none). */
export function curve(v: unknown): number[] {
  if (v === undefined || v === null) return [];
  return Array.isArray(v) ? v.map(num) : [num(v)];
}

export function close(actual: number | null | undefined, expected: number, what: string, tol = 1e-9): void {
  const a = actual === null || actual === undefined ? NaN : actual;
  if (Number.isNaN(expected)) {
    expect(Number.isNaN(a), `${what}: expected NaN, got ${a}`).toBe(true);
    return;
  }
  if (!Number.isFinite(expected)) {
    expect(a, what).toBe(expected);
    return;
  }
  expect(Math.abs(a - expected) <= tol, `${what}: expected ${expected}, got ${a}`).toBe(true);
}

export interface ExpectedDet {
  ok: boolean;
  num_classes_evaluated: number;
  ap: unknown[];
  mean_ap: unknown;
  median_ap: unknown;
  per_class: { id: number; wnid: string; ap: unknown; recall?: unknown; precision?: unknown }[];
}

/**
 * The parts of a cvdevkit report (`Report` of @cvdevkit/core) these checks read; declared here so that
 * test-utils does not depend on core (core's own tests may use test-utils).
 */
export interface ReportLike {
  summary: Record<string, unknown>;
  rows: { key: string; id?: unknown; ap?: unknown; [k: string]: unknown }[];
  curves: { recall?: ArrayLike<number>; precision?: ArrayLike<number> }[];
}

export function readExpected(path: string): ExpectedDet {
  return JSON.parse(readFileSync(path, 'utf8')) as ExpectedDet;
}

/** Compares a report with an official expected.json: AP, mean, median, every curve point. */
export function expectReportMatches(report: ReportLike, exp: ExpectedDet, curves = true): void {
  expect(report.rows.length).toBe(exp.num_classes_evaluated);
  close(report.summary.meanAP as number, num(exp.mean_ap), 'meanAP');
  close(report.summary.medianAP as number, num(exp.median_ap), 'medianAP');
  for (let c = 0; c < exp.ap.length; c++) close(report.rows[c].ap as number, num(exp.ap[c]), `ap[${c + 1}]`);
  for (const pc of exp.per_class) {
    const row = report.rows[pc.id - 1];
    expect(row.key).toBe(pc.wnid);
    expect(row.id).toBe(pc.id);
    close(row.ap as number, num(pc.ap), `ap of ${pc.wnid}`);
    if (!curves) continue;
    const cv = report.curves[pc.id - 1];
    const rec = curve(pc.recall);
    const prec = curve(pc.precision);
    expect(cv.recall!.length, `recall length of class ${pc.id}`).toBe(rec.length);
    expect(cv.precision!.length, `precision length of class ${pc.id}`).toBe(prec.length);
    for (let i = 0; i < rec.length; i++) close(cv.recall![i], rec[i], `recall[${i}] of class ${pc.id}`);
    for (let i = 0; i < prec.length; i++) close(cv.precision![i], prec[i], `precision[${i}] of class ${pc.id}`);
  }
}
