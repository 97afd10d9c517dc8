/**
 * Text widths for Vega's headless layout. Without a canvas, Vega estimates every character as 0.8 em,
 * about 50 % wider than real sans-serif text: long axis titles then push the plot down and labels are
 * cut with "…" although they fit. Here a string is measured with the advance widths of Helvetica
 * (the standard Adobe font metrics, in 1/1000 em, ASCII 32–126), scaled by 1.08 to cover the slightly
 * wider DejaVu Sans that Linux browsers and the PNG renderer fall back to.
 */
const HELVETICA_ASCII = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556,
  1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556,
  333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
];
const FALLBACK = 600;
const SCALE = 1.08;

/** Width in pixels of `text` at `fontSize` px (bold text about 7 % wider). */
export function measureTextWidth(text: string, fontSize: number, bold = false): number {
  let units = 0;
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    units += code >= 32 && code <= 126 ? HELVETICA_ASCII[code - 32] : ch === '·' ? 278 : ch === '…' ? 1000 : FALLBACK;
  }
  return (units / 1000) * fontSize * SCALE * (bold ? 1.07 : 1);
}
