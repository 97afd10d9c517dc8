/**
 * The "Top detections" section of an analyze page (VOC paper Figs. 20–25): per class the highest-ranked
 * true positives, false positives (with Hoiem's type) and near misses. With an images folder each is a
 * small crop of its image with the detection and the ground-truth box drawn (inline SVG over an embedded
 * JPEG, so the page stays one file); otherwise, and past the crop budget, the image id and the box.
 */
import type { Diagnostic, TopClass, TopEntry } from '@cvdevkit/core';
import { escapeHtml } from './escape.js';
import { findImageFile, makeCrop, type Crop } from './image-crops.js';

export interface TopSectionOptions {
  /** Folder of the test images (`<id>.jpg`); without it, ids and boxes only. */
  imagesDir?: string;
  /** Crops on the whole page at most (default 240: about 1.5 MiB of JPEG). */
  maxCrops?: number;
  /** Crops per list at most (default 6; fewer when the page budget is shared by many classes). */
  perList?: number;
  /** Longest side of a crop in pixels (default 160). */
  maxSide?: number;
  /** A class's readable name (default: its key). */
  nameOf?: (key: string) => string;
  /** Entries per list past the cards, as one compact line each (default: all; the page uses 5 above 40 classes). */
  listed?: number;
  /** `'xywh'`: the boxes are `[x, y, w, h]` (the report's `analysis.boxFormat`); default corners, +1 pixel. */
  boxFormat?: 'xywh';
}

/** A box as +1-pixel corners (what the crops draw), from the report's box layout. */
function corners(b: TopEntry['box'], format?: 'xywh'): TopEntry['box'] {
  return format === 'xywh' ? [b[0] + 1, b[1] + 1, b[0] + b[2], b[1] + b[3]] : b;
}

export interface TopSectionResult {
  html: string;
  /** Info diagnostics: images not found or not readable (each image once). */
  diagnostics: Diagnostic[];
  crops: number;
  cropBytes: number;
}

const LISTS = [
  ['truePositives', 'Highest-ranked true positives'],
  ['falsePositives', 'Highest-ranked false positives'],
  ['nearMisses', 'Near misses (false positives on images that contain the class)'],
] as const;

const num = (v: number, d = 3) => (Number.isFinite(v) ? Number(v.toFixed(d)).toString() : String(v));
const boxText = (b: readonly number[]) => `[${b.map((v) => num(v, 1)).join(', ')}]`;

/** Which entries get a crop: the first `perList` of each list, within the page budget, class by class. */
function cropPlan(top: readonly TopClass[], options: TopSectionOptions): Map<TopEntry, true> {
  const plan = new Map<TopEntry, true>();
  if (!options.imagesDir) return plan;
  const max = options.maxCrops ?? 240;
  const lists = top.reduce((s, c) => s + LISTS.filter(([k]) => c[k].length > 0).length, 0);
  const perList = Math.max(1, Math.min(options.perList ?? 6, Math.floor(max / Math.max(1, lists))));
  for (const c of top) for (const [k] of LISTS) for (const e of c[k].slice(0, perList)) if (plan.size < max) plan.set(e, true);
  return plan;
}

/** Time for all the crops of a page; entries left after it are shown by id and box. */
const CROPS_BUDGET_MS = 20_000;

