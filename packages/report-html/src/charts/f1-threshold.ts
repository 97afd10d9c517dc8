/**
 * Precision, recall and F1 against the score threshold of an `analyze` report (`report.analysis.f1`): the overall
 * (micro) curves with every class's F1 faint behind and the best-F1 point marked; and one small panel per class
 * (sorted by best F1) with its best point.
 */
import { codeUnitOrder, type F1Curve, type F1Result, type Report } from '@cvdevkit/core';
import { CATEGORY_COLOURS, MUTED, PRIMARY, SECONDARY } from '../theme.js';
import { IN_DATA_ORDER, chartSpec, displayName, finite, fmt, round6, rowsByKey, type ReportChart, type VegaLiteSpec } from './common.js';
import { lineBreak, panelGrid } from './panel-grid.js';

/** A threshold for a label: 3 significant digits. */
export function fmtThreshold(v: number | null | undefined): string {
  return typeof v === 'number' && Number.isFinite(v) ? String(Number(v.toPrecision(3))) : 'n/a';
}

const value = (v: number | null | undefined) => (finite(v) === undefined ? null : round6(v as number));
const X_TITLE = 'Score threshold (detections with a score ≥ it)';

function overallChart(f: F1Result, nameOf: (key: string) => string): ReportChart {
  const series = ['F1', 'precision', 'recall'];
  const values: VegaLiteSpec[] = [];
  f.thresholds.forEach((t, k) => {
    values.push({ t, s: 'F1', v: value(f.overall.f1[k]) }, { t, s: 'precision', v: value(f.overall.precision[k]) }, { t, s: 'recall', v: value(f.overall.recall[k]) });
  });
  // every class's F1, faint, in data order (one line per class)
  const classes: VegaLiteSpec[] = f.perClass.flatMap((c) => f.thresholds.map((t, k) => ({ t, c: nameOf(c.key), v: value(c.f1[k]) })));
  const b = f.overall.best;
  const best = finite(b.threshold) !== undefined ? [{ t: b.threshold, v: b.f1, label: `best F1 ${fmt(b.f1)} at ${fmtThreshold(b.threshold)} (P ${fmt(b.precision)}, R ${fmt(b.recall)})` }] : [];
  const lo = f.thresholds[0];
  const hi = f.thresholds[f.thresholds.length - 1];
  const x = { field: 't', type: 'quantitative', scale: { domain: [lo, hi], nice: false, zero: false }, axis: { title: X_TITLE } };
  const y = { field: 'v', type: 'quantitative', scale: { domain: [0, 1] }, axis: { title: 'Precision, recall, F1 (0–1)' } };
  const title = 'Precision, recall and F1 against the score threshold';
  const legend = { orient: 'bottom', direction: 'horizontal', symbolType: 'stroke', symbolSize: 300 };
  return {
    id: 'f1-vs-threshold',
    title,
    description:
      "Over all classes at once (micro: every detection and every positive counted once), on the task's official matching at IoU 0.5; the grey lines are each class's F1. " +
      `The dot marks the threshold of the best overall F1${best.length ? ` (${best[0].label})` : ''}.`,
    spec: chartSpec(title, `${best.length ? best[0].label : 'no threshold gives a true positive'} · grey: each class's F1`, {
      width: 440,
      height: 280,
      encoding: { x, y },
      layer: [
        { data: { values: classes }, mark: { type: 'line', strokeWidth: 0.8, opacity: 0.3, color: MUTED, clip: true }, encoding: { detail: { field: 'c', type: 'nominal' }, order: IN_DATA_ORDER, description: { field: 'c', type: 'nominal' } } },
        {
          data: { values },
          mark: { type: 'line', clip: true },
          encoding: {
            order: IN_DATA_ORDER,
            // one legend: colour, dash and width of the same field
            color: { field: 's', type: 'nominal', title: null, sort: series, scale: { domain: series, range: [PRIMARY, SECONDARY, CATEGORY_COLOURS[2]] }, legend },
            strokeDash: { field: 's', type: 'nominal', title: null, sort: series, scale: { domain: series, range: [[1, 0], [6, 3], [2, 2]] }, legend },
            strokeWidth: { field: 's', type: 'nominal', title: null, sort: series, scale: { domain: series, range: [2.6, 1.5, 1.5] }, legend },
            description: { field: 's', type: 'nominal' },
          },
        },
        ...(best.length
          ? [
              { data: { values: best }, mark: { type: 'rule', strokeDash: [3, 3], color: PRIMARY, opacity: 0.7 }, encoding: { x: { field: 't', type: 'quantitative' }, y: null } },
              { data: { values: best }, mark: { type: 'point', filled: true, size: 70, color: PRIMARY }, encoding: { description: { field: 'label', type: 'nominal' } } },
            ]
          : []),
      ],
    }),
  };
}

