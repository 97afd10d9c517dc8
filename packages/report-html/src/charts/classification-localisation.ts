/** Chart of ILSVRC CLS-LOC: classification and localisation error against the number of guesses (1–5). */
import type { Report } from '@cvdevkit/core';
import { PRIMARY, SECONDARY } from '../theme.js';
import { chartSpec, finite, fmt, type ReportChart, type VegaLiteSpec } from './common.js';

export function errorByGuessesCharts(report: Report): ReportChart[] {
  const values: VegaLiteSpec[] = [];
  for (const row of report.rows) {
    const k = Number(row.key);
    if (!Number.isInteger(k)) continue;
    const cls = finite(row.clsError);
    const loc = finite(row.locError);
    if (cls !== undefined) values.push({ guesses: k, error: cls, what: 'classification error', label: fmt(cls) });
    if (loc !== undefined) values.push({ guesses: k, error: loc, what: 'localisation error', label: fmt(loc) });
  }
  if (values.length === 0) return [];
  const maxK = Math.max(...values.map((v) => v.guesses as number));
  const colour = { field: 'what', type: 'nominal', title: null, scale: { domain: ['classification error', 'localisation error'], range: [PRIMARY, SECONDARY] }, legend: { orient: 'top-right' } };
  const x = { field: 'guesses', type: 'quantitative', scale: { domain: [1, Math.max(5, maxK)], nice: false }, axis: { title: 'Number of guesses per image', tickMinStep: 1, format: 'd', values: Array.from({ length: Math.max(5, maxK) }, (_, i) => i + 1) } };
  const y = { field: 'error', type: 'quantitative', scale: { domain: [0, 1], nice: false }, axis: { title: 'Error rate (fraction of images, 0–1)', format: '.1f', tickCount: 5 } };
  return [
    {
      id: 'error-by-guesses',
      title: 'Error against the number of guesses',
      description: 'Classification error and localisation (classification + box) error when the first k guesses of each image count, k = 1…5; the official score is at 5 guesses.',
      spec: chartSpec('Error against the number of guesses', `at 5 guesses: classification ${fmt(report.summary.clsError)} · localisation ${fmt(report.summary.locError)}`, {
        width: 400,
        height: 280,
        data: { values },
        encoding: { x, y, color: colour },
        layer: [
          { mark: { type: 'line', strokeWidth: 2 }, encoding: { strokeDash: { field: 'what', type: 'nominal', title: null, scale: { domain: ['classification error', 'localisation error'], range: [[1, 0], [6, 3]] } } } },
          { mark: { type: 'point', filled: true, size: 50 }, encoding: { shape: { field: 'what', type: 'nominal', title: null, scale: { domain: ['classification error', 'localisation error'], range: ['circle', 'square'] } }, description: { field: 'label', type: 'nominal' } } },
          { mark: { type: 'text', dy: -10, fontSize: 10 }, encoding: { text: { field: 'label' }, color: { value: 'currentColor' } } },
        ],
      }),
    },
  ];
}
