/**
 * Hoiem, Chodpathumwan & Dai (ECCV 2012) charts of an `analyze` report: the pie of correct detections and
 * false-positive types among each class's top-ranked detections (overall and per class, Fig. 2 style), and
 * the normalised AP (APN) per object-characteristic bin with sensitivity and impact (Figs. 3–4 style).
 */
import type { HoiemResult } from '@cvdevkit/core';
import { CATEGORY_COLOURS, HEAT_SCHEME, MUTED } from '../theme.js';
import { chartSpec, round6, type ReportChart } from './common.js';

type Counts = Record<string, number>;

/** What the Hoiem charts read of `report.analysis.hoiem` (declared in core). */
type HoiemCharted = Pick<HoiemResult, 'overall' | 'perClass' | 'characteristics'>;

/** Slices of the pie: correct, then Hoiem's four false-positive types (same colours as the trend chart). */
const SLICES = ['Cor', 'Loc', 'Sim', 'Oth', 'BG'] as const;
const SLICE_COLOURS = [MUTED, ...CATEGORY_COLOURS.slice(0, 4)];
const SLICE_NAMES: Record<string, string> = { Cor: 'Cor (correct)', Loc: 'Loc (localisation)', Sim: 'Sim (similar class)', Oth: 'Oth (other class)', BG: 'BG (background)' };
/** Per-class pies drawn at most (the classes whose top-ranked detections are least often correct). */
export const MAX_CLASS_PIES = 40;

function sliceValues(top: Counts): { type: string; name: string; order: number; count: number; share: number; label: string }[] {
  const counts = SLICES.map((s) => (s === 'Cor' ? (top.TP ?? 0) : (top[s] ?? 0)));
  const total = counts.reduce((a, b) => a + b, 0);
  return SLICES.map((type, k) => {
    const share = total > 0 ? counts[k] / total : 0;
    return { type, name: SLICE_NAMES[type], order: k, count: counts[k], share: round6(share), label: share >= 0.03 ? `${type} ${Math.round(share * 100)}%` : '' };
  });
}

const colour = (legend: boolean) => ({
  field: 'name',
  type: 'nominal',
  sort: SLICES.map((s) => SLICE_NAMES[s]),
  scale: { domain: SLICES.map((s) => SLICE_NAMES[s]), range: SLICE_COLOURS },
  legend: legend ? { title: null, orient: 'right' } : null,
});

function overallPie(top: Counts): ReportChart {
  // The legend carries every slice's share (small slices have no label of their own).
  const values = sliceValues(top).map((v) => ({ ...v, name: `${v.name} ${pct(v.share)}`, label: v.share >= 0.05 ? `${v.type} ${pct(v.share)}` : '' }));
  const n = values.reduce((a, v) => a + v.count, 0);
  const title = 'Top-ranked detections by type';
  return {
    id: 'hoiem-pie',
    title,
    description: `Hoiem et al.: each class's detections down to rank npos (${n} in all), correct (Cor) or a false positive of each type (Loc: poor box or duplicate; Sim: a similar class; Oth: another class; BG: background). The legend gives every share; the tooltips and the JSON report every count.`,
    spec: chartSpec(title, `each class's top npos detections, summed over classes (${n})`, {
      width: 340,
      height: 260,
      data: { values },
      encoding: {
        theta: { field: 'count', type: 'quantitative', stack: true },
        order: { field: 'order', type: 'ordinal' },
        color: { ...colour(true), sort: values.map((v) => v.name), scale: { domain: values.map((v) => v.name), range: SLICE_COLOURS } },
        tooltip: [{ field: 'name', title: 'type' }, { field: 'count' }, { field: 'share', format: '.1%' }],
      },
      layer: [
        { mark: { type: 'arc', outerRadius: 105, padAngle: 0.01 } },
        { mark: { type: 'text', radius: 132, fontSize: 12 }, encoding: { text: { field: 'label' }, color: { value: 'currentColor' } } },
      ],
    }),
  };
}

const pct = (share: number) => `${share > 0 && share < 0.01 ? '<1' : Math.round(share * 100)}%`;