/** Crops every planned entry (a few at a time: libvips uses its own threads too); each unreadable image is reported once. */
async function makeCrops(plan: Map<TopEntry, true>, dir: string, maxSide: number, format?: 'xywh'): Promise<{ crops: Map<TopEntry, Crop>; diagnostics: Diagnostic[] }> {
  const crops = new Map<TopEntry, Crop>();
  const failed = new Map<string, { file: string; why: string }>();
  const queue = [...plan.keys()];
  const deadline = Date.now() + CROPS_BUDGET_MS;
  const work = async (): Promise<void> => {
    for (let e = queue.shift(); e; e = queue.shift()) {
      if (failed.has(e.image)) continue;
      const file = findImageFile(dir, e.file ? e.file.replace(/\.(jpe?g|png)$/i, '') : e.image);
      const late = Date.now() > deadline;
      const crop = late
        ? `not cropped: the page's crops took their ${CROPS_BUDGET_MS / 1000} s`
        : file
          ? await makeCrop(file, (e.object ? [e.box, e.object.box] : [e.box]).map((b) => corners(b, format)), maxSide)
          : `no ${e.file ?? `${e.image}.jpg (or .jpeg, .png)`} in the images folder`;
      if (typeof crop === 'string') failed.set(e.image, { file: file ?? dir, why: crop });
      else crops.set(e, crop);
    }
  };
  await Promise.all([work(), work(), work(), work()]);
  const diagnostics: Diagnostic[] = [...failed].map(([id, f]) => ({ severity: 'info', code: 'analysis/image-unavailable', file: f.file, message: `top detections: image ${id}: ${f.why}; shown as its id and box` }));
  return { crops, diagnostics };
}

function rect(b: TopEntry['box'], cls: string): string {
  const [x, y, w, h] = [b[0] - 1, b[1] - 1, b[2] - b[0] + 1, b[3] - b[1] + 1];
  if (![x, y, w, h].every(Number.isFinite) || w <= 0 || h <= 0) return '';
  const a = `x="${num(x, 2)}" y="${num(y, 2)}" width="${num(w, 2)}" height="${num(h, 2)}" vector-effect="non-scaling-stroke"`;
  return `<rect class="halo" ${a}/><rect class="${cls}" ${a}/>`;
}

function cropSvg(e: TopEntry, c: Crop, label: string, side: number, format?: 'xywh'): string {
  const { x0, y0, x1, y1 } = c.region;
  const w = x1 - x0;
  const h = y1 - y0;
  // Shown at `side` px on the longest side whatever the crop's own resolution (small objects are enlarged).
  const k = side / Math.max(w, h);
  const clip = `<image href="${c.uri}" x="${x0}" y="${y0}" width="${w}" height="${h}" preserveAspectRatio="none"/>`;
  return `<svg class="crop" viewBox="${x0} ${y0} ${w} ${h}" width="${Math.max(1, Math.round(w * k))}" height="${Math.max(1, Math.round(h * k))}" role="img" aria-label="${escapeHtml(label)}">${clip}${e.object ? rect(corners(e.object.box, format), 'gt') : ''}${rect(corners(e.box, format), 'det')}</svg>`;
}

function caption(e: TopEntry, key: string): string {
  const what = e.type ? `<strong>${escapeHtml(e.type)}</strong> · ` : '';
  const obj = e.object ? `<br>${e.object.class === key ? '' : `${escapeHtml(e.object.class)} `}IoU ${num(e.object.iou, 2)}` : '';
  return `<figcaption>${what}#${e.rank} · ${num(e.score)}<br><code>${escapeHtml(e.image)}</code>${obj}</figcaption>`;
}

function entryHtml(e: TopEntry, key: string, crop: Crop | undefined, side: number, format?: 'xywh'): string {
  const label = `${key}: rank ${e.rank}, score ${num(e.score)}, image ${e.image}`;
  if (crop) return `<figure class="crop">${cropSvg(e, crop, label, side, format)}${caption(e, key)}</figure>`;
  const obj = e.object ? `<br>object ${escapeHtml(e.object.class)} <code>${escapeHtml(boxText(e.object.box))}</code> IoU ${num(e.object.iou, 2)}` : '';
  return `<figure class="crop text"><div class="nocrop"><code>${escapeHtml(e.image)}</code><br>${format === 'xywh' ? 'x y w h' : 'box'} <code>${escapeHtml(boxText(e.box))}</code>${obj}</div>${caption(e, key).replace(/<br><code>[^<]*<\/code>/, '')}</figure>`;
}

