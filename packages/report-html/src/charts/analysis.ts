/**
 * Charts of `cvdevkit analyze` reports (the `analysis` object of @cvdevkit/analysis): mAP against the IoU
 * threshold and against the object-size threshold, Hoiem's false-positive types among the top-ranked false
 * positives (trend), the pies and APN-per-bin charts of `hoiem.ts`, TIDE's dAP per error type, the detection
 * confusion matrix (`detection-confusion.ts`) and F1 against the score threshold (`f1-threshold.ts`).
 */
import type { OverlapResult, Report, ReportAnalysis, SizeResult } from '@cvdevkit/core';
import { CATEGORY_COLOURS, PRIMARY } from '../theme.js';
import { chartSpec, displayName, finite, round6, rowsByKey, type ReportChart } from './common.js';
import { detectionConfusionCharts } from './detection-confusion.js';
import { f1Charts } from './f1-threshold.js';
import { hoiemCharts } from './hoiem.js';

/** A sweep: mAP per threshold (overlap, size). */
type Curve = Pick<OverlapResult, 'thresholds' | 'mAP'>;

function lineChart(id: string, title: string, description: string, subtitle: string, curve: Curve, xTitle: string): ReportChart {
  const values = curve.thresholds.map((t, k) => ({ t, mAP: finite(curve.mAP[k]) === undefined ? null : round6(curve.mAP[k]) }));
  return {
    id,
    title,
    description,
    spec: chartSpec(title, subtitle, {
      width: 420,
      height: 260,
      data: { values },
      mark: { type: 'line', point: true, color: PRIMARY },
      encoding: {
        x: { field: 't', type: 'quantitative', scale: { zero: true, nice: false, padding: 0 }, axis: { title: xTitle } },
        y: { field: 'mAP', type: 'quantitative', scale: { domain: [0, 1] }, axis: { title: 'mAP (0–1)' } },
        tooltip: [{ field: 't', title: 'threshold' }, { field: 'mAP', title: 'mAP' }],
        description: { field: 'mAP', type: 'quantitative' },
      },
    }),
  };
}

/**
 * Detection AP against size when the task's mean is undefined somewhere (ILSVRC: one class left without a
 * positive makes it NaN): the official-rule mAP and, dashed, the mean over the classes that still have a
 * positive, with their count on hover.
 */
function sizeWithPositivesChart(size: Required<SizeResult>): ReportChart {
  const official = "mAP (the task's mean)";
  const kept = 'mean over the classes with a positive left';
  // The kept series first, so the official line (drawn wider) is not hidden where the two agree.
  const values = size.thresholds.flatMap((t, k) => [
    { t, series: kept, mAP: finite(size.mAPWithPositives[k]) === undefined ? null : round6(size.mAPWithPositives[k]), classes: size.classesWithPositives[k] },
    { t, series: official, mAP: finite(size.mAP[k]) === undefined ? null : round6(size.mAP[k]), classes: size.perClass.length },
  ]);
  const title = 'mAP against the object size';
  return {
    id: 'ap-vs-size',
    title,
    description: "Object area as a fraction of the image (smaller objects marked difficult); 0 is the official mAP. The task's mean is undefined once a class has no object that large; the dashed line averages the classes that still have one (their number on hover).",
    spec: chartSpec(title, "smaller objects marked difficult; the task's mean is NaN once a class has no positive", {
      width: 420,
      height: 260,
      data: { values },
      layer: [
        { transform: [{ filter: { field: 'series', equal: official } }], mark: { type: 'line', point: true, strokeWidth: 3.5 } },
        { transform: [{ filter: { field: 'series', equal: kept } }], mark: { type: 'line', point: true, strokeWidth: 1.6 } },
      ],
      encoding: {
        x: { field: 't', type: 'quantitative', scale: { zero: true, nice: false, padding: 0 }, axis: { title: 'object-size threshold (fraction of the image)' } },
        y: { field: 'mAP', type: 'quantitative', scale: { domain: [0, 1] }, axis: { title: 'mAP (0–1)' } },
        color: { field: 'series', type: 'nominal', sort: [official, kept], scale: { domain: [official, kept], range: [PRIMARY, CATEGORY_COLOURS[1]] }, legend: { title: null, orient: 'bottom', direction: 'vertical', symbolType: 'stroke', symbolStrokeWidth: 2.5 } },
        strokeDash: { field: 'series', type: 'nominal', sort: [official, kept], scale: { domain: [official, kept], range: [[1, 0], [6, 3]] }, legend: { title: null, orient: 'bottom', direction: 'vertical', symbolType: 'stroke', symbolStrokeWidth: 2.5 } },
        tooltip: [{ field: 't', title: 'threshold' }, { field: 'series' }, { field: 'mAP', title: 'mAP' }, { field: 'classes', title: 'classes averaged' }],
      },
    }),
  };
}

