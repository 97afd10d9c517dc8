/** Per-class bars of one row field (sorted, with the summary as a rule) and confusion heat maps. */
import { codeUnitOrder, type ChartRequest, type Report, type ReportMatrix } from '@cvdevkit/core';
import { HEAT_SCHEME, PRIMARY, SECONDARY } from '../theme.js';
import { thousands } from '../thousands.js';
import { chartSpec, displayName, finite, fmt, unitScale, type ReportChart, type VegaLiteSpec } from './common.js';

const IOU_AXIS = 'Intersection over union (0–1)';

type ClassBarsRequest = Extract<ChartRequest, { kind: 'class-bars' }>;

/** The IoU bars a report gets when it declares no charts (`rows[].iou`, `summary.mIoU`). */
const IOU_BARS: ClassBarsRequest = { kind: 'class-bars', field: 'iou', label: 'IoU', summaryKey: 'mIoU', axisTitle: IOU_AXIS };

/** One bar per row of `rows[field]` (values in 0–1), sorted best first; a dashed rule at `summary[summaryKey]`. */
export function classBars(report: Report, request: ClassBarsRequest): ReportChart[] {
  const field = request.field;
  // a value outside 0–1 is no value (a −1 "undefined", as some official tools write): not drawn
  const unit = (v: unknown) => {
    const x = finite(v);
    return x !== undefined && x >= 0 && x <= 1 ? x : undefined;
  };
  if (!report.rows.some((r) => unit(r[field]) !== undefined)) return [];
  const label = request.label ?? field;
  const summaryKey = request.summaryKey ?? `mean ${label}`;
  const summaryLabel = request.summaryLabel ?? summaryKey;
  const axis = request.axisTitle ?? `${label} (0–1)`;
  const entries = report.rows
    .map((r) => ({ name: displayName(r, r.key), iou: unit(r[field]) }))
    .filter((e): e is { name: string; iou: number } => e.iou !== undefined)
    .sort((a, b) => b.iou - a.iou || codeUnitOrder(a.name, b.name));
  const mean = unit(report.summary[summaryKey]);
  const missing = report.rows.length - entries.length;
  const layers: VegaLiteSpec[] = [
    {
      data: { values: entries.map((e) => ({ ...e, label: fmt(e.iou) })) },
      layer: [
        {
          mark: { type: 'bar', color: PRIMARY, height: { band: 0.8 } },
          encoding: {
            y: { field: 'name', type: 'nominal', sort: null, axis: { title: null } },
            x: unitScale('iou', axis, { axis: { title: axis, orient: 'top', tickCount: 5, format: '.1f' } }),
            description: { field: 'label', type: 'nominal' },
          },
        },
        { mark: { type: 'text', align: 'left', dx: 3, fontSize: 10 }, encoding: { y: { field: 'name', type: 'nominal', sort: null }, x: { field: 'iou', type: 'quantitative' }, text: { field: 'label' } } },
      ],
    },
  ];
  if (mean !== undefined)
    layers.push({
      data: { values: [{ m: mean, label: `${summaryLabel} ${fmt(mean)}` }] },
      layer: [
        { mark: { type: 'rule', color: SECONDARY, strokeWidth: 2, strokeDash: [4, 3] }, encoding: { x: { field: 'm', type: 'quantitative' } } },
        { mark: { type: 'text', color: SECONDARY, align: 'left', dx: 4, y: 'height', dy: 4, baseline: 'top', fontWeight: 'bold' }, encoding: { x: { field: 'm', type: 'quantitative' }, text: { field: 'label' } } },
      ],
    });
  return [
    {
      id: `${field}-per-class`,
      title: `${label} per class`,
      description: `The official ${label} of each row, sorted; the dashed line is the ${summaryLabel}.${missing > 0 ? ` ${missing} of ${report.rows.length} rows have no ${label} and are not drawn.` : ''}`,
      spec: chartSpec(`${label} per class`, `sorted, best first · ${missing > 0 ? `${entries.length} of ${report.rows.length} rows (the others have no ${label}) · ` : ''}${summaryLabel} ${fmt(mean)}`, { width: 420, height: { step: 16 }, layer: layers }),
    },
  ];
}

