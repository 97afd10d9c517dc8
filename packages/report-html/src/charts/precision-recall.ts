/**
 * Charts of ranked-retrieval tasks (VOC cls/det/layout/action, ILSVRC DET/VID): precision–recall curves
 * per class (small multiples) and overlaid, per-class AP as sorted bars, and for many classes the AP
 * distribution with its median and mean.
 */
import { codeUnitOrder, isCurveSeries, type ChartRequest, type Report, type ReportCurve } from '@cvdevkit/core';
import { thinCurveIndices } from '../thin-curve.js';
import { CATEGORY_COLOURS, DASHES, PRIMARY, SECONDARY } from '../theme.js';
import { IN_DATA_ORDER, chartSpec, displayName, finite, fmt, round6, rowsByKey, unitScale, type ReportChart, type VegaLiteSpec } from './common.js';
import { lineBreak, panelGrid } from './panel-grid.js';

/** Most series the overlay tells apart by colour × dash; more are drawn in one colour, named on hover. */
export const MAX_DISTINCT_SERIES = CATEGORY_COLOURS.length * DASHES.length;
/** From this many classes on, the AP distribution is drawn (ILSVRC's 200 and 30 classes). */
export const DISTRIBUTION_MIN_CLASSES = 25;

const RECALL = 'Recall (fraction of positives found, 0–1)';
const PRECISION = 'Precision (fraction of predictions correct, 0–1)';
const AP_AXIS = 'Average precision (0–1)';

type PrRequest = Extract<ChartRequest, { kind: 'pr-curves' }>;

/** What a request draws: the curve field as the precision, the row field named as the AP, the set's label. */
interface PrSet {
  curve: string;
  ap: string;
  /** Appended to the titles (" · IoU 0.5"), empty for the default set. */
  titleSuffix: string;
  /** Appended to the chart ids ("-iou-0-5"), empty for the default set. */
  idSuffix: string;
  bars: boolean;
}

function prSet(request: PrRequest | undefined): PrSet {
  const label = request?.label ?? '';
  const slug = label.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
  return { curve: request?.curve ?? 'precision', ap: request?.ap ?? 'ap', titleSuffix: label ? ` · ${label}` : '', idSuffix: slug ? `-${slug}` : '', bars: request?.bars !== false };
}

interface PrSeries {
  /** The curve's position in `report.curves`. */
  index: number;
  key: string;
  name: string;
  ap: number | undefined;
  label: string;
  /** The recall and the drawn precision of the curve. */
  recall: ArrayLike<number>;
  precision: ArrayLike<number>;
}

/** A fraction in 0–1 (a −1 "no value" is none). */
function fraction(v: unknown): number | undefined {
  const x = finite(v);
  return x !== undefined && x >= 0 && x <= 1 ? x : undefined;
}

function prSeries(report: Report, set: PrSet): PrSeries[] {
  const rows = rowsByKey(report);
  const series = report.curves
    .map((curve: ReportCurve, index) => ({ curve, index }))
    .filter(({ curve: c }) => isCurveSeries(c.recall) && isCurveSeries(c[set.curve]))
    .map(({ curve, index }) => {
      const row = rows.get(curve.key);
      const name = displayName(row, curve.key);
      const ap = fraction(row?.[set.ap]);
      return { index, key: curve.key, name, ap, label: `${name} · AP ${fmt(ap)}`, recall: curve.recall as ArrayLike<number>, precision: curve[set.curve] as ArrayLike<number> };
    });
  // best first: the legend and the small multiples read from the best class to the worst
  return series.sort((a, b) => (b.ap ?? -1) - (a.ap ?? -1) || codeUnitOrder(a.name, b.name));
}

/** Overlay (440 px): 1/1500 of the axis, 0.3 px (0.6 px in a 2× PNG). */
const OVERLAY_TOLERANCE = 1 / 1500;
/** Small multiples (150 px): 1/600 of the axis, 0.25 px, in all (thinned from the overlay's points, see thin-curve.ts). */
const PANEL_TOLERANCE = 1 / 600;