function classPies(perClass: NonNullable<HoiemCharted['perClass']>, nameOf: (key: string) => string): ReportChart | undefined {
  const classes = perClass.filter((c) => c.top && SLICES.some((s) => (s === 'Cor' ? c.top!.TP : c.top![s]) > 0));
  if (classes.length === 0) return undefined;
  const correct = (c: (typeof classes)[number]) => {
    const v = sliceValues(c.top!);
    const total = v.reduce((a, x) => a + x.count, 0);
    return total > 0 ? v[0].count / total : 0;
  };
  const shown = classes.length <= MAX_CLASS_PIES ? classes : [...classes].sort((a, b) => correct(a) - correct(b)).slice(0, MAX_CLASS_PIES);
  const values = shown.flatMap((c) => sliceValues(c.top!).map((v) => ({ ...v, panel: `${nameOf(c.key)} (${Math.round(correct(c) * 100)}% Cor)` })));
  const title = 'Top-ranked detections per class';
  const which = shown.length < classes.length ? `the ${shown.length} of ${classes.length} classes with the fewest correct` : 'each class';
  return {
    id: 'hoiem-pie-per-class',
    title,
    description: `The same pie for ${which}: its detections down to rank npos, correct (grey) or a false positive of each type.`,
    spec: chartSpec(title, `${which}: detections down to rank npos`, {
      data: { values },
      facet: { field: 'panel', type: 'nominal', sort: null, header: { title: null, labelFontSize: 11, labelPadding: 2 } },
      columns: 5,
      spacing: { row: 6, column: 10 },
      spec: {
        width: 96,
        height: 96,
        mark: { type: 'arc', outerRadius: 44, padAngle: 0.015 },
        encoding: {
          theta: { field: 'count', type: 'quantitative', stack: true },
          order: { field: 'order', type: 'ordinal' },
          color: colour(true),
          tooltip: [{ field: 'panel', title: 'class' }, { field: 'name', title: 'type' }, { field: 'count' }, { field: 'share', format: '.1%' }],
        },
      },
      resolve: { scale: { theta: 'independent' } },
    }),
  };
}

/** One order consistent with both XS < S < M < L < XL and XT < T < M < W < XW (each facet keeps its own five). */
const BIN_ORDER = ['XS', 'XT', 'S', 'T', 'M', 'L', 'W', 'XL', 'XW'];

const fmt2 = (v: number | null | undefined) => (typeof v === 'number' && Number.isFinite(v) ? v.toFixed(2).replace('-', '−') : 'n/a');

function binCharts(chars: NonNullable<HoiemCharted['characteristics']>): ReportChart[] {
  if (chars.length === 0) return [];
  const overall = chars[0].overall;
  const header = (c: (typeof chars)[number]) => `${c.characteristic}: sensitivity ${fmt2(c.sensitivity)}, impact ${fmt2(c.impact)}`;
  const values = chars.flatMap((c) =>
    c.bins.map((bin, k) => ({ panel: header(c), bin, order: k, apn: c.apn[k] === null ? null : round6(c.apn[k]!), label: c.apn[k] === null ? 'n/a' : c.apn[k]!.toFixed(2), ly: c.apn[k] ?? 0, overall: round6(c.overall) })),
  );
  const binsTitle = 'Normalised AP per object-characteristic bin';
  const bins: ReportChart = {
    id: 'hoiem-apn-bins',
    title: binsTitle,
    description:
      "Hoiem et al.: each class's objects cut at the 10/30/70/90 % quantiles of box area (size), height and aspect (w/h) into five bins; APN per bin (the other bins' true positives don't care), averaged over the classes that have the bin (≥ 5 objects). Dashed: the overall APN. Sensitivity = max − min over the bins; impact = max − overall.",
    spec: chartSpec(binsTitle, 'mean over classes; dashed: overall APN', {
      data: { values },
      facet: { field: 'panel', type: 'nominal', sort: chars.map(header), header: { title: null, labelFontSize: 11 } },
      columns: 3,
      spec: {
        width: 190,
        height: 200,
        layer: [
          // The overall APN first: bars above it hide it, so it never crosses a value label.
          { mark: { type: 'rule', strokeDash: [5, 3], strokeWidth: 1.4, color: CATEGORY_COLOURS[3] }, encoding: { y: { aggregate: 'max', field: 'overall', type: 'quantitative' } } },
          {
            mark: { type: 'bar', color: CATEGORY_COLOURS[0], width: { band: 0.7 } },
            encoding: {
              x: { field: 'bin', type: 'ordinal', sort: BIN_ORDER, axis: { title: null, labelAngle: 0 } },
              y: { field: 'apn', type: 'quantitative', scale: { domain: [0, 1] }, axis: { title: 'APN (0–1)', tickCount: 5 } },
              tooltip: [{ field: 'bin' }, { field: 'apn', title: 'APN' }, { field: 'overall', title: 'overall APN' }],
            },
          },
          // Value labels inside the bar's top (clear of the dashed line); above the bar when it is too short.
          ...[true, false].map((inside) => ({
            transform: [{ filter: inside ? 'datum.apn >= 0.1' : 'datum.apn === null || datum.apn < 0.1' }],
            mark: { type: 'text', fontSize: 10, baseline: inside ? 'top' : 'bottom', dy: inside ? 4 : -3, ...(inside ? { color: '#fff' } : {}) },
            encoding: {
              x: { field: 'bin', type: 'ordinal', sort: BIN_ORDER },
              y: { field: 'ly', type: 'quantitative', scale: { domain: [0, 1] } },
              text: { field: 'label' },
            },
          })),
        ],
      },
      resolve: { scale: { x: 'independent' } },
    }),
  };
  return [bins, sensitivityChart(chars, overall)];
}

