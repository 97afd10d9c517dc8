/**
 * A report read back (`compare`, and anything else that takes report JSON people send each other) is
 * checked before any number of it is used: every field's type and range, and — where the report holds
 * per-image statistics — its per-class values and summary recomputed from them and compared with the
 * stored ones. A report whose stored numbers differ from what its own statistics give is refused (an
 * edited report is never ranked). Every refusal is an input error (exit 2) naming the file and the field.
 */
import { inputError, PER_IMAGE_SCHEMA, type PerImageStatistics, type Replicator, type Report } from '@cvdevkit/core';
import { summarize } from './replicate.js';

/** The per-class value fields a report row may hold: all are fractions in [0, 1] (AP, F, IoU, error rates). */
const FRACTION_FIELDS = ['ap', 'odsF', 'oisF', 'iou', 'locError', 'clsError'];
/** Count fields of a row: non-negative integers. */
const COUNT_FIELDS = ['npos', 'ndet'];
const SUMMARY_RULES = ['mean', 'mean-numeric', 'last'];
/** More test images than any benchmark has: a larger count is an edited report. */
const MAX_IMAGES = 10_000_000;
/** How far a stored value may be from its recomputation (both are float64 of the same formula). */
const TOLERANCE = 1e-9;

/** Reports already checked (the CLI checks on reading, `compareReports` again for library callers). */
const validated = new WeakSet<object>();

const describe = (v: unknown): string => {
  if (v === null) return 'null';
  if (Array.isArray(v)) return `an array of ${v.length}`;
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  return String(v);
};

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function bad(file: string, field: string, expected: string, found: unknown, code: 'input/report-field' | 'input/not-a-report' = 'input/report-field'): never {
  throw inputError({ code, file, field, expected, found: typeof found === 'string' && found.startsWith('\u0000') ? found.slice(1) : describe(found) });
}

/** A number in [0, 1] or null (NaN is written as null; a report built in memory may hold NaN itself). */
function checkFraction(v: unknown, file: string, field: string): void {
  if (v === null || Number.isNaN(v)) return;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 1) bad(file, field, 'a number in [0, 1] or null', v);
}

/**
 * Checks a parsed report JSON value and returns it as a Report; throws an input error naming the file and
 * the first field that is wrong.
 */
export function validateReport(value: unknown, file: string): Report {
  if (isObject(value) && validated.has(value)) return value as unknown as Report;
  if (!isObject(value)) bad(file, '(top level)', 'a JSON object (a report of `cvdevkit eval … --format json`)', value, 'input/not-a-report');
  if (value.schema !== 'cvdevkit.report/1') bad(file, 'schema', '"cvdevkit.report/1" (a report of `cvdevkit eval … --format json`)', value.schema ?? null, 'input/not-a-report');
  for (const k of ['task', 'metric']) if (typeof value[k] !== 'string' || value[k] === '') bad(file, k, 'a non-empty string', value[k] ?? null);
  const summary = value.summary;
  if (!isObject(summary)) bad(file, 'summary', 'an object of summary values', summary ?? null);
  for (const [k, v] of Object.entries(summary)) {
    if (v !== null && (typeof v !== 'number' || !(Number.isFinite(v) || Number.isNaN(v)))) bad(file, `summary.${k}`, 'a finite number or null', v);
  }
  const rows = value.rows;
  if (!Array.isArray(rows)) bad(file, 'rows', 'an array of rows', rows ?? null);
  const keys = new Set<string>();
  rows.forEach((row: unknown, i: number) => {
    const at = `rows[${i}]`;
    if (!isObject(row)) bad(file, at, 'an object', row);
    if (typeof row.key !== 'string') bad(file, `${at}.key`, 'a string', row.key ?? null);
    if (keys.has(row.key)) bad(file, `${at}.key`, 'a key not used by another row', row.key);
    keys.add(row.key);
    for (const f of FRACTION_FIELDS) if (f in row) checkFraction(row[f], file, `${at}.${f}`);
    for (const f of COUNT_FIELDS) {
      const v = row[f];
      if (f in row && v !== null && !(typeof v === 'number' && Number.isSafeInteger(v) && v >= 0)) bad(file, `${at}.${f}`, 'a count (an integer ≥ 0)', v);
    }
  });
  // summary values that are means of the rows' fractions are fractions too
  for (const [k, v] of Object.entries(summary)) if (/^(m|mean|median)?AP$|^(mean|median)?AP|mIoU|^ODS|^OIS|Error$/i.test(k)) checkFraction(v, file, `summary.${k}`);
  if (value.extra !== undefined && value.extra !== null && !isObject(value.extra)) bad(file, 'extra', 'an object', value.extra);
  const report = value as unknown as Report;
  const per = (value.extra as Record<string, unknown> | undefined)?.perImage;
  if (per !== undefined) checkPerImage(per, file);
  validated.add(value);
  return report;
}

