/**
 * Small multiples of 0–1 × 0–1 panels (recall across, precision up) drawn as one Vega-Lite view: every
 * datum carries the index `n` of its panel, and the layout's calculate transforms place it (`x`, `y` in
 * pixels); the frames, panel titles and axes are marks over rows of their own (`kind` 'panel' and
 * 'label'). The same picture as a facet, at about half the cost: a facet makes Vega parse and run its
 * inner spec again for every panel (one subflow each, and one more per line of a `detail` field inside),
 * which made the 13-panel BSDS chart the costliest chart of an ADE20K page (measured: 290–370 ms cold
 * against 130–185 ms; 770 M instructions against 440 M).
 *
 * Lines of several panels share one line mark: each series starts with a break row (`r` and `p` null), and
 * the marks break their paths there (`invalid: 'break-paths-filter-domains'`), so one path draws them all;
 * its hover name would name one panel only, so a line gets none (the panel's title names it).
 */
import { measureTextWidth } from '../text-width.js';
import type { VegaLiteSpec } from './common.js';

export interface PanelGridOptions {
  /** Panels per row. */
  columns: number;
  /** Side of a panel, in pixels. */
  size: number;
  /** The axis titles, under the last panel of each column and left of each row. */
  xTitle: string;
  yTitle: string;
  /** The labels of the x ticks at 0, 0.5 and 1 of a panel (default `0.0`, `0.5`, `1.0`): an axis mapped onto 0–1. */
  xTickLabels?: readonly string[];
}

export interface PanelGrid {
  /** The view's size, frame and layout transforms: spread into the chart's body. */
  body: VegaLiteSpec;
  /** The rows of the frames, titles and axes: appended to the chart's data. */
  values: VegaLiteSpec[];
  /** The marks of the frames, titles and axes: drawn first. */
  layers: VegaLiteSpec[];
  /** The position of a datum (its `r` and `p` in panel `n`). */
  x: VegaLiteSpec;
  y: VegaLiteSpec;
  /** The mark properties of a line of several panels (breaks at the break rows). */
  line: VegaLiteSpec;
}

/** Room above a panel for its title, between columns for the tick labels (at least), below a row. */
const TITLE_HEIGHT = 22;
const COLUMN_GAP = 28;
/** The widest a column grows for long titles, in panel sides (longer titles end in "…"). */
const MAX_PITCH = 1.5;
const ROW_GAP = 10;
const TICKS = [0, 0.5, 1];
const TITLE_FONT_SIZE = 11;
const TICK_FONT_SIZE = 11;
const AXIS_TITLE_FONT_SIZE = 12;

/** A row that starts a new line in a mark of several panels' lines. */
export function lineBreak(kind: string, n: number): VegaLiteSpec {
  return { kind, n, r: null, p: null };
}

