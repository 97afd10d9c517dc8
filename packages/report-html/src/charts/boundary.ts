/**
 * Charts of the chart kind `f-threshold` (boundary detection scored over thresholds, the BSDS protocol):
 * precision against recall over the thresholds with iso-F contours, the ODS point on the curve and the
 * OIS point, for the mean (`f-threshold-mean`) and per class (`f-threshold-per-class`), and the classes
 * sorted by F-ODS with the challenge score (`f-ods-per-class`). Ids and titles say what is drawn, not for
 * which dataset.
 */
import { codeUnitOrder, isCurveSeries, type Report, type ReportCurve } from '@cvdevkit/core';
import { measureTextWidth } from '../text-width.js';
import { thinCurveIndices } from '../thin-curve.js';
import { MUTED, PRIMARY, SECONDARY } from '../theme.js';
import { IN_DATA_ORDER, chartSpec, displayName, finite, fmt, round6, unitScale, type ReportChart, type VegaLiteSpec } from './common.js';
import { lineBreak, panelGrid } from './panel-grid.js';

const RECALL = 'Recall (fraction of boundary pixels found, 0–1)';
const PRECISION = 'Precision (fraction of predicted pixels correct, 0–1)';
const ODS = 'ODS: best fixed threshold';
const OIS = 'OIS: best threshold per image';
const ODS_COLOUR = '#D55E00';
/** The iso-F labels' offset right of the mean plot's frame, in pixels (outside the plot: see `meanLayers`). */
export const ISO_LABEL_DX = 4;
const OIS_COLOUR = '#009E73';

/** Points of the iso-F contour F = f (precision as a function of recall, from P = 1 down to R = 1). */
export function isoFContour(f: number, points = 24): Array<[number, number]> {
  const r0 = f / (2 - f);
  const out: Array<[number, number]> = [];
  for (let k = 0; k <= points; k++) {
    // denser near the knee (small recall), where the contour bends most
    const t = (k / points) ** 2;
    const r = r0 + (1 - r0) * t;
    out.push([round6(r), round6((f * r) / (2 * r - f))]);
  }
  return out;
}

interface BoundaryClass {
  key: string;
  name: string;
  odsF: number;
  curve: ReportCurve | undefined;
  ods: [number, number] | undefined;
  ois: [number, number] | undefined;
  oisF: number | undefined;
  /** The points of its curve as drawn (see `drawnPoints`): none without a drawable point. */
  points: Array<[number, number]>;
}

function boundaryClasses(report: Report): BoundaryClass[] {
  const curves = new Map(report.curves.map((c) => [c.key, c]));
  return report.rows
    .map((row) => {
      const odsR = finite(row.odsRecall);
      const odsP = finite(row.odsPrecision);
      const oisR = finite(row.oisRecall);
      const oisP = finite(row.oisPrecision);
      return {
        key: row.key,
        name: displayName(row, row.key),
        odsF: finite(row.odsF) ?? 0,
        oisF: finite(row.oisF),
        curve: curves.get(row.key),
        points: drawnPoints(curves.get(row.key)),
        ods: odsR !== undefined && odsP !== undefined ? ([odsR, odsP] as [number, number]) : undefined,
        ois: oisR !== undefined && oisP !== undefined ? ([oisR, oisP] as [number, number]) : undefined,
      };
    })
    .sort((a, b) => b.odsF - a.odsF || codeUnitOrder(a.name, b.name));
}

/**
 * The drawable points of a curve: a threshold at which nothing is predicted and nothing found has
 * R = 0 and P = 0 by the official 0/0 guard; that point is not a precision of 0, so it is not drawn
 * (the curve would otherwise jump to the origin).
 */
function drawable(curve: ReportCurve): { r: Array<number | null>; p: Array<number | null> } {
  const r = curve.recall!;
  const p = curve.precision!;
  const n = Math.min(r.length, p.length);
  const rs: Array<number | null> = new Array<number | null>(n);
  const ps: Array<number | null> = new Array<number | null>(n);
  for (let k = 0; k < n; k++) {
    const origin = r[k] === 0 && p[k] === 0;
    rs[k] = origin ? null : r[k];
    ps[k] = origin ? null : p[k];
  }
  return { r: rs, p: ps };
}

/**
 * A curve's points as drawn: its drawable points thinned (thin-curve.ts) and rounded; none without a curve.
 * Made once per class, for the mean plot's grey lines and the class's panel.
 */
function drawnPoints(curve: ReportCurve | undefined): Array<[number, number]> {
  if (!curve || !isCurveSeries(curve.recall) || !isCurveSeries(curve.precision)) return [];
  const { r, p } = drawable(curve);
  return thinCurveIndices(r, p).map((k) => [round6(r[k] as number), round6(p[k] as number)]);
}