/** Hoiem Fig. 4: per characteristic the highest and lowest bin APN, the overall APN dashed. */
function sensitivityChart(chars: NonNullable<HoiemCharted['characteristics']>, overall: number): ReportChart {
  const values = chars.map((c) => {
    const v = c.apn.filter((x): x is number => x !== null && Number.isFinite(x));
    const max = v.length > 0 ? Math.max(...v) : null;
    const min = v.length > 0 ? Math.min(...v) : null;
    const at = (x: number | null) => (x === null ? '' : c.bins[c.apn.indexOf(x)]);
    return { characteristic: c.characteristic, max: max === null ? null : round6(max), min: min === null ? null : round6(min), maxLabel: max === null ? '' : `${at(max)} ${max.toFixed(2)}`, minLabel: min === null ? '' : `${at(min)} ${min.toFixed(2)}`, overall: round6(overall), sensitivity: c.sensitivity === null ? null : round6(c.sensitivity), impact: c.impact === null ? null : round6(c.impact) };
  });
  const title = 'Sensitivity and impact';
  const x = { field: 'characteristic', type: 'nominal', sort: null, axis: { title: null, labelAngle: 0, labelFontSize: 12 } };
  const y = (field: string) => ({ field, type: 'quantitative', scale: { domain: [0, 1] }, axis: { title: 'APN (0–1)', tickCount: 5 } });
  return {
    id: 'hoiem-sensitivity',
    title,
    description: 'Hoiem et al. Fig. 4: per characteristic the highest and the lowest bin APN (mean over classes); the dashed line is the overall APN. Sensitivity = highest − lowest, impact = highest − overall.',
    spec: chartSpec(title, `dashed: overall APN ${overall.toFixed(2)}`, {
      width: 300,
      height: 240,
      data: { values },
      layer: [
        { mark: { type: 'rule', strokeWidth: 2, color: CATEGORY_COLOURS[0] }, encoding: { x, y: y('min'), y2: { field: 'max' } } },
        { mark: { type: 'point', filled: true, size: 60, color: CATEGORY_COLOURS[0] }, encoding: { x, y: y('max'), tooltip: [{ field: 'characteristic' }, { field: 'max', title: 'highest APN' }, { field: 'min', title: 'lowest APN' }, { field: 'sensitivity' }, { field: 'impact' }] } },
        { mark: { type: 'point', filled: true, size: 60, color: CATEGORY_COLOURS[0] }, encoding: { x, y: y('min') } },
        { mark: { type: 'text', align: 'left', dx: 8, fontSize: 10 }, encoding: { x, y: y('max'), text: { field: 'maxLabel' } } },
        { mark: { type: 'text', align: 'left', dx: 8, fontSize: 10 }, encoding: { x, y: y('min'), text: { field: 'minLabel' } } },
        { mark: { type: 'rule', strokeDash: [5, 3], strokeWidth: 1.4, color: CATEGORY_COLOURS[3] }, encoding: { y: { aggregate: 'max', field: 'overall', type: 'quantitative' } } },
      ],
    }),
  };
}