/** The grid of `titles.length` panels, in the order of `titles`. */
export function panelGrid(titles: string[], options: PanelGridOptions): PanelGrid {
  const { columns, size } = options;
  const rows = Math.ceil(titles.length / columns);
  // columns as wide as the widest title (as a facet's headers), within limits
  const titleWidth = Math.max(0, ...titles.map((t) => measureTextWidth(t, TITLE_FONT_SIZE, true)));
  const pitchX = Math.round(Math.min(Math.max(titleWidth + 10, size + COLUMN_GAP), MAX_PITCH * size + COLUMN_GAP));
  const pitchY = TITLE_HEIGHT + size + ROW_GAP;
  const width = (Math.min(columns, titles.length) - 1) * pitchX + size;
  const height = (rows - 1) * pitchY + TITLE_HEIGHT + size;
  // a panel's left edge plus r panels; its top edge (under its title) plus 1 − p panels; null stays null (a break)
  const across = (r: string) => `${r} == null ? null : (datum.n % ${columns}) * ${pitchX} + ${r} * ${size}`;
  const down = (p: string) => `${p} == null ? null : floor(datum.n / ${columns}) * ${pitchY} + ${TITLE_HEIGHT} + (1 - ${p}) * ${size}`;
  // pixels in, pixels out: linear scales over the view (a path breaks only at invalid values of a scaled field)
  const at = (field: string, extent: number, range?: number[]) => ({ field, type: 'quantitative', scale: { domain: [0, extent], ...(range ? { range } : {}), nice: false, zero: false }, axis: null });
  const x = (field: string) => at(field, width);
  const y = (field: string) => at(field, height, [0, height]);

  const tickLabelWidth = measureTextWidth('0.0', TICK_FONT_SIZE);
  const values: VegaLiteSpec[] = [];
  titles.forEach((title, n) => {
    values.push({ kind: 'panel', n, title });
    const firstInRow = n % columns === 0;
    const lastInColumn = n + columns >= titles.length;
    for (const v of TICKS) {
      // left of the panel, centred on the tick (every tick label is as wide: one digit, a point, one digit)
      if (firstInRow) values.push({ kind: 'label', n, r: -(4 + tickLabelWidth / 2) / size, p: v, text: v.toFixed(1), dy: -TICK_FONT_SIZE / 2, angle: 0, size: TICK_FONT_SIZE });
      if (lastInColumn) values.push({ kind: 'label', n, r: v, p: 0, text: options.xTickLabels?.[TICKS.indexOf(v)] ?? v.toFixed(1), dy: 4, angle: 0, size: TICK_FONT_SIZE });
    }
    if (lastInColumn) values.push({ kind: 'label', n, r: 0.5, p: 0, text: options.xTitle, dy: 20, angle: 0, size: AXIS_TITLE_FONT_SIZE });
    // rotated a quarter turn back, the text's top faces left: its anchor left of the tick labels
    if (firstInRow) values.push({ kind: 'label', n, r: -40 / size, p: 0.5, text: options.yTitle, dy: 0, angle: 270, size: AXIS_TITLE_FONT_SIZE });
  });

  const ink = 'currentColor';
  const layers: VegaLiteSpec[] = [
    {
      transform: [{ filter: "datum.kind === 'panel'" }],
      mark: { type: 'rect', fill: null, stroke: ink, strokeOpacity: 0.25, aria: false },
      encoding: { x: x('left'), x2: { field: 'right' }, y: y('top'), y2: { field: 'bottom' } },
    },
    {
      transform: [{ filter: "datum.kind === 'panel'" }],
      mark: { type: 'text', fontSize: TITLE_FONT_SIZE, fontWeight: 'bold', baseline: 'bottom', dy: -5, limit: pitchX - 6, aria: false },
      encoding: { x: x('middle'), y: y('top'), text: { field: 'title' } },
    },
    // the tick labels and the axis titles (font size `size`): centred, hanging from their anchor (moved down by `dy`); one mark, as each costs Vega
    {
      transform: [{ filter: "datum.kind === 'label'" }, { calculate: 'datum.y + datum.dy', as: 'below' }],
      mark: { type: 'text', align: 'center', baseline: 'top', aria: false },
      encoding: { x: x('x'), y: y('below'), text: { field: 'text' }, angle: { field: 'angle', type: 'quantitative', scale: null }, size: { field: 'size', type: 'quantitative', scale: null, legend: null } },
    },
  ];
  return {
    body: {
      width,
      height,
      view: { stroke: null },
      transform: [
        { calculate: across('datum.r'), as: 'x' },
        { calculate: down('datum.p'), as: 'y' },
        { calculate: across('0'), as: 'left' },
        { calculate: across('1'), as: 'right' },
        { calculate: across('0.5'), as: 'middle' },
        { calculate: down('1'), as: 'top' },
        { calculate: down('0'), as: 'bottom' },
      ],
    },
    values,
    layers,
    x: x('x'),
    y: y('y'),
    line: { invalid: 'break-paths-filter-domains' },
  };
}
