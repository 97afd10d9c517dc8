/** A chart's file: the SVG as drawn (with an XML prolog), or the PNG of that SVG through report-html's one SVG → PNG path. */
import type { ReportHtml } from '../report-html.js';

export async function chartFile(lib: ReportHtml, svg: string, format: 'svg' | 'png'): Promise<string | Buffer> {
  return format === 'png' ? lib.renderSvgPng(svg) : `<?xml version="1.0" encoding="UTF-8"?>\n${svg}\n`;
}
