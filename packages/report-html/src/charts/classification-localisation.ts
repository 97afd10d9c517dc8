/** Chart of ILSVRC CLS-LOC: classification and localisation error against the number of guesses (1–5). */
import type { Report } from '@cvdevkit/core';
import { PRIMARY, SECONDARY } from '../theme.js';
import { chartSpec, finite, fmt, type ReportChart, type VegaLiteSpec } from './common.js';

const CLS = 'classification error';
const LOC = 'localisation error';
/** The plot's height in pixels (the error axis runs 0–1 over it). */
export const HEIGHT = 280;
/** A value label's height and its gap from its point and from the other label, in pixels. */
export const LABEL_HEIGHT = 11;
const LABEL_GAP = 6;

/** A value label placed at `at` (error units: the label's baseline is its bottom edge). */
export interface ErrorLabel {
  what: string;
  guesses: number;
  /** Where the label's bottom edge is, on the error axis (0–1). */
  at: number;
}

/**
 * Where the value labels of one number of guesses go, so that they never overlap each other nor leave the
 * plot: the higher error's label above its point and the lower's below (they cannot meet: the two points lie
 * between them); a label that would leave the plot (an error near 0 or 1) goes to the other side of its point
 * and the two are stacked there, in the order of their points.
 */
export function placeErrorLabels(points: Array<{ what: string; error: number }>, guesses: number): ErrorLabel[] {
  const px = (e: number) => e * HEIGHT;
  const at = (bottom: number) => bottom / HEIGHT;
  if (points.length === 1) {
    const v = px(points[0].error);
    const above = v + LABEL_GAP + LABEL_HEIGHT <= HEIGHT;
    return [{ what: points[0].what, guesses, at: at(above ? v + LABEL_GAP : v - LABEL_GAP - LABEL_HEIGHT) }];
  }
  const [lo, hi] = [...points].sort((a, b) => a.error - b.error || (a.what === LOC ? 1 : -1));
  const l = px(lo.error);
  const h = px(hi.error);
  let loAt = l - LABEL_GAP - LABEL_HEIGHT;
  let hiAt = h + LABEL_GAP;
  if (loAt < 0 && hiAt + LABEL_HEIGHT <= HEIGHT) {
    // both above, the lower error's label first
    loAt = l + LABEL_GAP;
    hiAt = Math.max(h + LABEL_GAP, loAt + LABEL_HEIGHT + 2);
    if (hiAt + LABEL_HEIGHT > HEIGHT) hiAt = h - LABEL_GAP - LABEL_HEIGHT; // no room above: below its point (above the lower's label)
  } else if (hiAt + LABEL_HEIGHT > HEIGHT) {
    // both below, the higher error's label first
    hiAt = h - LABEL_GAP - LABEL_HEIGHT;
    loAt = Math.min(l - LABEL_GAP - LABEL_HEIGHT, hiAt - LABEL_HEIGHT - 2);
    if (loAt < 0) loAt = l + LABEL_GAP;
  }
  return [
    { what: lo.what, guesses, at: at(loAt) },
    { what: hi.what, guesses, at: at(hiAt) },
  ];
}

export function errorByGuessesCharts(report: Report): ReportChart[] {
  const values: VegaLiteSpec[] = [];
  const byGuesses = new Map<number, Array<{ what: string; error: number; label: string }>>();
  for (const row of report.rows) {
    const k = Number(row.key);
    if (!Number.isInteger(k)) continue;
    const cls = finite(row.clsError);
    const loc = finite(row.locError);
    const here: Array<{ what: string; error: number; label: string }> = [];
    if (cls !== undefined) here.push({ what: CLS, error: cls, label: fmt(cls) });
    if (loc !== undefined) here.push({ what: LOC, error: loc, label: fmt(loc) });
    for (const p of here) values.push({ kind: 'point', guesses: k, ...p });
    if (here.length > 0) byGuesses.set(k, here);
  }
  if (values.length === 0) return [];
  for (const [k, here] of byGuesses) {
    for (const l of placeErrorLabels(here, k)) {
      const point = here.find((p) => p.what === l.what)!;
      values.push({ kind: 'label', guesses: k, what: l.what, at: l.at, side: l.at >= point.error ? 'above' : 'below', label: point.label });
    }
  }
  const maxK = Math.max(...values.map((v) => v.guesses as number));
  const colour = { field: 'what', type: 'nominal', title: null, scale: { domain: [CLS, LOC], range: [PRIMARY, SECONDARY] }, legend: { orient: 'top', direction: 'horizontal' } };
  // padding: the points at 1 and 5 guesses (and their labels) clear of the plot's edges
  const x = { field: 'guesses', type: 'quantitative', scale: { domain: [1, Math.max(5, maxK)], nice: false, padding: 36 }, axis: { title: 'Number of guesses per image', tickMinStep: 1, format: 'd', values: Array.from({ length: Math.max(5, maxK) }, (_, i) => i + 1) } };
  const yScale = { domain: [0, 1], nice: false };
  const y = { field: 'error', type: 'quantitative', scale: yScale, axis: { title: 'Error rate (fraction of images, 0–1)', format: '.1f', tickCount: 5 } };
  const points = { filter: "datum.kind === 'point'" };
  return [
    {
      id: 'error-by-guesses',
      title: 'Error against the number of guesses',
      description: 'Classification error and localisation (classification + box) error when the first k guesses of each image count, k = 1…5; the official score is at 5 guesses. Each value is written in its line\'s colour, the higher error above its point and the lower below (both on one side, stacked, next to the plot\'s edge).',
      spec: chartSpec('Error against the number of guesses', `at 5 guesses: classification ${fmt(report.summary.clsError)} · localisation ${fmt(report.summary.locError)}`, {
        width: 400,
        height: HEIGHT,
        data: { values },
        encoding: { x, color: colour },
        layer: [
          { transform: [points], mark: { type: 'line', strokeWidth: 2 }, encoding: { y, strokeDash: { field: 'what', type: 'nominal', title: null, scale: { domain: [CLS, LOC], range: [[1, 0], [6, 3]] } } } },
          { transform: [points], mark: { type: 'point', filled: true, size: 50, opacity: 1 }, encoding: { y, shape: { field: 'what', type: 'nominal', title: null, scale: { domain: [CLS, LOC], range: ['circle', 'square'] } }, description: { field: 'label', type: 'nominal' } } },
          // the value labels where placeErrorLabels put them (their bottom edge at `at`), in their line's colour
          // above a point to its right and below a point to its left: clear of the lines, which fall from left to right
          { transform: [{ filter: "datum.kind === 'label' && datum.side === 'above'" }], mark: { type: 'text', baseline: 'bottom', align: 'left', dx: 2, fontSize: 10, fontWeight: 'bold', aria: false }, encoding: { y: { field: 'at', type: 'quantitative', scale: yScale, axis: y.axis }, text: { field: 'label' } } },
          { transform: [{ filter: "datum.kind === 'label' && datum.side === 'below'" }], mark: { type: 'text', baseline: 'bottom', align: 'right', dx: -2, fontSize: 10, fontWeight: 'bold', aria: false }, encoding: { y: { field: 'at', type: 'quantitative', scale: yScale, axis: y.axis }, text: { field: 'label' } } },
        ],
      }),
    },
  ];
}
