/**
 * The look shared by every chart: colour-blind-safe colours, labelled axes, text and rules drawn in
 * `currentColor` so one SVG reads on a light and on a dark page (the page sets `color`; a standalone
 * SVG file draws them black, and the PNG renderer sets a dark grey on white).
 */

/** Okabe & Ito (2008) without black: distinguishable under the common colour-vision deficiencies. */
export const CATEGORY_COLOURS = ['#0072B2', '#E69F00', '#009E73', '#D55E00', '#CC79A7', '#56B4E9', '#B8A200'] as const;
/** Dash patterns combined with the colours: 7 colours × 3 patterns tell 21 series apart. */
export const DASHES: number[][] = [[1, 0], [6, 3], [2, 2]];
/** The one colour of single-series marks (bars): Okabe–Ito blue, readable on white and on dark grey. */
export const PRIMARY = '#3D8FD1';
/** Second colour (a second series next to PRIMARY). */
export const SECONDARY = '#E69F00';
/** Colour of reference lines (iso-F contours, faint background curves). */
export const MUTED = '#8c8c8c';
/** Sequential, perceptually uniform, colour-blind-safe scheme for heat maps. */
export const HEAT_SCHEME = 'viridis';

export const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", "Liberation Sans", Arial, sans-serif';

/** The Vega-Lite `config` every chart spec carries (so a notebook re-renders the same picture). */
export function chartConfig(): Record<string, unknown> {
  const ink = 'currentColor';
  return {
    background: null,
    font: FONT,
    padding: 8,
    view: { stroke: ink, strokeOpacity: 0.25 },
    axis: {
      labelColor: ink,
      titleColor: ink,
      domainColor: ink,
      tickColor: ink,
      gridColor: ink,
      gridOpacity: 0.12,
      labelFontSize: 11,
      titleFontSize: 12,
      titleFontWeight: 'normal',
      labelLimit: 220,
    },
    legend: { labelColor: ink, titleColor: ink, labelFontSize: 11, titleFontSize: 12, titleFontWeight: 'normal', labelLimit: 260, titleLimit: 320, symbolStrokeWidth: 2 },
    header: { labelColor: ink, titleColor: ink, labelFontSize: 11, labelLimit: 0 },
    title: { color: ink, subtitleColor: ink, anchor: 'start', fontSize: 14, fontWeight: 'bold', subtitleFontSize: 11, subtitlePadding: 4, offset: 10 },
    text: { color: ink },
    rule: { color: ink },
    range: { category: [...CATEGORY_COLOURS] },
    line: { strokeWidth: 1.6 },
  };
}
