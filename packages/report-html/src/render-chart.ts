/**
 * Rendering a Vega-Lite spec without a browser: Vega-Lite compiles it to a Vega spec, Vega's headless
 * view (`renderer: 'none'`) draws the SVG text, and resvg (a native SVG rasteriser) turns the SVG into a
 * PNG. Vega and Vega-Lite are loaded on first use, so a report without charts never pays for them.
 */
import type { VegaLiteSpec } from './charts/common.js';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { runUmd } from './code-cache.js';
import { measureTextWidth } from './text-width.js';

type VegaModule = typeof import('vega');
type VegaLiteModule = typeof import('vega-lite');

let libraries: Promise<{ vega: VegaModule; vl: VegaLiteModule }> | undefined;

/** Whether this thread has loaded Vega and Vega-Lite (or begun to). */
export function chartLibrariesLoaded(): boolean {
  return libraries !== undefined;
}

/** Loads Vega and Vega-Lite now (the chart worker does at its start, before its first chart arrives). */
export function preloadChartLibraries(): Promise<unknown> {
  return loadLibraries();
}

function loadLibraries(): Promise<{ vega: VegaModule; vl: VegaLiteModule }> {
  libraries ??= loadBundles().then(({ vega, vl }) => {
    useMeasuredTextWidths(vega);
    return { vega, vl };
  });
  return libraries;
}

/**
 * Vega and Vega-Lite from their published single-file bundles (`build/vega.min.js`,
 * `build/vega-lite.min.js`, the files their package.json names for CDNs): one file each instead of the
 * ~90 ES modules of the `vega` entry, which Node takes 5–7× longer to load (≈ 60 ms against ≈ 400 ms
 * of CPU). The bundles are UMD; they are run with a CommonJS `module` of their own (no global is set).
 * If a bundle is missing (another layout of the packages), the ES module entries are imported. With a
 * code cache directory (`useChartCodeCache`), V8 reuses the bundles' compiled code of an earlier run.
 */
async function loadBundles(): Promise<{ vega: VegaModule; vl: VegaLiteModule }> {
  try {
    const vega = runUmd(siblingFile('vega', 'vega.min.js'), {}) as unknown as VegaModule;
    const vl = runUmd(siblingFile('vega-lite', 'vega-lite.min.js'), { vega }) as unknown as VegaLiteModule;
    if (typeof vega.View === 'function' && typeof vl.compile === 'function') return { vega, vl };
  } catch {
    // fall through to the module entries
  }
  const [vega, vl] = await Promise.all([import('vega'), import('vega-lite')]);
  return { vega, vl };
}

/** A file beside a package's entry point (resolved as `require` would: this module also runs bundled as CommonJS, in the chart worker). */
function siblingFile(pkg: string, name: string): string {
  return join(dirname(createRequire(import.meta.url).resolve(pkg)), name);
}

interface TextItem {
  text?: unknown;
  fontSize?: number;
  fontWeight?: string | number;
}

/** Replaces Vega's 0.8-em-per-character estimate with real sans-serif advance widths (see text-width.ts). */
function useMeasuredTextWidths(vega: VegaModule): void {
  const metrics = (vega as unknown as { textMetrics: unknown }).textMetrics as { width: (item: TextItem, text?: unknown) => number; estimateWidth: unknown };
  metrics.width = (item: TextItem, text?: unknown) => {
    const value = text ?? item.text;
    const s = Array.isArray(value) ? value.join(' ') : value == null ? '' : String(value);
    const bold = item.fontWeight === 'bold' || (typeof item.fontWeight === 'number' && item.fontWeight >= 600);
    return measureTextWidth(s, item.fontSize ?? 11, bold);
  };
  metrics.estimateWidth = metrics.width;
}

/** Problems Vega-Lite or Vega reported while rendering (unknown field, impossible encoding, …). */
export interface RenderOptions {
  /** Receives every warning instead of the console (default: warnings are dropped). */
  onWarning?: (message: string) => void;
}

function collector(onWarning: ((m: string) => void) | undefined) {
  const say = (...args: unknown[]) => onWarning?.(args.map(String).join(' '));
  let level = 2;
  const logger = {
    level(l?: number) {
      if (l === undefined) return level;
      level = l;
      return logger;
    },
    warn: say,
    info: () => logger,
    debug: () => logger,
    error: (...args: unknown[]) => {
      throw new Error(args.map(String).join(' '));
    },
  };
  return logger;
}

/** The SVG markup of a Vega-Lite spec (an `<svg>` element, no XML prolog). */
export async function renderVegaLiteSvg(spec: VegaLiteSpec, options: RenderOptions = {}): Promise<string> {
  const { vega, vl } = await loadLibraries();
  const logger = collector(options.onWarning);
  const compiled = vl.compile(spec as never, { logger: logger as never }).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: 'none', logger: logger as never, logLevel: vega.Warn });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

export interface PngOptions {
  /** Pixels per SVG unit (default 2: sharp on paper and on high-density screens). */
  scale?: number;
  /** Background colour (default white; `transparent` for none). */
  background?: string;
}

/** A PNG of an SVG (resvg, system fonts). */
export async function renderSvgPng(svg: string, options: PngOptions = {}): Promise<Buffer> {
  const { Resvg } = await import('@resvg/resvg-js');
  const background = options.background ?? 'white';
  const resvg = new Resvg(svg, {
    fitTo: { mode: 'zoom', value: options.scale ?? 2 },
    ...(background === 'transparent' ? {} : { background }),
    font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' },
  });
  return Buffer.from(resvg.render().asPng());
}

/** A PNG of a Vega-Lite spec. */
export async function renderVegaLitePng(spec: VegaLiteSpec, options: PngOptions & RenderOptions = {}): Promise<Buffer> {
  return renderSvgPng(await renderVegaLiteSvg(spec, options), options);
}
