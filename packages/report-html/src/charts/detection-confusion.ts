/**
 * The detection confusion matrix of an `analyze` report (`report.analysis.confusion`): a heat map of ground-truth
 * classes (rows) × detected classes (columns), each with `background` last, row-normalised; and the most frequent
 * confusions between two classes as bars. Made to stay readable from 20 to 80+ classes: the task's own class order
 * (a task that orders its classes by group keeps confusions within a group near the diagonal), empty cells left
 * blank, a square-root colour scale (a 2 % confusion is visible next to a 90 % diagonal), numbers in the cells
 * only while they fit (then vertical labels), raw counts on hover.
 */
import type { ConfusionResult, Report } from '@cvdevkit/core';
import { HEAT_SCHEME, MUTED, PRIMARY } from '../theme.js';
import { measureTextWidth } from '../text-width.js';
import { thousands } from '../thousands.js';
import { chartSpec, displayName, rowsByKey, type ReportChart, type VegaLiteSpec } from './common.js';

/** Pairs of classes shown in the top-confusions bars. */
export const TOP_CONFUSIONS = 20;
const BACKGROUND = 'background';

const pct = (share: number) => `${(share * 100).toFixed(1)} %`;

/** Cell side and label size by the number of labels (classes + background). */
function cellSize(n: number): { cell: number; font: number; numbers: boolean } {
  if (n <= 26) return { cell: 26, font: 11, numbers: true };
  if (n <= 46) return { cell: 15, font: 10, numbers: false };
  return { cell: 10, font: 8, numbers: false };
}

function heatMap(c: ConfusionResult, labels: string[]): ReportChart {
  const n = labels.length;
  const C = n - 1;
  const rowTotal = c.counts.map((row) => row.reduce((s, v) => s + v, 0));
  const values: VegaLiteSpec[] = [];
  for (let g = 0; g < n; g++) {
    for (let d = 0; d < n; d++) {
      const count = c.counts[g]?.[d] ?? 0;
      if (!(count > 0)) continue;
      const share = count / rowTotal[g];
      const hover =
        g === C
          ? `background → detected as ${labels[d]}: ${thousands(count)} of ${thousands(rowTotal[g])} background detections (${pct(share)})`
          : d === C
            ? `ground truth ${labels[g]} → missed: ${thousands(count)} of ${thousands(rowTotal[g])} objects (${pct(share)})`
            : `ground truth ${labels[g]} → detected as ${labels[d]}: ${thousands(count)} of ${thousands(rowTotal[g])} objects (${pct(share)})`;
      values.push({ gt: labels[g], det: labels[d], count, total: rowTotal[g], share: Number(share.toPrecision(4)), text: share >= 0.005 ? String(Math.round(share * 100)) : '', hover });
    }
  }
  // the background row and column shaded, so that they read apart from the classes
  const band = labels.flatMap((l) => [{ gt: BACKGROUND, det: l }, ...(l === BACKGROUND ? [] : [{ gt: l, det: BACKGROUND }])]);
  const { cell, font, numbers } = cellSize(n);
  const axis = { labelFontSize: font, labelLimit: 160 };
  const objects = rowTotal.slice(0, C).reduce((s, v) => s + v, 0);
  const title = 'Detection confusion matrix, row-normalised';
  const parts = [`score ≥ ${c.conf} · IoU ≥ ${c.iouThreshold}`, 'row-normalised: share of each row (%)', `${thousands(objects)} objects, ${thousands(c.detections)} detections`];
  // a narrow matrix gets its subtitle in lines (the layout does not widen the view for a title)
  const subtitle: string | string[] = n < 12 ? parts : parts.join(' · ');
  return {
    id: 'detection-confusion',
    title,
    description:
      `Rows are the ground-truth classes, columns the classes detected (detections with a score ≥ ${c.conf}, matched at IoU ≥ ${c.iouThreshold}, the task's IoU); ` +
      'the background column holds the missed objects, the background row the detections on no object. Each row is divided by its total (objects of the class, or background detections), ' +
      'colour on a square-root scale; empty cells are blank; counts on hover and in the JSON report.',
    spec: withSubtitle(chartSpec('Detection confusion matrix', undefined, {
      width: { step: cell },
      height: { step: cell },
      encoding: {
        // upright labels while cells are wide, else vertical (one label a cell: slanted ones overlap)
        x: { field: 'det', type: 'nominal', scale: { domain: labels }, axis: { title: 'Detected as', orient: 'top', labelAngle: numbers ? -50 : -90, labelAlign: 'left', labelBaseline: numbers ? 'alphabetic' : 'middle', ...axis } },
        y: { field: 'gt', type: 'nominal', scale: { domain: labels }, axis: { title: 'Ground truth', ...axis } },
      },
      layer: [
        { data: { values: band }, mark: { type: 'rect', color: MUTED, opacity: 0.14, aria: false } },
        {
          data: { values },
          mark: { type: 'rect', stroke: 'currentColor', strokeOpacity: 0.08, strokeWidth: 0.5 },
          encoding: {
            color: { field: 'share', type: 'quantitative', scale: { type: 'sqrt', scheme: HEAT_SCHEME, domain: [0, 1] }, legend: { title: 'share of row', format: '.0%', gradientLength: 160, values: [0.01, 0.1, 0.25, 0.5, 1] } },
            description: { field: 'hover', type: 'nominal' },
            tooltip: [
              { field: 'gt', title: 'ground truth' },
              { field: 'det', title: 'detected as' },
              { field: 'count', title: 'count', format: ',' },
              { field: 'total', title: 'row total', format: ',' },
              { field: 'share', title: 'share of row', format: '.1%' },
            ],
          },
        },
        ...(numbers
          ? [
              {
                data: { values },
                mark: { type: 'text', fontSize: 9, aria: false },
                encoding: { text: { field: 'text' }, color: { condition: { test: 'datum.share > 0.3', value: '#111' }, value: '#fff' } },
              },
            ]
          : []),
      ],
    }), subtitle),
  };
}