/** Whether a class has a drawable point (thinning keeps the first and last finite points, so any at all). */
function hasDrawablePoint(c: BoundaryClass): boolean {
  return c.points.length > 0;
}

/** Whether a class has an ODS point to draw (F-ODS above 0: a point off the origin). */
function hasOdsPoint(c: BoundaryClass): boolean {
  return c.ods !== undefined && c.odsF > 0;
}

/**
 * Why a class's panel draws no line (one short line, to fit a panel under its F = 0.2 contour; the caption
 * says it in full), or undefined when it has a line.
 */
export function noCurveNote(c: { points: Array<[number, number]>; curve: ReportCurve | undefined }): string | undefined {
  const distinct = new Set(c.points.map(([r, p]) => `${r},${p}`)).size;
  if (distinct >= 2) return undefined;
  if (distinct === 1) return 'one point at all thresholds';
  return c.curve === undefined ? 'no curve in the report' : 'no drawable curve';
}

const NOTE_FONT_SIZE = 9;

/**
 * Where a panel's note starts (`r`, its left end; `p`, its baseline): along the panel's bottom, under the
 * F = 0.2 contour (P < 0.11 there), at the left, or at the right when the class's point is low on the left.
 */
function notePlace(text: string, point: [number, number] | undefined, size: number): { r: number; p: number } {
  const width = measureTextWidth(text, NOTE_FONT_SIZE) / size;
  const [r, p] = point ?? [1, 1];
  const right = p < 0.2 && r < 0.04 + width + 0.05;
  return { r: right ? 0.93 - width : 0.04, p: 0.025 };
}

function curveValues(points: Array<[number, number]>, extra: VegaLiteSpec): VegaLiteSpec[] {
  return points.map(([r, p], i) => ({ ...extra, r, p, i }));
}

/** The mean plot's iso-F contours, each labelled at its end on the right edge (`end: 1`). */
function isoValues(levels: number[]): VegaLiteSpec[] {
  return levels.flatMap((f) => isoFContour(f).map(([r, p], i, all) => ({ kind: 'iso', iso: `F=${f}`, r, p, i, ...(i === all.length - 1 ? { end: 1 } : {}) })));
}

const pointLegend = { field: 'what', type: 'nominal', title: null, scale: { domain: [ODS, OIS], range: [ODS_COLOUR, OIS_COLOUR] } };
const pointShape = { field: 'what', type: 'nominal', title: null, scale: { domain: [ODS, OIS], range: ['circle', 'diamond'] } };

/** The OIS point as a large hollow diamond under the ODS point as a small filled dot: both stay visible where they coincide. */
function pointLayers(xy: VegaLiteSpec): VegaLiteSpec[] {
  return [
    {
      transform: [{ filter: `datum.kind === 'point' && datum.what === '${OIS}'` }],
      mark: { type: 'point', filled: false, size: 150, opacity: 1, strokeWidth: 2 },
      encoding: { ...xy, color: pointLegend, shape: pointShape, description: { field: 'label', type: 'nominal' } },
    },
    {
      transform: [{ filter: `datum.kind === 'point' && datum.what === '${ODS}'` }],
      mark: { type: 'point', filled: true, size: 55, opacity: 1 },
      encoding: { ...xy, color: pointLegend, shape: pointShape, description: { field: 'label', type: 'nominal' } },
    },
  ];
}

/** The marks of the mean plot, under its score contour (see `meanPlot`). */
function meanLayers(): VegaLiteSpec[] {
  const xy = { x: unitScale('r', RECALL), y: unitScale('p', PRECISION) };
  return [
    // the iso-F contours are decorative (labelled at their ends): no label per point (Vega-Lite's default formats r and p of each)
    { transform: [{ filter: "datum.kind === 'iso'" }], mark: { type: 'line', color: MUTED, strokeWidth: 0.8, strokeDash: [3, 3], clip: true, aria: false }, encoding: { ...xy, detail: { field: 'iso' }, order: IN_DATA_ORDER } },
    // labelled outside the plot, right of the frame where each contour leaves it: never over a curve
    {
      transform: [{ filter: "datum.kind === 'iso' && datum.end === 1" }],
      mark: { type: 'text', color: MUTED, align: 'left', baseline: 'middle', dx: ISO_LABEL_DX, fontSize: 9, aria: false },
      encoding: { ...xy, text: { field: 'iso' } },
    },
    // every class's curve in grey, named on hover
    { transform: [{ filter: "datum.kind === 'other'" }], mark: { type: 'line', color: MUTED, strokeWidth: 0.8, opacity: 0.5, clip: true }, encoding: { ...xy, detail: { field: 'c' }, order: IN_DATA_ORDER, description: { field: 'c', type: 'nominal' } } },
    // the one mean curve: no `detail` (a group of one still costs Vega a subflow; measured 9 % of this chart's instructions)
    { transform: [{ filter: "datum.kind === 'curve'" }], mark: { type: 'line', color: PRIMARY, strokeWidth: 2, clip: true }, encoding: { ...xy, order: IN_DATA_ORDER, description: { field: 'c', type: 'nominal' } } },
    ...pointLayers(xy),
  ];
}