function confusionHeatMap(matrix: ReportMatrix, name: string): ReportChart {
  const labels = matrix.labels;
  const values: VegaLiteSpec[] = [];
  for (let g = 0; g < labels.length; g++) {
    const row = matrix.counts[g] ?? [];
    const total = row.reduce((s, v) => s + (Number.isFinite(v) ? v : 0), 0);
    for (let p = 0; p < labels.length; p++) {
      const count = row[p] ?? 0;
      const share = total > 0 ? count / total : 0;
      values.push({
        gt: labels[g],
        pred: labels[p],
        share: Number(share.toPrecision(4)),
        count,
        total,
        text: share >= 0.005 ? String(Math.round(share * 100)) : '',
        hover: `ground truth ${labels[g]} → predicted ${labels[p]}: ${thousands(count)} of ${thousands(total)} pixels (${(share * 100).toFixed(1)} %)`,
      });
    }
  }
  const cell = labels.length > 30 ? 12 : 24;
  return {
    id: name === 'confusion' ? 'confusion' : `matrix-${name}`,
    title: 'Confusion matrix (row-normalised)',
    description:
      'Rows are the ground-truth classes, columns the predicted ones; each row is divided by its pixel count, so a cell is the share of that class’s pixels given each label (numbers in percent). Raw pixel counts on hover.',
    spec: chartSpec('Confusion matrix, row-normalised', 'share of each ground-truth class’s pixels (%) · hover a cell for raw counts', {
      data: { values },
      width: { step: cell },
      height: { step: cell },
      encoding: {
        x: { field: 'pred', type: 'nominal', sort: labels, axis: { title: 'Predicted class', orient: 'top', labelAngle: -50, labelAlign: 'left' } },
        y: { field: 'gt', type: 'nominal', sort: labels, axis: { title: 'Ground-truth class' } },
      },
      layer: [
        {
          mark: { type: 'rect' },
          encoding: {
            color: { field: 'share', type: 'quantitative', scale: { scheme: HEAT_SCHEME, domain: [0, 1] }, legend: { title: 'share of row', format: '.0%', gradientLength: 160 } },
            description: { field: 'hover', type: 'nominal' },
            tooltip: [
              { field: 'gt', title: 'ground truth' },
              { field: 'pred', title: 'predicted' },
              { field: 'count', title: 'pixels', format: ',' },
              { field: 'total', title: 'row total', format: ',' },
              { field: 'share', title: 'share', format: '.2%' },
            ],
          },
        },
        ...(cell >= 20
          ? [
              {
                mark: { type: 'text', fontSize: 9 },
                encoding: {
                  text: { field: 'text' },
                  color: { condition: { test: 'datum.share > 0.55', value: '#111' }, value: '#fff' },
                },
              },
            ]
          : []),
      ],
    }),
  };
}

/** A heat map of `report.matrices[matrix]`, or of every matrix when `matrix` is not given. */
export function confusionMatrices(report: Report, request: { matrix?: string } = {}): ReportChart[] {
  const charts: ReportChart[] = [];
  for (const [name, matrix] of Object.entries(report.matrices ?? {}))
    if ((request.matrix === undefined || request.matrix === name) && matrix.labels.length > 0 && matrix.counts.length === matrix.labels.length) charts.push(confusionHeatMap(matrix, name));
  return charts;
}

/** IoU bars and confusion heat maps, for a report that declares no charts (`rows[].iou`, `matrices`). */
export function segmentationCharts(report: Report): ReportChart[] {
  return [...classBars(report, IOU_BARS), ...confusionMatrices(report)];
}