/**
 * The display points of every curve, in curve order: for the overlay and for the small multiples. The
 * panels' points are a coarser thinning of the overlay's (the tolerances add up to `PANEL_TOLERANCE`), so
 * each full curve is walked once.
 */
function curvePoints(series: PrSeries[]): { overlay: VegaLiteSpec[]; panels: VegaLiteSpec[] } {
  const overlay: VegaLiteSpec[] = [];
  const panels: VegaLiteSpec[] = [];
  series.forEach((s, n) => {
    const r = s.recall;
    const p = s.precision;
    const fine = thinCurveIndices(r, p, { tolerance: OVERLAY_TOLERANCE });
    overlay.push(...fine.map((i) => ({ c: s.label, r: round6(r[i]), p: round6(p[i]) })));
    // panel n of the small multiples (panel-grid.ts): one line mark draws every panel's curve, from its break row on
    panels.push(lineBreak('curve', n), ...thinCurveIndices(r, p, { tolerance: PANEL_TOLERANCE - OVERLAY_TOLERANCE, among: fine }).map((i) => ({ kind: 'curve', n, r: round6(r[i]), p: round6(p[i]) })));
  });
  return { overlay, panels };
}

function summaryText(report: Report): string {
  const parts = Object.entries(report.summary)
    .filter(([, v]) => typeof v === 'number')
    .slice(0, 3)
    .map(([k, v]) => `${k} ${fmt(v)}`);
  return parts.join(' · ');
}

function overlay(report: Report, series: PrSeries[], values: VegaLiteSpec[], set: PrSet): ReportChart {
  const distinct = series.length <= MAX_DISTINCT_SERIES;
  const domain = series.map((s) => s.label);
  const encoding: VegaLiteSpec = {
    x: unitScale('r', RECALL),
    y: unitScale('p', PRECISION),
    // the data are in curve order already (Vega's per-point cost dominates large reports)
    order: IN_DATA_ORDER,
    detail: { field: 'c', type: 'nominal' },
    // the hover name of a curve (its class and AP); without it Vega-Lite labels every point with its formatted
    // r and p, a number formatting per point that costs more than drawing the point
    description: { field: 'c', type: 'nominal' },
  };
  if (distinct) {
    // a class's colour and dash follow its place among the report's curves, not its rank: the same class looks the
    // same in every PR chart of the report (a task may declare several sets) while the legend reads best first
    const colours = series.map((s) => CATEGORY_COLOURS[s.index % CATEGORY_COLOURS.length]);
    const dashes = series.map((s) => DASHES[Math.floor(s.index / CATEGORY_COLOURS.length) % DASHES.length]);
    encoding.color = { field: 'c', type: 'nominal', title: 'class (official AP)', scale: { domain, range: colours }, legend: { symbolType: 'stroke', symbolSize: 300 } };
    encoding.strokeDash = { field: 'c', type: 'nominal', title: 'class (official AP)', scale: { domain, range: dashes } };
  }
  const mark: VegaLiteSpec = distinct
    ? { type: 'line', strokeWidth: 1.6, clip: true }
    : { type: 'line', strokeWidth: 1, opacity: 0.35, color: PRIMARY, clip: true };
  const n = series.length;
  return {
    id: `pr-curves${set.idSuffix}`,
    title: `Precision–recall curves, all classes${set.titleSuffix}`,
    description: distinct
      ? 'Every class on one plot, best AP first in the legend; the AP is the official one.'
      : `The ${n} classes on one plot (hover a curve for its class and AP); the small multiples name each.`,
    spec: chartSpec(`Precision–recall curves${set.titleSuffix}`, `${n} ${n === 1 ? 'class' : 'classes'} · ${summaryText(report)}`, {
      width: 440,
      height: 360,
      data: { values },
      mark,
      encoding,
    }),
  };
}