/** AP per object-area range of the task's evaluation (bars), averaged over its IoU thresholds. */
function areaRangeChart(r: NonNullable<SizeResult['areaRanges']>): ReportChart {
  const values = r.names.map((name, k) => ({ range: `${name} (${r.lo[k]}–${r.hi[k] >= 1e10 ? '∞' : r.hi[k]})`, mAP: finite(r.mAP[k]) === undefined ? null : round6(r.mAP[k]) }));
  const title = 'mAP by object area';
  const subtitle = `area in px², ends inclusive · mean over ${r.thresholds.length} IoU threshold${r.thresholds.length === 1 ? '' : 's'}`;
  return {
    id: 'ap-by-area-range',
    title,
    description: 'Objects outside a range are ignored (and taken by the detection they match); unmatched detections outside it are ignored, as the evaluation does.',
    spec: chartSpec(title, subtitle, {
      width: 420,
      height: 220,
      data: { values },
      mark: { type: 'bar', color: PRIMARY },
      encoding: {
        x: { field: 'range', type: 'nominal', sort: null, axis: { title: 'object area', labelAngle: 0 } },
        y: { field: 'mAP', type: 'quantitative', scale: { domain: [0, 1] }, axis: { title: 'mAP (0–1)' } },
        tooltip: [{ field: 'range' }, { field: 'mAP' }],
      },
    }),
  };
}

export function analysisCharts(report: Report): ReportChart[] {
  const a: ReportAnalysis = report.analysis ?? {};
  const charts: ReportChart[] = [];
  if (a.overlap) {
    const avg = a.overlap.averaged;
    const subtitle = avg
      ? `0.5 and 0.75 = the evaluation's AP there; mean over its ${avg.thresholds.length} thresholds ${round6(avg.mAP)}`
      : 'the 0.5 point is the official mAP';
    charts.push(lineChart('ap-vs-overlap', 'mAP against the IoU threshold', `The official matching rerun at IoU 0.05 … 0.95; ${subtitle}.`, subtitle, a.overlap, 'IoU threshold'));
  }
  if (a.size?.areaRanges) charts.push(areaRangeChart(a.size.areaRanges));
  if (a.size && a.size.mAPWithPositives && a.size.mAP.some((v, k) => !Object.is(v, a.size!.mAPWithPositives![k]))) charts.push(sizeWithPositivesChart(a.size as Required<SizeResult>));
  else if (a.size) {
    const what = a.size.kind === 'classification' ? 'positives below the size removed' : 'smaller objects marked difficult';
    charts.push(lineChart('ap-vs-size', 'mAP against the object size', `Object area as a fraction of the image (${what}); 0 is the official mAP.`, what, a.size, 'object-size threshold (fraction of the image)'));
  }
  if (a.hoiem) {
    const types = ['Loc', 'Sim', 'Oth', 'BG'] as const;
    const values = a.hoiem.trendCounts.flatMap((n, k) => {
      const t = a.hoiem!.overall.trend[k];
      const total = types.reduce((s, x) => s + (t[x] ?? 0), 0);
      return types.map((type) => ({ n: String(n), type, share: total > 0 ? round6((t[type] ?? 0) / total) : 0 }));
    });
    const title = 'False-positive types among the top-ranked false positives';
    const description = "Hoiem et al.: Loc (poor box or duplicate), Sim (similar class), Oth (other class), BG (background), summed over classes for each class's top N false positives.";
    charts.push({
      id: 'hoiem-trend',
      title,
      description,
      spec: chartSpec(title, "each class's top N false positives, summed over classes", {
        width: 420,
        height: 260,
        data: { values },
        mark: 'bar',
        encoding: {
          x: { field: 'n', type: 'ordinal', sort: null, axis: { title: 'top N false positives per class', labelAngle: 0 } },
          y: { field: 'share', type: 'quantitative', stack: 'normalize', axis: { title: 'share of false positives', format: '.0%' } },
          color: { field: 'type', type: 'nominal', sort: types, scale: { domain: types, range: CATEGORY_COLOURS.slice(0, 4) } },
          tooltip: [{ field: 'n' }, { field: 'type' }, { field: 'share', format: '.1%' }],
        },
      }),
    });
    const rows = rowsByKey(report);
    charts.push(...hoiemCharts(a.hoiem, (key) => displayName(rows.get(key), key)));
  }
  if (a.tide) {
    const entries = [...Object.entries(a.tide.main).map(([k, v]) => ({ type: k, group: 'main', dAP: round6(v) })), ...Object.entries(a.tide.special).map(([k, v]) => ({ type: k, group: 'special', dAP: round6(v) }))];
    const unit = a.tide.units === 'percent' ? 'AP points (×100)' : 'AP (0–1)';
    const title = `TIDE error types (${a.tide.mode} mode)`;
    const description = 'The mAP gained by fixing each error type alone (main), and by removing every false positive or every miss (special).';
    charts.push({
      id: 'tide-dap',
      title,
      description,
      spec: chartSpec(title, 'mAP gained by fixing each type (main) or all FPs / misses (special)', {
        width: 420,
        height: 240,
        data: { values: entries },
        mark: 'bar',
        encoding: {
          x: { field: 'type', type: 'nominal', sort: null, axis: { title: null, labelAngle: 0 } },
          y: { field: 'dAP', type: 'quantitative', axis: { title: `dAP, ${unit}` } },
          color: { field: 'group', type: 'nominal', scale: { range: [PRIMARY, CATEGORY_COLOURS[3]] }, legend: { title: null } },
          tooltip: [{ field: 'type' }, { field: 'dAP' }],
        },
      }),
    });
  }
  if (a.confusion) charts.push(...detectionConfusionCharts(report, a.confusion));
  if (a.f1) charts.push(...f1Charts(report, a.f1));
  return charts;
}
