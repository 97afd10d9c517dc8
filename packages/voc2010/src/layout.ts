import { ProblemCollector, isDevkitError, problemsToDiagnostics, type Diagnostic, type Problem, type Report, type RunContext, type ErrorCode } from '@cvdevkit/core';
import { str2double } from '@cvdevkit/formats';
import { childArray, childElement, childText, parseDevkitXml, type XmlElement, type XmlValue } from '@cvdevkit/formats/xml';
import { boxIoU, precisionRecall, rankDescending } from '@cvdevkit/metrics';
import { apMetric, apReport, type ApEntry } from './ap-report.js';
import { readVocRecords, type VocBox, type VocRecord } from './annotations.js';
import { layoutPerImage } from './per-image.js';
import { actionKey, parseLayoutList, readList, type LayoutList } from './image-sets.js';
import { quote, readTextInput } from './text.js';
import { resultsHint } from './path-hints.js';
import { VOC_MIN_OVERLAP, VOC_PARTS, layoutResultsPath, resolveVocPaths, type VocCommonOptions, type VocPaths } from './voc-options.js';

/** Options of `voc2010/layout`. */
export type VocLayoutOptions = VocCommonOptions;

/** One `<layout>` of the results XML. */
export interface LayoutPrediction {
  /** `<image>` text. */
  image: string;
  /** `<object>` text as written (for the warnings) and its value (`str2num`). */
  objectText: string;
  object: number;
  /** `str2double(<confidence>)`: unparsable text is NaN (ranked last). */
  confidence: number;
  /** Parts in file order: class index into VOC_PARTS and box (`str2double`; NaN never overlaps). */
  parts: { cls: number; bbox: VocBox }[];
  /** 1-based line of the `<layout>` tag, when known. */
  line?: number;
}

const PART_INDEX = new Map<string, number>(VOC_PARTS.map((p, i) => [p, i]));
const BOX = ['xmin', 'ymin', 'xmax', 'ymax'];

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

function lineOf(starts: number[], pos: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= pos) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

/**
 * Parses the layout results (`VOCreadxml` of `Layout/<comp>_layout_<set>.xml`):
 * `<results><layout><image/><object/><confidence/><part><class/><bndbox>…</bndbox></part>…</layout>…</results>`.
 * Missing elements and unknown part classes (the official `strmatch` fails on them) are problems.
 */
export function parseLayoutResults(text: string, file: string, problems: ProblemCollector): LayoutPrediction[] {
  let doc: XmlElement;
  try {
    doc = parseDevkitXml(text, file);
  } catch (e) {
    problems.addError(e);
    return [];
  }
  const root = doc.results;
  if (root === undefined || Array.isArray(root)) {
    problems.add({ code: 'input/xml', file, field: 'results', expected: 'one <results> root element', found: root === undefined ? `<${Object.keys(doc)[0]}>` : 'several' });
    return [];
  }
  const layouts: XmlValue[] = typeof root === 'object' ? childArray(root, 'layout') : [];
  const starts = lineStarts(text);
  const tagLines: number[] = [];
  for (const m of text.matchAll(/<layout(?=[\s>/])/g)) tagLines.push(lineOf(starts, m.index));
  const haveLines = tagLines.length === layouts.length;
  const out: LayoutPrediction[] = [];
  layouts.forEach((el, k) => {
    const line = haveLines ? tagLines[k] : undefined;
    const at = (field: string): Pick<Problem, 'file' | 'line' | 'field'> => ({ file, ...(line !== undefined ? { line } : {}), field: `layout[${k + 1}].${field}` });
    if (typeof el !== 'object') {
      problems.add({ code: 'input/layout', ...at('image'), expected: '<image>, <object>, <confidence> and <part> elements', found: quote(el) });
      return;
    }
    const image = childText(el, 'image');
    const objectText = childText(el, 'object');
    const confText = childText(el, 'confidence');
    let ok = true;
    for (const [name, v] of [['image', image], ['object', objectText], ['confidence', confText]] as const) {
      if (v === undefined || v === '') {
        problems.add({ code: 'input/layout', ...at(name), expected: `an <${name}> element with text`, found: 'none' });
        ok = false;
      }
    }
    const object = str2double(objectText);
    if (objectText && Number.isNaN(object)) {
      problems.add({ code: 'input/layout', ...at('object'), expected: 'an object index (a number)', found: quote(objectText) });
      ok = false;
    }
    const parts: LayoutPrediction['parts'] = [];
    childArray(el, 'part').forEach((p, j) => {
      const pf = `part[${j + 1}]`;
      const pel = typeof p === 'object' ? p : {};
      const cls = childText(pel, 'class');
      const ci = cls === undefined ? undefined : PART_INDEX.get(cls);
      if (ci === undefined) {
        problems.add({ code: 'input/layout-part', ...at(`${pf}.class`), expected: `a part class (${VOC_PARTS.join(', ')})`, found: cls === undefined ? 'none' : quote(cls) });
        ok = false;
        return;
      }
      const bb = childElement(pel, 'bndbox');
      if (!bb) {
        problems.add({ code: 'input/layout-part', ...at(`${pf}.bndbox`), expected: 'a <bndbox> with xmin, ymin, xmax, ymax', found: 'none' });
        ok = false;
        return;
      }
      parts.push({ cls: ci, bbox: BOX.map((b) => str2double(childText(bb, b))) as VocBox });
    });
    if (ok) out.push({ image: image!, objectText: objectText!, object, confidence: str2double(confText), parts, ...(line !== undefined ? { line } : {}) });
  });
  return out;
}

