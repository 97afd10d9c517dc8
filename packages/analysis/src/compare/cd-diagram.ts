import type { CompareResult } from './compare.js';

export interface CdDiagramOptions {
  /** Width of the drawing in px (default 760). */
  width?: number;
  title?: string;
}

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The critical-difference diagram (Demšar 2006 Fig. 1, VOC paper Fig. 8) as SVG: an axis of mean rank
 * from k (left) to 1 (right, best); each method hangs off the axis at its mean rank, the better half to
 * the right and the worse half to the left, with its name and mean rank; the CD bar above the axis;
 * thick bars under the axis join each group of methods that are not significantly different.
 */
export function cdDiagramSvg(r: CompareResult, options: CdDiagramOptions = {}): string {
  const k = r.k;
  const width = options.width ?? 760;
  // room for "name (r.rr)" at 13 px (about 7.6 px per character) plus the line stub
  const textW = Math.min(280, Math.max(120, 7.6 * (Math.max(...r.methods.map((m) => m.name.length)) + 7) + 28));
  const x0 = textW + 10;
  const x1 = width - textW - 10;
  const x = (rank: number): number => x0 + ((k - rank) / Math.max(1, k - 1)) * (x1 - x0);
  const titleH = 28;
  const cdY = titleH + 22;
  const axisY = cdY + 38;
  const groups = r.posthoc?.groups ?? [];
  const groupGap = 9;
  const groupsTop = axisY + 14;
  const rowsTop = groupsTop + groups.length * groupGap + 16;
  const rowH = 24;
  const order = r.methods.map((m, j) => ({ name: m.name, rank: m.meanRank, j })).sort((a, b) => a.rank - b.rank || a.j - b.j);
  const nRight = Math.ceil(k / 2);
  const right = order.slice(0, nRight); // best first: top row
  const left = order.slice(nRight).reverse(); // worst first: top row
  const rows = Math.max(right.length, left.length);
  const height = rowsTop + rows * rowH + 12;
  const s: string[] = [];
  s.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="DejaVu Sans, Arial, Helvetica, sans-serif">`);
  s.push(`<rect width="100%" height="100%" fill="white"/>`);
  const title = options.title ?? `${r.task}: mean rank over ${r.blocks} classes (1 = best)`;
  s.push(`<text x="${width / 2}" y="18" font-size="14" font-weight="bold" text-anchor="middle">${esc(title)}</text>`);
  // axis with ticks at every integer rank and half ranks
  s.push(`<line x1="${x0}" y1="${axisY}" x2="${x1}" y2="${axisY}" stroke="black" stroke-width="1.5"/>`);
  for (let t = 1; t <= k; t++) {
    s.push(`<line x1="${x(t)}" y1="${axisY - 8}" x2="${x(t)}" y2="${axisY}" stroke="black" stroke-width="1.2"/>`);
    s.push(`<text x="${x(t)}" y="${axisY - 12}" font-size="12" text-anchor="middle">${t}</text>`);
    if (t < k) s.push(`<line x1="${x(t + 0.5)}" y1="${axisY - 4}" x2="${x(t + 0.5)}" y2="${axisY}" stroke="black" stroke-width="1"/>`);
  }
  // CD bar (from rank 1 leftwards by CD), as Demšar draws it above the axis at its left end
  const cd = r.posthoc?.cd ?? null;
  if (cd !== null && Number.isFinite(cd)) {
    const from = x0;
    const to = Math.min(x1, x0 + (cd / Math.max(1, k - 1)) * (x1 - x0));
    const y = cdY;
    s.push(`<line x1="${from}" y1="${y}" x2="${to}" y2="${y}" stroke="black" stroke-width="2"/>`);
    s.push(`<line x1="${from}" y1="${y - 5}" x2="${from}" y2="${y + 5}" stroke="black" stroke-width="1.5"/>`);
    s.push(`<line x1="${to}" y1="${y - 5}" x2="${to}" y2="${y + 5}" stroke="black" stroke-width="1.5"/>`);
    s.push(`<text x="${(from + to) / 2}" y="${y - 8}" font-size="12" text-anchor="middle">CD = ${cd.toFixed(2)}</text>`);
  }
  const label = r.posthoc ? `${r.posthoc.method}, α = ${r.posthoc.alpha}` : '';
  if (label) s.push(`<text x="${x1}" y="${cdY}" font-size="11" fill="#444" text-anchor="end">${esc(label)}</text>`);
  // method lines
  const drawSide = (list: typeof order, side: 'left' | 'right'): void => {
    list.forEach((m, i) => {
      const y = rowsTop + i * rowH;
      const xm = x(m.rank);
      const xe = side === 'right' ? x1 + 12 : x0 - 12;
      s.push(`<polyline points="${xm},${axisY} ${xm},${y} ${xe},${y}" fill="none" stroke="black" stroke-width="1.2"/>`);
      const tx = side === 'right' ? xe + 5 : xe - 5;
      const anchor = side === 'right' ? 'start' : 'end';
      s.push(`<text x="${tx}" y="${y + 4}" font-size="13" text-anchor="${anchor}">${esc(m.name)} <tspan fill="#555">(${m.rank.toFixed(2)})</tspan></text>`);
    });
  };
  drawSide(right, 'right');
  drawSide(left, 'left');
  // group bars, drawn last so they sit on top of the method lines
  const rankOf = new Map(r.methods.map((m) => [m.name, m.meanRank]));
  groups.forEach((g, i) => {
    const ranks = g.map((name) => rankOf.get(name)!);
    const y = groupsTop + i * groupGap;
    const a = x(Math.max(...ranks)) - 4;
    const b = x(Math.min(...ranks)) + 4;
    s.push(`<line x1="${a}" y1="${y}" x2="${b}" y2="${y}" stroke="black" stroke-width="4.5" stroke-linecap="round"/>`);
  });
  s.push('</svg>');
  return s.join('\n') + '\n';
}