/** A panel per class (panel-grid.ts: one view, not a facet, at half the cost), its curve named by the panel's title. */
function smallMultiples(series: PrSeries[], values: VegaLiteSpec[], set: PrSet): ReportChart {
  const columns = series.length <= 4 ? series.length : series.length <= 12 ? 4 : series.length <= 40 ? 5 : 8;
  const grid = panelGrid(
    series.map((s) => s.label),
    { columns, size: series.length > 40 ? 110 : 150, xTitle: 'Recall (0–1)', yTitle: 'Precision (0–1)' },
  );
  return {
    id: `pr-curves-per-class${set.idSuffix}`,
    title: `Precision–recall curve per class${set.titleSuffix}`,
    description: 'One panel per class, sorted by official AP (best first); the AP is in each panel title.',
    spec: chartSpec(`Precision–recall curve per class${set.titleSuffix}`, 'sorted by official AP, best first', {
      ...grid.body,
      data: { values: [...grid.values, ...values] },
      layer: [
        ...grid.layers,
        {
          transform: [{ filter: "datum.kind === 'curve'" }],
          mark: { type: 'line', color: PRIMARY, strokeWidth: 1.4, aria: false, ...grid.line },
          encoding: { x: grid.x, y: grid.y, order: IN_DATA_ORDER },
        },
      ],
    }),
  };
}

function apBars(report: Report, set: PrSet): ReportChart {
  const rows = rowsByKey(report);
  const entries = report.rows
    .map((r) => ({ name: displayName(rows.get(r.key), r.key), key: r.key, ap: fraction(r[set.ap]) }))
    .filter((e): e is { name: string; key: string; ap: number } => e.ap !== undefined)
    .sort((a, b) => b.ap - a.ap || codeUnitOrder(a.name, b.name));
  const missing = report.rows.length - entries.length;
  const mean = entries.length > 0 ? entries.reduce((s, e) => s + e.ap, 0) / entries.length : undefined;
  const rowHeight = entries.length > 60 ? 11 : 16;
  const layers: VegaLiteSpec[] = [
    {
      data: { values: entries.map((e) => ({ name: e.name, key: e.key, ap: e.ap, label: fmt(e.ap) })) },
      mark: { type: 'bar', color: PRIMARY, height: { band: 0.8 } },
      encoding: {
        y: { field: 'name', type: 'nominal', sort: null, axis: { title: null, labelLimit: 220 } },
        x: unitScale('ap', AP_AXIS, { axis: { title: AP_AXIS, orient: 'top', tickCount: 5, format: '.1f' } }),
        description: { field: 'label', type: 'nominal' },
        tooltip: [{ field: 'name', title: 'class' }, { field: 'key', title: 'key' }, { field: 'ap', title: 'AP', format: '.4f' }],
      },
    },
    {
      data: { values: entries.map((e) => ({ name: e.name, ap: e.ap, label: fmt(e.ap) })) },
      mark: { type: 'text', align: 'left', dx: 3, fontSize: entries.length > 60 ? 8 : 10 },
      encoding: { y: { field: 'name', type: 'nominal', sort: null }, x: { field: 'ap', type: 'quantitative' }, text: { field: 'label' } },
    },
  ];
  if (mean !== undefined)
    layers.push({
      data: { values: [{ m: mean, label: `mean ${fmt(mean)}` }] },
      layer: [
        { mark: { type: 'rule', color: SECONDARY, strokeWidth: 2, strokeDash: [4, 3] }, encoding: { x: { field: 'm', type: 'quantitative' } } },
        { mark: { type: 'text', color: SECONDARY, align: 'left', dx: 4, dy: 4, baseline: 'top', y: 'height', fontWeight: 'bold' }, encoding: { x: { field: 'm', type: 'quantitative' }, text: { field: 'label' } } },
      ],
    });
  return {
    id: `ap-per-class${set.idSuffix}`,
    title: `Average precision per class${set.titleSuffix}`,
    // an analyze report whose task averages several IoU thresholds: the rows' AP is the one at 0.5
    description: `${report.analysis?.overlap?.averaged ? 'AP at IoU 0.5' : 'Official AP'} of each class, sorted; the dashed line is the mean over the ${entries.length} classes with an AP.${missing > 0 ? ` ${missing} ${missing === 1 ? 'class has' : 'classes have'} no AP (no positives) and ${missing === 1 ? 'is' : 'are'} not drawn.` : ''}`,
    spec: chartSpec(`Average precision per class${set.titleSuffix}`, `sorted, best first · ${entries.length} classes`, {
      width: 420,
      height: { step: rowHeight },
      layer: layers,
    }),
  };
}