/** The listed persons' ground-truth parts (class index and box), and the positives per part class. */
export interface LayoutGroundTruth {
  parts: { cls: number; bbox: VocBox }[][];
  npos: number[];
}

export function layoutGroundTruth(list: LayoutList, records: Map<string, VocRecord>, paths: VocPaths, problems: ProblemCollector): LayoutGroundTruth {
  const npos = VOC_PARTS.map(() => 0);
  const parts = list.images.map((img, i) => {
    const rec = records.get(img);
    if (!rec) return [];
    const obj = rec.objects[list.objects[i] - 1];
    if (!obj) {
      problems.add({
        code: 'input/layout-object',
        file: list.file,
        line: list.lines[i],
        expected: `an object index <= ${rec.objects.length} (the objects of ${paths.annotation(img)})`,
        found: String(list.objects[i]),
      });
      return [];
    }
    return obj.parts.flatMap((p, k) => {
      const ci = PART_INDEX.get(p.name);
      if (ci === undefined) {
        problems.add({ code: 'input/annotation', file: paths.annotation(img), field: `object[${list.objects[i]}].part[${k + 1}].name`, expected: `a part class (${VOC_PARTS.join(', ')})`, found: quote(p.name) });
        return [];
      }
      npos[ci]++;
      return [{ cls: ci, bbox: p.bbox }];
    });
  });
  return { parts, npos };
}

export interface LayoutOutcome {
  entries: ApEntry[];
  warnings: Diagnostic[];
  /** With `perImage`: per part class, each ranked row's person (list position), layout confidence and whether it is its layout's first row. */
  ranked?: LayoutRanked[];
}

export interface LayoutRanked {
  person: number[];
  score: number[];
  first: number[];
  /** 1 = TP, 0 = FP (the part class's `tp` column). */
  tp: number[];
}

/**
 * `VOCevallayout_pr.m`: layouts in `sort(-confidence)` order (ties in file order); a layout whose
 * (image, object) is not listed is skipped with `unrecognized layout`, a second one for a person with
 * `duplicate layout`. Each predicted part, in file order, is a TP when its best-IoU ground-truth part
 * of the same class (strict `>`, first wins) has IoU >= 0.5 and is still free; otherwise an FP (no
 * fallback). Per part class the rows are in (layout rank, part order).
 */
export function evaluateLayoutPredictions(
  preds: readonly LayoutPrediction[],
  list: LayoutList,
  gt: LayoutGroundTruth,
  ap: (recall: ArrayLike<number>, precision: ArrayLike<number>) => number,
  resultsFile?: string,
  perImage = false,
): LayoutOutcome {
  const conf = Float64Array.from(preds, (p) => p.confidence);
  const order = rankDescending(conf, { nan: 'last' });
  const done = new Uint8Array(list.images.length);
  const tp: number[][] = VOC_PARTS.map(() => []);
  const fp: number[][] = VOC_PARTS.map(() => []);
  const ranked: LayoutRanked[] | undefined = perImage ? VOC_PARTS.map((_, c) => ({ person: [], score: [], first: [], tp: tp[c] })) : undefined;
  const warnings: Diagnostic[] = [];
  const warn = (code: ErrorCode, message: string, p: LayoutPrediction): void => {
    warnings.push({ severity: 'warning', code, message, ...(resultsFile ? { file: resultsFile } : {}), ...(p.line !== undefined ? { line: p.line } : {}) });
  };
  for (let r = 0; r < order.length; r++) {
    const p = preds[order[r]];
    const j = Number.isInteger(p.object) ? list.index.get(actionKey(p.image, p.object)) : undefined;
    if (j === undefined) {
      warn('layout/unrecognized', `unrecognized layout: image ${p.image}, object ${p.objectText}`, p);
      continue;
    }
    if (done[j]) {
      warn('layout/duplicate', `duplicate layout: image ${p.image}, object ${p.objectText}`, p);
      continue;
    }
    done[j] = 1;
    const gparts = gt.parts[j];
    const gtd = new Uint8Array(gparts.length);
    const seen = ranked ? new Uint8Array(VOC_PARTS.length) : undefined;
    for (const part of p.parts) {
      if (ranked && seen) {
        const rk = ranked[part.cls];
        rk.person.push(j);
        rk.score.push(p.confidence);
        rk.first.push(seen[part.cls] ? 0 : 1);
        seen[part.cls] = 1;
      }
      let ovmax = -Infinity;
      let jmax = -1;
      for (let g = 0; g < gparts.length; g++) {
        if (gparts[g].cls !== part.cls) continue;
        const ov = boxIoU(part.bbox, 0, gparts[g].bbox, 0);
        if (ov > ovmax) {
          ovmax = ov;
          jmax = g;
        }
      }
      if (jmax >= 0 && ovmax >= VOC_MIN_OVERLAP && !gtd[jmax]) {
        gtd[jmax] = 1;
        tp[part.cls].push(1);
        fp[part.cls].push(0);
      } else {
        tp[part.cls].push(0);
        fp[part.cls].push(1);
      }
    }
  }
  const entries = VOC_PARTS.map((name, c) => {
    const { recall, precision } = precisionRecall(tp[c], fp[c], gt.npos[c]);
    return { key: name, recall, precision, ap: ap(recall, precision), npos: gt.npos[c], ndet: tp[c].length };
  });
  return { entries, warnings, ...(ranked ? { ranked } : {}) };
}