/** Whether the report holds a class's curve (some image has its ground truth or a prediction of it). */
function hasCurve(c: BoundaryClass): boolean {
  return c.curve !== undefined && isCurveSeries(c.curve.recall) && isCurveSeries(c.curve.precision);
}

/**
 * The mean precision–recall plot over thresholds (the BSDS plot). The mean curve and the mean ODS and OIS points average the classes that have a curve
 * (ground truth or a prediction in some image; a class with a curve but nothing found or correct counts
 * as R = P = 0, so a sparse submission is not flattered). Classes absent from every image are left out of
 * the drawn mean: counting them as R = P = 0 drew a squiggle at the origin on a small image set (137 of 150
 * ADE20K classes). The reported numbers do not change: the challenge score (mean F-ODS over every class,
 * an absent class counting as 0) is the subtitle and the bold iso-F contour, and the caption says which
 * classes the drawn mean averages.
 */
function meanPlot(report: Report, classes: BoundaryClass[]): ReportChart | undefined {
  const withCurve = classes.filter(hasDrawablePoint);
  const counted = classes.filter(hasCurve);
  if (withCurve.length === 0) return undefined;
  const all = classes.length;
  const m = counted.length;
  const absent = all - m;
  const n = counted[0].curve!.recall!.length;
  const same = counted.every((c) => c.curve!.recall!.length === n && c.curve!.precision!.length === n);
  const score = finite(report.summary.score) ?? finite(report.summary.odsF);
  const values: VegaLiteSpec[] = isoValues([0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]);
  if (score !== undefined && score > 0 && score < 1) values.push(...isoFContour(score, 48).map(([r, p], i) => ({ kind: 'score', iso: `challenge score F = ${fmt(score)}`, r, p, i, ...(i === 0 ? { start: 1 } : {}) })));
  for (const c of withCurve) values.push(...curveValues(c.points, { kind: 'other', c: `${c.name} · F-ODS ${fmt(c.odsF)}` }));
  const meanOf = absent > 0 ? `mean of the ${m} classes with a curve` : `mean of all ${all} classes`;
  if (same) {
    const recall: number[] = new Array(n).fill(0);
    const precision: number[] = new Array(n).fill(0);
    for (const c of counted) {
      const r = c.curve!.recall!;
      const p = c.curve!.precision!;
      for (let i = 0; i < n; i++) {
        recall[i] += Number.isFinite(r[i]) ? r[i] / m : 0;
        precision[i] += Number.isFinite(p[i]) ? p[i] / m : 0;
      }
    }
    values.push(...curveValues(drawnPoints({ key: 'mean', recall, precision }), { kind: 'curve', c: meanOf }));
  }
  const meanOver = (pick: (c: BoundaryClass) => number | undefined) => counted.reduce((sum, c) => sum + (pick(c) ?? 0), 0) / m;
  const odsR = meanOver((c) => c.ods?.[0]);
  const odsP = meanOver((c) => c.ods?.[1]);
  const oisR = meanOver((c) => c.ois?.[0]);
  const oisP = meanOver((c) => c.ois?.[1]);
  values.push({ kind: 'point', what: ODS, r: odsR, p: odsP, label: `${meanOf}, ODS point: R ${fmt(odsR)}, P ${fmt(odsP)}` });
  values.push({ kind: 'point', what: OIS, r: oisR, p: oisP, label: `${meanOf}, OIS point: R ${fmt(oisR)}, P ${fmt(oisP)}` });
  const s = report.summary;
  const layers = meanLayers();
  layers.splice(
    1,
    0,
    { transform: [{ filter: "datum.kind === 'score'" }], mark: { type: 'line', color: SECONDARY, strokeWidth: 1.6, clip: true }, encoding: { x: { field: 'r', type: 'quantitative' }, y: { field: 'p', type: 'quantitative' }, order: IN_DATA_ORDER, description: { field: 'iso', type: 'nominal' } } },
    {
      // above the frame where the contour leaves it at the top (P = 1): outside the plot, over no curve
      transform: [{ filter: "datum.kind === 'score' && datum.start === 1" }],
      mark: { type: 'text', color: SECONDARY, align: 'left', baseline: 'bottom', dx: -2, dy: -3, fontSize: 10, fontWeight: 'bold', aria: false },
      encoding: { x: { field: 'r', type: 'quantitative' }, y: { field: 'p', type: 'quantitative' }, text: { field: 'iso' } },
    },
  );
  return {
    id: 'f-threshold-mean',
    title: 'Precision–recall over thresholds: all classes and their mean',
    description: `Precision against recall over the thresholds: grey lines are the ${withCurve.length} classes with a drawable curve (any boundary pixel found or predicted pixel correct); the blue line and the ODS and OIS points are the ${meanOf}${absent > 0 ? ` (ground truth or a prediction in some image; a class with nothing found or correct counts as R = P = 0). The other ${absent} classes have neither ground truth nor a predicted pixel in any image and are left out of the drawn mean; the challenge score counts them as F-ODS 0, which is why it (the bold contour, mean F-ODS over all ${all} classes) lies below the drawn mean` : `; the bold contour is the challenge score (mean F-ODS over the ${all} classes)`}. Dashed lines are iso-F contours, labelled right of the frame.`,
    spec: chartSpec(absent > 0 ? `Precision–recall over thresholds: mean over the ${m} classes present` : 'Precision–recall over thresholds: mean over classes', `challenge score (mean F-ODS, ${all} classes) ${fmt(s.score ?? s.odsF)} · mean F-OIS ${fmt(s.oisF)} · mean AP ${fmt(s.ap)}`, {
      width: 400,
      height: 400,
      data: { values },
      layer: layers,
    }),
  };
}