function apDistribution(report: Report, series: PrSeries[], set: PrSet): ReportChart {
  const aps = series.map((s) => s.ap).filter((v): v is number => v !== undefined);
  const sorted = [...aps].sort((a, b) => a - b);
  const median = finite(report.summary.medianAP) ?? (sorted.length ? (sorted[(sorted.length - 1) >> 1] + sorted[sorted.length >> 1]) / 2 : undefined);
  const mean = finite(report.summary.meanAP) ?? finite(report.summary.mAP) ?? (aps.length ? aps.reduce((s, v) => s + v, 0) / aps.length : undefined);
  const marks = [
    ...(median !== undefined ? [{ v: median, what: `median ${fmt(median)}`, colour: SECONDARY, dy: -30 }] : []),
    ...(mean !== undefined ? [{ v: mean, what: `mean ${fmt(mean)}`, colour: '#D55E00', dy: -16 }] : []),
  ];
  return {
    id: `ap-distribution${set.idSuffix}`,
    title: `Distribution of the per-class AP${set.titleSuffix}`,
    description: 'How many classes reach each AP (bins of 0.05), with the median and mean AP over the evaluated classes (official summary values).',
    spec: chartSpec(`Distribution of the per-class AP${set.titleSuffix}`, `${aps.length} classes · bins of 0.05`, {
      width: 440,
      height: 220,
      layer: [
        {
          data: { values: aps.map((ap) => ({ ap })) },
          mark: { type: 'bar', color: PRIMARY, binSpacing: 1 },
          encoding: {
            x: { field: 'ap', bin: { extent: [0, 1], step: 0.05 }, type: 'quantitative', scale: { domain: [0, 1] }, axis: { title: AP_AXIS, format: '.1f' } },
            y: { aggregate: 'count', type: 'quantitative', axis: { title: 'Number of classes', tickMinStep: 1 } },
          },
        },
        ...marks.map((m) => ({
          data: { values: [m] },
          layer: [
            { mark: { type: 'rule', strokeWidth: 2, strokeDash: [4, 3], color: m.colour }, encoding: { x: { field: 'v', type: 'quantitative' } } },
            // the label on the side of the line with room for it: left of a line in the right third, which would run out of the plot
            { mark: { type: 'text', align: m.v > 2 / 3 ? 'right' : 'left', dx: m.v > 2 / 3 ? -4 : 4, dy: m.dy, y: 0, baseline: 'top', fontWeight: 'bold', color: m.colour }, encoding: { x: { field: 'v', type: 'quantitative' }, text: { field: 'what' } } },
          ],
        })),
      ],
    }),
  };
}

/**
 * The charts of a report with PR curves (`rows[].ap` and `curves[]` with recall and precision); a request may
 * name another curve field, AP field and a label for the set (several sets in one report), or leave out the bars.
 */
export function precisionRecallCharts(report: Report, request?: PrRequest): ReportChart[] {
  const set = prSet(request);
  const series = prSeries(report, set);
  const charts: ReportChart[] = [];
  if (series.length > 0) {
    const points = curvePoints(series);
    charts.push(overlay(report, series, points.overlay, set), smallMultiples(series, points.panels, set));
  }
  if (!set.bars) return charts;
  if (report.rows.some((r) => fraction(r[set.ap]) !== undefined)) charts.push(apBars(report, set));
  if (series.length >= DISTRIBUTION_MIN_CLASSES || (finite(report.summary.medianAP) !== undefined && series.length >= 2)) charts.push(apDistribution(report, series, set));
  return charts;
}