interface LayoutInputs {
  paths: VocPaths;
  list?: LayoutList;
  preds: LayoutPrediction[];
  resultsFile: string;
}

async function readLayoutInputs(options: VocLayoutOptions, problems: ProblemCollector): Promise<LayoutInputs> {
  const paths = resolveVocPaths(options, 'layout');
  const list = await readList(paths.imageSet('Layout', paths.set), parseLayoutList, problems, 'the layout list "<image> <object>" lines');
  const resultsFile = layoutResultsPath(paths);
  const text = await readTextInput(resultsFile, 'the layout results XML', problems, () => resultsHint(resultsFile));
  const preds = text === undefined ? [] : parseLayoutResults(text, resultsFile, problems);
  return { paths, list, preds, resultsFile };
}

/** `voc2010/layout`: VOCevallayout_pr (per-part AP for head, hand, foot). */
export async function evaluateLayout(options: VocLayoutOptions, context: RunContext): Promise<Report> {
  const t0 = performance.now();
  const metric = apMetric(context);
  const problems = new ProblemCollector();
  const { paths, list, preds, resultsFile } = await readLayoutInputs(options, problems);
  if (!list) problems.throwIfAny();
  const images = [...new Set(list!.images)];
  const recs = await readVocRecords(images, { annotationsDir: paths.annotationsDir, path: paths.annotation, label: 'reading annotations' }, context, problems);
  const byImage = new Map<string, VocRecord>();
  images.forEach((im, i) => {
    if (recs[i]) byImage.set(im, recs[i]!);
  });
  const gt = layoutGroundTruth(list!, byImage, paths, problems);
  problems.throwIfAny();
  const t1 = performance.now();
  const { entries, warnings, ranked } = evaluateLayoutPredictions(preds, list!, gt, metric.ap, resultsFile, context.perImage === true);
  const t2 = performance.now();
  return apReport({
    task: 'voc2010/layout',
    metric: metric.name,
    entries,
    diagnostics: warnings,
    timings: { totalMs: t2 - t0, readMs: t1 - t0, evaluateMs: t2 - t1 },
    extra: {
      root: paths.root,
      set: paths.set,
      comp: paths.comp,
      results: paths.resultsDir,
      persons: list!.images.length,
      layouts: preds.length,
      ...(ranked ? { perImage: layoutPerImage(list!, gt, entries, ranked, metric.name) } : {}),
    },
  });
}

/**
 * Checks the layout results XML (structure, part classes) and the layout list, without scoring, and
 * reports what eval warns about: unrecognized and duplicate layouts, one line per kind (the count and
 * the first three).
 */
export async function validateLayout(options: VocLayoutOptions): Promise<Diagnostic[]> {
  const problems = new ProblemCollector(1000);
  let inputs: LayoutInputs | undefined;
  try {
    inputs = await readLayoutInputs(options, problems);
  } catch (e) {
    if (!(isDevkitError(e) && e.kind === 'input')) throw e;
  }
  const out = problemsToDiagnostics(problems, { message: 'bracketed', copyDetails: true });
  if (inputs?.list && inputs.preds.length > 0) {
    // the same ranking and skips as eval, without ground truth (no part is scored)
    const noGt: LayoutGroundTruth = { parts: inputs.list.images.map(() => []), npos: VOC_PARTS.map(() => 0) };
    const { warnings } = evaluateLayoutPredictions(inputs.preds, inputs.list, noGt, () => 0, inputs.resultsFile);
    out.push(...groupWarnings(warnings));
  }
  return out;
}

/** Repeated warnings as one line per code: the count and the first three (by line). */
function groupWarnings(warnings: Diagnostic[]): Diagnostic[] {
  const byCode = new Map<string, Diagnostic[]>();
  for (const w of warnings) byCode.set(w.code ?? '', [...(byCode.get(w.code ?? '') ?? []), w]);
  return [...byCode.values()].map((list) => {
    if (list.length === 1) return list[0];
    const sorted = [...list].sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
    const eg = sorted.slice(0, 3).map((w) => `line ${w.line}: ${w.message.replace(/^[a-z ]+: /, '')}`);
    const what = list[0].message.split(':')[0];
    return { ...list[0], line: undefined, message: `${list.length} × ${what} (${eg.join('; ')}${list.length > 3 ? '; …' : ''})` };
  });
}