/**
 * The precision–recall plot over thresholds of each class with a drawable curve, sorted by F-ODS: small multiples drawn as one view
 * (panel-grid.ts): the iso-F contours, the curve and the ODS and OIS points of the mean plot, placed by the grid.
 */
function perClassPlots(classes: BoundaryClass[]): ReportChart | undefined {
  const shown = classes.filter((c) => hasDrawablePoint(c) || hasOdsPoint(c));
  if (shown.length === 0) return undefined;
  const titles = shown.map((c) => `${c.name} · F-ODS ${fmt(c.odsF)}`);
  const columns = shown.length <= 4 ? shown.length : shown.length <= 20 ? 4 : 6;
  const size = shown.length > 20 ? 120 : 150;
  const grid = panelGrid(titles, { columns, size, xTitle: 'Recall (0–1)', yTitle: 'Precision (0–1)' });
  const values: VegaLiteSpec[] = [...grid.values];
  const contours = [0.2, 0.4, 0.6, 0.8].map((f) => isoFContour(f, 12));
  shown.forEach((c, n) => {
    for (const contour of contours) values.push(lineBreak('iso', n), ...contour.map(([r, p]) => ({ kind: 'iso', n, r, p })));
    values.push(lineBreak('curve', n), ...c.points.map(([r, p]) => ({ kind: 'curve', n, r, p })));
    const note = noCurveNote(c);
    if (note) values.push({ kind: 'note', n, ...notePlace(note, c.ods ?? c.points[0], size), text: note });
    if (c.ods) values.push({ kind: 'point', n, what: ODS, r: c.ods[0], p: c.ods[1], label: `${c.name} ODS: R ${fmt(c.ods[0])}, P ${fmt(c.ods[1])}, F ${fmt(c.odsF)}` });
    if (c.ois) values.push({ kind: 'point', n, what: OIS, r: c.ois[0], p: c.ois[1], label: `${c.name} OIS: R ${fmt(c.ois[0])}, P ${fmt(c.ois[1])}, F ${fmt(c.oisF)}` });
  });
  const xy = { x: grid.x, y: grid.y };
  const layers: VegaLiteSpec[] = [
    ...grid.layers,
    { transform: [{ filter: "datum.kind === 'iso'" }], mark: { type: 'line', color: MUTED, strokeWidth: 0.8, strokeDash: [3, 3], aria: false, ...grid.line }, encoding: { ...xy, order: IN_DATA_ORDER } },
    { transform: [{ filter: "datum.kind === 'curve'" }], mark: { type: 'line', color: PRIMARY, strokeWidth: 2, aria: false, ...grid.line }, encoding: { ...xy, order: IN_DATA_ORDER } },
    ...pointLayers(xy),
    // why a panel has a point and no line (see noCurveNote)
    {
      transform: [{ filter: "datum.kind === 'note'" }],
      mark: { type: 'text', color: MUTED, align: 'left', baseline: 'alphabetic', fontSize: NOTE_FONT_SIZE, fontStyle: 'italic', aria: false },
      encoding: { ...xy, text: { field: 'text' } },
    },
  ];
  const noted = shown.filter((c) => noCurveNote(c) !== undefined).length;
  return {
    id: 'f-threshold-per-class',
    title: 'Precision–recall over thresholds per class',
    description: `One panel per class with a drawable curve, sorted by F-ODS (best first): the curve over the thresholds, the ODS point on it, the OIS point, iso-F contours at 0.2, 0.4, 0.6 and 0.8. Thresholds at which a class has R = P = 0 (nothing found, nothing correct) are not drawn.${noted > 0 ? ` ${noted === 1 ? 'One panel shows its points' : `${noted} panels show their points`} without a line, and says why: every threshold gives the same point (one point at all thresholds), or the report holds no curve for the class.` : ''}${classes.length - shown.length > 0 ? ` The other ${classes.length - shown.length} classes have no such point (F-ODS 0).` : ''}`,
    spec: chartSpec('Precision–recall over thresholds per class', `${shown.length} classes with a point to draw, sorted by F-ODS`, { ...grid.body, data: { values }, layer: layers }),
  };
}

