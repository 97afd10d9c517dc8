import { inputError, perImageStatisticsOf, usageError, type PerImageStatistics, type Report } from '@cvdevkit/core';
import { fingerprint } from '@cvdevkit/metrics';

/** One submission's report as `compare` reads it. */
export interface CompareInput {
  name: string;
  file: string;
  report: Report;
}

/** What a comparison is about: taken from the first report, checked against every other. */
export interface CompareSubject {
  task: string;
  metric: string;
  /** Class keys in report order. */
  classes: string[];
  /** The rows' field holding the per-class value. */
  valueField: string;
  /** The summary key. */
  summaryKey: string;
  higherIsBetter: boolean;
  /** The rows are classes, the blocks of the Friedman test (false for CLS-LOC: its rows are 1..5 guesses). */
  rowsAreClasses: boolean;
  /** Ground-truth fingerprint (per-image statistics' hash, else a hash of the rows' class keys and positives). */
  fingerprint: string;
}

interface ValueField {
  field: string;
  higherIsBetter: boolean;
  /** Rows are classes (default true). */
  rowsAreClasses?: boolean;
  /** Used only when some row holds a number in it (CLS-LOC's locError is null without --gt). */
  needsNumber?: boolean;
}

/** Per-row value fields of the tasks, in the order they are looked for in the rows. */
const VALUE_FIELDS: readonly ValueField[] = [
  { field: 'ap', higherIsBetter: true },
  { field: 'odsF', higherIsBetter: true },
  { field: 'iou', higherIsBetter: true },
  // ilsvrc2015/clsloc: rows 1..5 guesses; the localisation error decides (readme §3.4), else the classification error
  { field: 'locError', higherIsBetter: false, rowsAreClasses: false, needsNumber: true },
  { field: 'clsError', higherIsBetter: false, rowsAreClasses: false, needsNumber: true },
];

function valueFieldOf(report: Report): ValueField | undefined {
  return VALUE_FIELDS.find((v) => report.rows.length > 0 && report.rows.every((r) => v.field in r) && (!v.needsNumber || report.rows.some((r) => typeof r[v.field] === 'number')));
}

export function perImageOf(report: Report): PerImageStatistics | undefined {
  return perImageStatisticsOf(report);
}

function subjectOf(input: CompareInput): CompareSubject {
  const { report, file } = input;
  if (report.schema !== 'cvdevkit.report/1') {
    throw inputError({ code: 'input/not-a-report', file, field: 'schema', expected: '"cvdevkit.report/1" (a report of `cvdevkit eval … --format json`)', found: JSON.stringify(report.schema ?? null) });
  }
  const per = perImageOf(report);
  const value: ValueField | undefined = per ? { field: per.valueField, higherIsBetter: per.higherIsBetter, rowsAreClasses: per.rowsAreClasses } : valueFieldOf(report);
  if (!value) {
    throw inputError({
      code: 'input/no-per-class-values',
      file,
      field: 'rows',
      expected: `per-class values (a field ${VALUE_FIELDS.map((v) => v.field).join(' / ')} in every row)`,
      found: report.rows.length === 0 ? 'no rows' : `row fields ${Object.keys(report.rows[0]).join(', ')}`,
      hint: `task ${report.task} reports no per-class metric to rank methods by`,
    });
  }
  const summaryKey = per?.summaryKey ?? (value.rowsAreClasses === false ? value.field : (Object.keys(report.summary)[0] ?? ''));
  const gt = per?.fingerprint ?? fingerprint([report.task, ...report.rows.flatMap((r) => [r.key, String(r.npos ?? '')])]);
  return {
    task: report.task,
    metric: report.metric,
    classes: report.rows.map((r) => r.key),
    valueField: value.field,
    summaryKey,
    higherIsBetter: value.higherIsBetter,
    rowsAreClasses: value.rowsAreClasses !== false,
    fingerprint: gt,
  };
}

/**
 * The subject of the comparison; refuses (input error, naming the file and what differs) reports of
 * different tasks, metrics, class sets or ground truth.
 */
export function checkComparable(inputs: readonly CompareInput[]): CompareSubject {
  if (inputs.length < 2) throw usageError(`compare needs at least two reports, got ${inputs.length}`, 'usage/too-few-reports');
  const first = subjectOf(inputs[0]);
  for (const input of inputs.slice(1)) {
    const s = subjectOf(input);
    const differ = (field: string, expected: string, found: string, hint?: string): never => {
      throw inputError({ code: 'input/not-comparable', file: input.file, field, expected: `${expected} (as ${inputs[0].file})`, found, hint });
    };
    if (s.task !== first.task) differ('task', first.task, s.task, 'compare reports of the same task');
    if (s.metric !== first.metric) differ('metric', first.metric, s.metric, 'evaluate every submission with the same --metric');
    if (s.valueField !== first.valueField) differ('rows', `values in "${first.valueField}"`, `values in "${s.valueField}"`, 'evaluate every submission with the same inputs (e.g. all with or all without --gt)');
    if (s.classes.join('\u0000') !== first.classes.join('\u0000')) {
      const missing = first.classes.filter((c) => !s.classes.includes(c));
      const extra = s.classes.filter((c) => !first.classes.includes(c));
      differ('rows', `the classes ${first.classes.length <= 8 ? first.classes.join(',') : `${first.classes.length} classes`}`, `${s.classes.length} classes${missing.length ? `, missing ${missing.slice(0, 5).join(',')}` : ''}${extra.length ? `, extra ${extra.slice(0, 5).join(',')}` : ''}`, 'evaluate every submission on the same classes');
    }
    if (s.fingerprint !== first.fingerprint) differ('ground truth', `ground truth ${first.fingerprint}`, `ground truth ${s.fingerprint}`, 'the reports were evaluated on different image sets or annotations');
  }
  return first;
}

/** Method names: `--names a,b,…` or the file names without directory and `.json`. */
export function methodNames(files: readonly string[], names?: string): string[] {
  if (names !== undefined) {
    const list = names.split(',').map((s) => s.trim());
    if (list.length !== files.length) throw usageError(`--names lists ${list.length} names for ${files.length} reports`, 'usage/names-count');
    if (list.some((n) => n === '')) throw usageError('--names: empty name', 'usage/names-empty');
    if (new Set(list).size !== list.length) throw usageError(`--names: duplicate names in ${names}`, 'usage/names-duplicate');
    return list;
  }
  const base = files.map((f) => (f.split(/[\\/]/).pop() ?? f).replace(/\.json$/i, ''));
  return base.map((b, i) => (base.indexOf(b) !== i || base.lastIndexOf(b) !== i ? `${b}#${i + 1}` : b));
}
