/**
 * Text as people see it: a name longer than `DISPLAY_TEXT_MAX` characters (a hostile synsets list can hold
 * megabyte names) is cut to its first 199 characters and an ellipsis in tables, pages and charts. The
 * JSON report keeps the full text.
 */
import type { Report } from './report.js';

export const DISPLAY_TEXT_MAX = 200;

/** `s`, or its first `max − 1` characters and `…` (a surrogate pair is never split). */
export function displayText(s: string, max = DISPLAY_TEXT_MAX): string {
  if (s.length <= max) return s;
  let cut = max - 1;
  const c = s.charCodeAt(cut - 1);
  if (c >= 0xd800 && c <= 0xdbff) cut--;
  return `${s.slice(0, cut)}…`;
}

function isPlain(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object') return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

/** A copy of `v` with every long string cut; typed arrays and other objects are shared, not copied. */
function cutStrings(v: unknown): unknown {
  if (typeof v === 'string') return displayText(v);
  if (Array.isArray(v)) return v.some((x) => typeof x === 'string' || Array.isArray(x) || isPlain(x)) ? v.map(cutStrings) : v;
  if (isPlain(v)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[displayText(k)] = cutStrings(x);
    return out;
  }
  return v;
}

/** The report as displayed: the strings of its rows, curves, matrices and analysis cut to `DISPLAY_TEXT_MAX`. */
export function displayReport<R extends Report>(report: R): R {
  return {
    ...report,
    rows: cutStrings(report.rows) as Report['rows'],
    curves: cutStrings(report.curves) as Report['curves'],
    matrices: cutStrings(report.matrices) as Report['matrices'],
    ...(report.analysis !== undefined ? { analysis: cutStrings(report.analysis) as Report['analysis'] } : {}),
  };
}
