/**
 * The critical-difference diagram (Demšar 2006, Fig. 1; Everingham et al. 2015, Fig. 8) as a Vega-Lite spec, rendered like
 * every other chart: an axis of mean rank from k (left) to 1 (right, best); each method hangs off the axis at its
 * mean rank, the better half to the right and the worse half to the left, labelled with its name and mean rank; the
 * CD bar above the axis at its left end; thick bars under the axis join each group of methods that are not
 * significantly different. The layout is computed here in pixels (the marks' scales are off), from measured text
 * widths, so labels never overlap whatever the number of methods or the length of their names.
 */
import type { ReportChart, VegaLiteSpec } from './common.js';
import { chartSpec } from './common.js';
import { measureTextWidth } from '../text-width.js';
import { chartConfig } from '../theme.js';

/** What the diagram draws: neutral data (the CLI builds it from a comparison). */
export interface CriticalDifferenceData {
  /** The chart's title (for example `task: mean rank over N classes (1 = best)`). */
  title: string;
  /** A line under the title (for example the test and its α). */
  subtitle?: string;
  /** Every method with its mean rank (1 = best), in any order. */
  methods: readonly { name: string; rank: number }[];
  /** The critical difference in rank units (no CD bar when null or not finite). */
  cd: number | null;
  /** Groups of method names that are not significantly different (one bar each). */
  groups: readonly (readonly string[])[];
}

const LABEL_SIZE = 13;
const TICK_SIZE = 12;
const ROW = 24;
const GROUP_GAP = 9;
/** Names longer than this are cut with "…" (the page's tables keep them whole). */
const MAX_NAME = 60;

const cut = (s: string) => ([...s].length > MAX_NAME ? [...s].slice(0, MAX_NAME - 1).join('') + '…' : s);

interface Segment {
  x: number;
  y: number;
  x2: number;
  y2: number;
  w: number;
}

interface Label {
  x: number;
  y: number;
  text: string;
}

const rules = (values: Segment[], extra: VegaLiteSpec = {}): VegaLiteSpec => ({
  data: { values },
  mark: { type: 'rule', ...extra },
  encoding: {
    x: { field: 'x', type: 'quantitative', scale: null, axis: null },
    y: { field: 'y', type: 'quantitative', scale: null, axis: null },
    x2: { field: 'x2' },
    y2: { field: 'y2' },
    strokeWidth: { field: 'w', type: 'quantitative', scale: null, legend: null },
  },
});

const texts = (values: Label[], mark: VegaLiteSpec): VegaLiteSpec => ({
  data: { values },
  mark: { type: 'text', ...mark },
  encoding: {
    x: { field: 'x', type: 'quantitative', scale: null, axis: null },
    y: { field: 'y', type: 'quantitative', scale: null, axis: null },
    text: { field: 'text', type: 'nominal' },
  },
});

/** The diagram's chart (id `cd-diagram`). */
export function criticalDifferenceChart(data: CriticalDifferenceData): ReportChart {
  const k = data.methods.length;
  const label = (m: { name: string; rank: number }) => `${cut(m.name)} (${m.rank.toFixed(2)})`;
  const order = data.methods.map((m, j) => ({ ...m, j })).sort((a, b) => a.rank - b.rank || a.j - b.j);
  const nRight = Math.ceil(k / 2);
  const right = order.slice(0, nRight); // best first: top row
  const left = order.slice(nRight).reverse(); // worst first: top row
  // room for each side's longest label and its line stub
  const sideWidth = (list: typeof order) => Math.max(60, ...list.map((m) => measureTextWidth(label(m), LABEL_SIZE))) + 24;
  const axisW = Math.max(300, 90 * Math.max(1, k - 1));
  const x0 = sideWidth(left) + 12; // rank k
  const x1 = x0 + axisW; // rank 1
  const width = x1 + 12 + sideWidth(right);
  const x = (rank: number): number => x0 + ((k - rank) / Math.max(1, k - 1)) * (x1 - x0);
  const cd = data.cd !== null && Number.isFinite(data.cd) ? data.cd : null;
  const cdY = cd === null ? 0 : 22;
  const axisY = cdY + 36;
  const groupsTop = axisY + 14;
  const rowsTop = groupsTop + data.groups.length * GROUP_GAP + 16;
  const height = rowsTop + Math.max(right.length, left.length, 1) * ROW - 8;

  const lines: Segment[] = [{ x: x0, y: axisY, x2: x1, y2: axisY, w: 1.5 }];
  const tickLabels: Label[] = [];
  for (let t = 1; t <= k; t++) {
    lines.push({ x: x(t), y: axisY - 8, x2: x(t), y2: axisY, w: 1.2 });
    tickLabels.push({ x: x(t), y: axisY - 11, text: String(t) });
    if (t < k) lines.push({ x: x(t + 0.5), y: axisY - 4, x2: x(t + 0.5), y2: axisY, w: 1 });
  }
  const centred: Label[] = [...tickLabels];
  if (cd !== null) {
    const to = Math.min(x1, x0 + (cd / Math.max(1, k - 1)) * (x1 - x0));
    lines.push({ x: x0, y: cdY, x2: to, y2: cdY, w: 2 }, { x: x0, y: cdY - 5, x2: x0, y2: cdY + 5, w: 1.5 }, { x: to, y: cdY - 5, x2: to, y2: cdY + 5, w: 1.5 });
    centred.push({ x: (x0 + to) / 2, y: cdY - 7, text: `CD = ${cd.toFixed(2)}` });
  }
  const rightLabels: Label[] = [];
  const leftLabels: Label[] = [];
  const hang = (list: typeof order, side: 'left' | 'right') =>
    list.forEach((m, i) => {
      const y = rowsTop + i * ROW;
      const xm = x(m.rank);
      const xe = side === 'right' ? x1 + 12 : x0 - 12;
      lines.push({ x: xm, y: axisY, x2: xm, y2: y, w: 1.2 }, { x: Math.min(xm, xe), y, x2: Math.max(xm, xe), y2: y, w: 1.2 });
      (side === 'right' ? rightLabels : leftLabels).push({ x: side === 'right' ? xe + 5 : xe - 5, y, text: label(m) });
    });
  hang(right, 'right');
  hang(left, 'left');
  const rankOf = new Map(data.methods.map((m) => [m.name, m.rank]));
  const bars: Segment[] = data.groups.map((g, i) => {
    const ranks = g.map((name) => rankOf.get(name) ?? NaN).filter((r) => Number.isFinite(r));
    const y = groupsTop + i * GROUP_GAP;
    return { x: x(Math.max(...ranks)) - 4, y, x2: x(Math.min(...ranks)) + 4, y2: y, w: 4.5 };
  });

  const spec = chartSpec(data.title, data.subtitle, {
    width,
    height,
    layer: [
      rules(lines),
      // group bars last among the lines, so they sit on top of the methods' lines
      rules(bars, { strokeCap: 'round' }),
      texts(centred, { fontSize: TICK_SIZE, align: 'center', baseline: 'bottom' }),
      texts(rightLabels, { fontSize: LABEL_SIZE, align: 'left', baseline: 'middle' }),
      texts(leftLabels, { fontSize: LABEL_SIZE, align: 'right', baseline: 'middle' }),
    ],
    config: { ...chartConfig(), view: { stroke: null } },
  });
  return {
    id: 'cd-diagram',
    title: 'Critical-difference diagram',
    description:
      'Mean rank of each method over the classes (1 = best, right). Methods joined by a thick bar are not significantly different; the CD bar is the smallest difference of mean ranks the post-hoc test calls significant.',
    spec,
  };
}