/** `spec` titled with a subtitle of one line or several. */
function withSubtitle(spec: VegaLiteSpec, subtitle: string | string[]): VegaLiteSpec {
  return { ...spec, title: { text: spec.title, subtitle } };
}

/** The most frequent (ground truth → detected as) pairs of two different classes. */
function topConfusions(c: ConfusionResult, labels: string[]): ReportChart | undefined {
  const C = labels.length - 1;
  const pairs: { pair: string; count: number; share: number; label: string }[] = [];
  for (let g = 0; g < C; g++) {
    const total = c.counts[g].reduce((s, v) => s + v, 0);
    for (let d = 0; d < C; d++) {
      const count = c.counts[g][d];
      if (d !== g && count > 0) pairs.push({ pair: `${labels[g]} → ${labels[d]}`, count, share: count / total, label: `${thousands(count)} (${pct(count / total)} of ${labels[g]})` });
    }
  }
  if (pairs.length === 0) return undefined;
  pairs.sort((a, b) => b.count - a.count || b.share - a.share);
  const shown = pairs.slice(0, TOP_CONFUSIONS);
  const title = 'Most frequent confusions between classes';
  return {
    id: 'detection-confusion-top',
    title,
    description: `The ${shown.length} most frequent off-diagonal cells of the confusion matrix (ground truth → detected as), with the share of the ground-truth class's objects.`,
    spec: chartSpec(title, `score ≥ ${c.conf} · ${shown.length} of ${pairs.length} pairs`, {
      width: 360,
      height: { step: 16 },
      data: { values: shown },
      encoding: {
        // room for the longest label (the arrow is wider than the layout's estimate of a non-ASCII character)
        y: { field: 'pair', type: 'nominal', sort: null, axis: { title: null, labelLimit: 260, minExtent: Math.min(260, Math.ceil(Math.max(...shown.map((p) => measureTextWidth(p.pair, 11))) * 1.1) + 8) } },
        x: { field: 'count', type: 'quantitative', axis: { title: 'objects', tickMinStep: 1, orient: 'top' } },
      },
      layer: [
        { mark: { type: 'bar', color: PRIMARY, height: { band: 0.8 } }, encoding: { description: { field: 'label', type: 'nominal' } } },
        { mark: { type: 'text', align: 'left', dx: 3, fontSize: 10 }, encoding: { text: { field: 'label' } } },
      ],
    }),
  };
}

/** The confusion section's charts: the heat map and the top confusions. */
export function detectionConfusionCharts(report: Report, c: ConfusionResult): ReportChart[] {
  const rows = rowsByKey(report);
  const C = c.labels.length - 1;
  if (C < 1 || c.counts.length !== C + 1) return [];
  // readable names (ILSVRC's WNIDs have one), made unique so that two classes never share a row
  const seen = new Set<string>();
  const labels = c.labels.map((key, k) => {
    let name = k === C ? BACKGROUND : displayName(rows.get(key), key);
    if (seen.has(name)) name = `${name} (${key})`;
    seen.add(name);
    return name;
  });
  const charts = [heatMap(c, labels)];
  const top = topConfusions(c, labels);
  if (top) charts.push(top);
  return charts;
}