/** Entries planned for a crop as cards (the crop, or the id and box when the image is unavailable), then the rest as one compact line each. */
function listHtml(entries: readonly TopEntry[], key: string, crops: Map<TopEntry, Crop>, plan: Map<TopEntry, true>, options: TopSectionOptions): string {
  const side = options.maxSide ?? 160;
  const cards = entries.filter((e) => plan.has(e));
  const rest = entries.filter((e) => !plan.has(e));
  const shown = rest.slice(0, options.listed ?? rest.length);
  const more = shown
    .map((e) => `<li>${e.type ? `<strong>${escapeHtml(e.type)}</strong> · ` : ''}#${e.rank} · ${num(e.score)} · <code>${escapeHtml(e.image)}</code> ${options.boxFormat === 'xywh' ? 'x y w h' : 'box'} <code>${escapeHtml(boxText(e.box))}</code>${e.object ? ` · ${e.object.class === key ? '' : `${escapeHtml(e.object.class)} `}IoU ${num(e.object.iou, 2)}` : ''}</li>`)
    .join('');
  const hidden = rest.length > shown.length ? `<li>… ${rest.length - shown.length} more in the JSON report</li>` : '';
  return `${cards.length > 0 ? `<div class="crops">${cards.map((e) => entryHtml(e, key, crops.get(e), side, options.boxFormat)).join('')}</div>` : ''}${more ? `<ul class="more">${more}${hidden}</ul>` : ''}`;
}

/** The section's HTML, with the diagnostics of images that could not be shown. */
export async function topSection(top: readonly TopClass[], options: TopSectionOptions = {}): Promise<TopSectionResult> {
  if (options.nameOf) {
    const nameOf = options.nameOf;
    const named = (e: TopEntry): TopEntry => (e.object ? { ...e, object: { ...e.object, class: nameOf(e.object.class) } } : e);
    top = top.map((c) => ({ key: nameOf(c.key), truePositives: c.truePositives.map(named), falsePositives: c.falsePositives.map(named), nearMisses: c.nearMisses.map(named) }));
  }
  // Past 40 classes (ILSVRC's 200) each list shows its first entries only; the JSON report has them all.
  if (options.listed === undefined && top.length > 40) options = { ...options, listed: 5 };
  const plan = cropPlan(top, options);
  const { crops, diagnostics } = options.imagesDir ? await makeCrops(plan, options.imagesDir, options.maxSide ?? 160, options.boxFormat) : { crops: new Map<TopEntry, Crop>(), diagnostics: [] };
  let cropBytes = 0;
  for (const c of crops.values()) cropBytes += c.uri.length;
  const legend = crops.size > 0
    ? '<p class="crop-legend"><span class="key det"></span> detection <span class="key gt"></span> ground truth (the matched object, or the one it overlaps most) — each crop is its image around the two boxes.</p>'
    : `<p class="muted">${options.imagesDir ? 'No image could be read from the images folder' : 'No images folder (<code>--images &lt;dir&gt;</code>, or the task’s own images folder when its inputs have one)'}: detections are shown by image id and box.</p>`;
  const classes = top
    .map((c, i) => {
      const counts = LISTS.map(([k]) => c[k].length);
      const lists = LISTS.filter(([k]) => c[k].length > 0)
        .map(([k, title]) => `<h3>${escapeHtml(title)}</h3>${listHtml(c[k], c.key, crops, plan, options)}`)
        .join('');
      return `<details class="top-class"${i === 0 ? ' open' : ''}><summary><strong>${escapeHtml(c.key)}</strong> <span class="muted">${counts[0]} true positives · ${counts[1]} false positives · ${counts[2]} near misses</span></summary>${lists || '<p class="muted">No detections.</p>'}</details>`;
    })
    .join('\n');
  const budget = crops.size > 0 && plan.size < top.reduce((s, c) => s + LISTS.reduce((t, [k]) => t + c[k].length, 0), 0) ? `<p class="muted">${crops.size} crops (at most ${options.maxCrops ?? 240} per page, the first of each list); the rest by id and box.</p>` : '';
  return { html: `${legend}${budget}\n${classes}`, diagnostics, crops: crops.size, cropBytes };
}