const P = 'extra.perImage';

function checkPerImage(per: unknown, file: string): void {
  if (!isObject(per)) bad(file, P, 'an object of per-image statistics', per);
  if (per.schema !== PER_IMAGE_SCHEMA) bad(file, `${P}.schema`, JSON.stringify(PER_IMAGE_SCHEMA), per.schema ?? null);
  // the layout of each kind is its task's: the task's replicator checks it (replayPerImage)
  if (typeof per.kind !== 'string' || per.kind === '') bad(file, `${P}.kind`, 'the name of a per-image layout', per.kind ?? null);
  if (!(typeof per.images === 'number' && Number.isSafeInteger(per.images) && per.images >= 1 && per.images <= MAX_IMAGES)) bad(file, `${P}.images`, `an image count in 1..${MAX_IMAGES}`, per.images ?? null);
  if (typeof per.summary !== 'string' || !SUMMARY_RULES.includes(per.summary)) bad(file, `${P}.summary`, `one of ${SUMMARY_RULES.join(', ')}`, per.summary ?? null);
  for (const k of ['summaryKey', 'valueField', 'fingerprint']) if (typeof per[k] !== 'string') bad(file, `${P}.${k}`, 'a string', per[k] ?? null);
  if (typeof per.higherIsBetter !== 'boolean') bad(file, `${P}.higherIsBetter`, 'true or false', per.higherIsBetter ?? null);
}

/**
 * A report's stored per-class values and summary against the ones its per-image statistics give, replayed by
 * the task's replicator on the identity (every image once): a report whose stored numbers differ is refused
 * (an edited report is never ranked). The replicator comes from the report's task (`TaskDefinition.replicate`),
 * which also checks the layout of its own kind.
 */
export function replayPerImage(report: Report, file: string, replicator: Replicator): void {
  const stats = report.extra?.perImage as PerImageStatistics;
  let values: Float64Array;
  let classes: string[];
  let own: number | void = undefined;
  try {
    const rep = replicator;
    if (rep.images !== stats.images) bad(file, `${P}.images`, `${rep.images} (the images its arrays hold)`, stats.images);
    classes = rep.classes;
    values = new Float64Array(classes.length);
    own = rep.evaluate(new Uint32Array(stats.images).fill(1), values);
  } catch (e) {
    if ((e as { kind?: string }).kind === 'input') throw e;
    bad(file, P, 'per-image statistics that unpack and replay', `\u0000${(e as Error).message ?? String(e)}`);
  }
  const rows = report.rows;
  if (!Array.isArray(classes) || classes.length !== rows.length || classes.some((c, i) => c !== rows[i].key)) {
    bad(file, `${P}.classes`, `the ${rows.length} row keys in order`, `\u0000${Array.isArray(classes) ? `${classes.length} classes` : describe(classes)}`);
  }
  // stored vs recomputed: the per-class values and the summary
  const field = stats.valueField;
  for (let c = 0; c < rows.length; c++) {
    const stored = rows[c][field];
    if (!sameValue(stored, values[c])) {
      bad(file, `rows[${c}].${field}`, `${show(values[c])} (recomputed from ${P})`, `\u0000${show(stored)} stored`);
    }
  }
  const s = typeof own === 'number' ? own : summarize(values, stats.summary);
  const stored = report.summary[stats.summaryKey];
  if (!sameValue(stored, s)) bad(file, `summary.${stats.summaryKey}`, `${show(s)} (recomputed from ${P})`, `\u0000${show(stored)} stored`);
}

function show(v: unknown): string {
  return typeof v === 'number' ? (Number.isNaN(v) ? 'null' : String(v)) : describe(v ?? null);
}

function sameValue(stored: unknown, recomputed: number): boolean {
  if (stored === null || stored === undefined) return Number.isNaN(recomputed);
  if (typeof stored !== 'number') return false;
  if (Number.isNaN(stored)) return Number.isNaN(recomputed);
  if (Number.isNaN(recomputed)) return false;
  return Math.abs(stored - recomputed) <= TOLERANCE;
}