function fOdsBars(report: Report, classes: BoundaryClass[]): ReportChart {
  const shown = classes.filter((c) => c.curve !== undefined || c.odsF > 0);
  const hidden = classes.length - shown.length;
  const score = finite(report.summary.score) ?? finite(report.summary.odsF);
  const values = shown.flatMap((c) => [
    { name: c.name, key: c.key, what: 'F-ODS', f: c.odsF, label: fmt(c.odsF) },
    ...(c.oisF !== undefined ? [{ name: c.name, key: c.key, what: 'F-OIS', f: c.oisF, label: fmt(c.oisF) }] : []),
  ]);
  const y = { field: 'name', type: 'nominal', sort: shown.map((c) => c.name), axis: { title: null } };
  const x = unitScale('f', 'F-measure (0–1)', { axis: { title: 'F-measure (0–1)', orient: 'top', tickCount: 5, format: '.1f' } });
  const layers: VegaLiteSpec[] = [
    { transform: [{ filter: "datum.what === 'F-ODS'" }], mark: { type: 'bar', color: PRIMARY, height: { band: 0.8 } }, encoding: { y, x, description: { field: 'label', type: 'nominal' } } },
    { transform: [{ filter: "datum.what === 'F-OIS'" }], mark: { type: 'tick', color: OIS_COLOUR, thickness: 2, bandSize: 12 }, encoding: { y, x } },
    { transform: [{ filter: "datum.what === 'F-ODS'" }], mark: { type: 'text', align: 'left', dx: 3, fontSize: 10 }, encoding: { y, x, text: { field: 'label' } } },
  ];
  const body: VegaLiteSpec = { width: 420, height: { step: 16 }, data: { values }, layer: layers };
  const top: VegaLiteSpec = score !== undefined ? { layer: [body, scoreRule(score)], resolve: { scale: { y: 'shared' } } } : body;
  return {
    id: 'f-ods-per-class',
    title: 'F-ODS per class',
    description: `Bars: F-ODS of each class, sorted; green ticks: F-OIS; dashed line: the challenge score (mean F-ODS over all ${classes.length} classes).${hidden > 0 ? ` ${hidden} classes with F-ODS 0 and no boundary pixel at all are not drawn.` : ''}`,
    spec: chartSpec('F-ODS per class', `sorted · bar F-ODS, green tick F-OIS · challenge score ${fmt(score)}`, score !== undefined ? { ...top } : body),
  };
}

function scoreRule(score: number): VegaLiteSpec {
  return {
    data: { values: [{ m: score, label: `score ${fmt(score)}` }] },
    layer: [
      { mark: { type: 'rule', color: SECONDARY, strokeWidth: 2, strokeDash: [4, 3] }, encoding: { x: { field: 'm', type: 'quantitative' } } },
      { mark: { type: 'text', color: SECONDARY, align: 'left', dx: 4, y: 'height', dy: 4, baseline: 'top', fontWeight: 'bold' }, encoding: { x: { field: 'm', type: 'quantitative' }, text: { field: 'label' } } },
    ],
  };
}

/** The charts of a boundary report (`rows[].odsF`, curves with recall and precision per threshold). */
export function boundaryCharts(report: Report): ReportChart[] {
  const classes = boundaryClasses(report);
  return [meanPlot(report, classes), perClassPlots(classes), fOdsBars(report, classes)].filter((c): c is ReportChart => c !== undefined);
}