/** APN per class and bin as a heat map (skipped bins, under 5 objects, left blank). */
function perClassBins(chars: NonNullable<HoiemCharted['characteristics']>, nameOf: (key: string) => string): ReportChart | undefined {
  const all = chars[0]?.perClass ?? [];
  if (all.length === 0) return undefined;
  // Many classes (ILSVRC's 200): the MAX_CLASS_PIES with the most objects, in class order (the JSON has all).
  const objects = (k: number) => all[k].objects.reduce((a, b) => a + b, 0);
  const keep = new Set(all.length <= MAX_CLASS_PIES ? all.map((_, k) => k) : all.map((_, k) => k).sort((a, b) => objects(b) - objects(a) || a - b).slice(0, MAX_CLASS_PIES));
  const nClasses = keep.size;
  const withText = nClasses <= 40;
  const which = keep.size < all.length ? `the ${keep.size} of ${all.length} classes with the most objects; ` : '';
  const values = chars.flatMap((c) =>
    c.perClass.filter((_, k) => keep.has(k)).flatMap((pc) =>
      c.bins.map((bin, k) => ({ characteristic: c.characteristic, class: nameOf(pc.key), bin, order: k, objects: pc.objects[k], apn: pc.apn[k] === null ? null : round6(pc.apn[k]!), text: pc.apn[k] === null ? '' : pc.apn[k]!.toFixed(2) })),
    ),
  );
  const title = 'Normalised AP per class and bin';
  const step = withText ? 16 : 10;
  const layer: Record<string, unknown>[] = [
    {
      mark: { type: 'rect' },
      encoding: {
        color: { field: 'apn', type: 'quantitative', scale: { scheme: HEAT_SCHEME, domain: [0, 1] }, legend: { title: 'APN', gradientLength: 160 } },
        tooltip: [{ field: 'class' }, { field: 'characteristic' }, { field: 'bin' }, { field: 'objects' }, { field: 'apn', title: 'APN' }],
      },
    },
  ];
  if (withText) layer.push({ mark: { type: 'text', fontSize: 9 }, encoding: { text: { field: 'text' }, color: { condition: { test: 'datum.apn > 0.55', value: '#111' }, value: '#fff' } } });
  return {
    id: 'hoiem-apn-per-class',
    title,
    description: `APN of ${which ? which.slice(0, -2) : 'each class'} per size, height and aspect bin; blank cells are bins with fewer than 5 objects (skipped, as Hoiem et al. do).`,
    spec: chartSpec(title, `${which}blank: fewer than 5 objects in the bin`, {
      data: { values },
      hconcat: chars.map((c, k) => ({
        title: { text: c.characteristic, anchor: 'middle', fontSize: 12, fontWeight: 'normal' },
        transform: [{ filter: { field: 'characteristic', equal: c.characteristic } }],
        width: { step: 30 },
        height: { step },
        encoding: {
          x: { field: 'bin', type: 'ordinal', sort: c.bins, axis: { title: null, labelAngle: 0, orient: 'top' } },
          y: { field: 'class', type: 'nominal', sort: null, axis: k === 0 ? { title: null, labelFontSize: withText ? 11 : 8 } : null },
        },
        layer,
      })),
      spacing: 12,
      resolve: { scale: { color: 'shared', y: 'shared' } },
    }),
  };
}

/** The Hoiem charts the report's `analysis.hoiem` allows. */
export function hoiemCharts(h: HoiemCharted, nameOf: (key: string) => string = (k) => k): ReportChart[] {
  const charts: ReportChart[] = [];
  if (h.overall.top) charts.push(overallPie(h.overall.top));
  if (h.perClass) {
    const per = classPies(h.perClass, nameOf);
    if (per) charts.push(per);
  }
  if (h.characteristics && h.characteristics.length > 0) {
    charts.push(...binCharts(h.characteristics));
    const heat = perClassBins(h.characteristics, nameOf);
    if (heat) charts.push(heat);
  }
  return charts;
}