function perClassChart(f: F1Result, nameOf: (key: string) => string): ReportChart {
  const order = f.perClass
    .map((c, i) => ({ c, i, name: nameOf(c.key) }))
    .sort((a, b) => (finite(b.c.best.f1) ?? -1) - (finite(a.c.best.f1) ?? -1) || codeUnitOrder(a.name, b.name));
  const lo = f.thresholds[0];
  const hi = f.thresholds[f.thresholds.length - 1];
  const span = hi - lo;
  const r = (t: number) => (span > 0 ? (t - lo) / span : 0.5);
  const f1Text = (v: number) => (finite(v) === undefined ? 'n/a' : v.toFixed(2));
  const title = (c: F1Curve, name: string) => (finite(c.best.threshold) !== undefined ? `${name} ${f1Text(c.best.f1)} @ ${fmtThreshold(c.best.threshold)}` : `${name} ${f1Text(c.best.f1)}`);
  const columns = order.length <= 4 ? order.length : order.length <= 12 ? 4 : order.length <= 40 ? 5 : 8;
  const grid = panelGrid(
    order.map((o) => title(o.c, o.name)),
    { columns, size: order.length > 40 ? 110 : 150, xTitle: 'Score threshold', yTitle: 'F1 (0–1)', xTickLabels: [lo, (lo + hi) / 2, hi].map((v) => String(Number(v.toPrecision(2)))) },
  );
  const curves: VegaLiteSpec[] = [];
  const points: VegaLiteSpec[] = [];
  order.forEach(({ c }, n) => {
    curves.push(lineBreak('curve', n), ...f.thresholds.map((t, k) => ({ kind: 'curve', n, r: round6(r(t)), p: value(c.f1[k]) })));
    if (finite(c.best.threshold) !== undefined) points.push({ kind: 'best', n, r: round6(r(c.best.threshold)), p: round6(c.best.f1) });
  });
  return {
    id: 'f1-vs-threshold-per-class',
    title: 'F1 against the score threshold per class',
    description: "One panel per class, sorted by its best F1 (best first); the dot is the class's best F1, its value and threshold in the panel's title (F1 @ threshold). A class without positives has no F1.",
    spec: chartSpec('F1 against the score threshold per class', `panel title: class, best F1 @ its threshold · sorted by best F1`, {
      ...grid.body,
      data: { values: [...grid.values, ...curves, ...points] },
      layer: [
        ...grid.layers,
        { transform: [{ filter: "datum.kind === 'curve'" }], mark: { type: 'line', color: PRIMARY, strokeWidth: 1.4, aria: false, ...grid.line }, encoding: { x: grid.x, y: grid.y, order: IN_DATA_ORDER } },
        { transform: [{ filter: "datum.kind === 'best'" }], mark: { type: 'point', filled: true, size: 30, color: SECONDARY, opacity: 1, aria: false }, encoding: { x: grid.x, y: grid.y } },
      ],
    }),
  };
}

/** The f1 section's charts (none without detections). */
export function f1Charts(report: Report, f: F1Result): ReportChart[] {
  if (f.thresholds.length === 0 || f.perClass.length === 0) return [];
  const rows = rowsByKey(report);
  const nameOf = (key: string) => displayName(rows.get(key), key);
  return [overallChart(f, nameOf), perClassChart(f, nameOf)];
}
