import type { ProblemCollector } from '@cvdevkit/core';
import { actionKey } from './image-sets.js';
import { forEachLine, forEachLineSpans, parseIntegerToken, parseNumberRange, parseStrtod, quote } from './text.js';

/**
 * Readers of the text results files (white-space separated, one result per line; `textread` in the
 * official code). Numbers are read as `strtod` does (`Inf`, `NaN`, `-0`, `1E2` are fine).
 * Every problem of a file is added to the collector, each with file, line, expected and found.
 */

/** `<image> <confidence> <xmin> <ymin> <xmax> <ymax>` lines of `Main/<comp>_det_<set>_<cls>.txt`. */
export interface DetResults {
  file: string;
  count: number;
  /** The image id of each detection (empty when the file was read against an image set: see `imageOf`). */
  images: string[];
  /** With an image set: the set position of each detection's image (no strings are kept: 4 bytes a detection). */
  imageOf?: Int32Array;
  confidence: Float64Array;
  /** 4 per detection: xmin, ymin, xmax, ymax. */
  boxes: Float64Array;
  lines: Uint32Array;
}

export const DET_FIELDS = '6 fields "<image> <confidence> <xmin> <ymin> <xmax> <ymax>"';
export const BOX_NAMES = ['xmin', 'ymin', 'xmax', 'ymax'];

function numberProblem(problems: ProblemCollector, file: string, line: number, field: string, token: string): void {
  problems.add({ code: 'input/number', file, line, field, expected: 'a number', found: quote(token) });
}

/** Lines in `text` (an upper bound on its records), so the columns are sized once, never grown. */
function countLines(text: string): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** An image set to read the image ids against (`imageOf` instead of strings; an unknown id is a problem). */
export interface DetImageSet {
  file: string;
  index: ReadonlyMap<string, number>;
}

/**
 * Parses a detection results file. With `set`, each image id is looked up as it is read (an unknown one
 * is an `input/unknown-image` problem, as the official "unrecognized image") and only its position kept.
 */
export function parseDetResults(text: string, file: string, problems: ProblemCollector, set?: DetImageSet): DetResults {
  const images: string[] = [];
  const cap = countLines(text);
  const confidence = new Float64Array(cap);
  const boxes = new Float64Array(cap * 4);
  const lines = new Uint32Array(cap);
  const imageOf = set ? new Int32Array(cap) : undefined;
  let n = 0;
  // fields as spans of the text (no string per field): only the image id is sliced, numbers parse in place
  forEachLineSpans(text, 6, (f, line) => {
    if (f.count !== 6) {
      problems.add({ code: 'input/field-count', file, line, expected: DET_FIELDS, found: `${f.count}` });
      return;
    }
    const { starts, ends } = f;
    const conf = parseNumberRange(text, starts[1], ends[1]);
    if (conf === undefined) return numberProblem(problems, file, line, 'confidence', text.slice(starts[1], ends[1]));
    for (let k = 0; k < 4; k++) {
      const v = parseNumberRange(text, starts[2 + k], ends[2 + k]);
      if (v === undefined) return numberProblem(problems, file, line, BOX_NAMES[k], text.slice(starts[2 + k], ends[2 + k]));
      boxes[n * 4 + k] = v;
    }
    const image = text.slice(starts[0], ends[0]);
    if (set) {
      const j = set.index.get(image);
      if (j === undefined) {
        problems.add({ code: 'input/unknown-image', file, line, expected: `an image of ${set.file}`, found: quote(image), hint: 'the official devkit fails with "unrecognized image"' });
        imageOf![n] = -1;
      } else imageOf![n] = j;
    } else images.push(image);
    confidence[n] = conf;
    lines[n] = line;
    n++;
  });
  const out: DetResults = { file, count: n, images, confidence: confidence.subarray(0, n), boxes: boxes.subarray(0, n * 4), lines: lines.subarray(0, n) };
  if (imageOf) out.imageOf = imageOf.subarray(0, n);
  return out;
}

/** Scored keys: `<image> <confidence>` (cls) or `<image> <object> <confidence>` (action, key `image/object`). */
export interface ScoredResults {
  file: string;
  count: number;
  keys: string[];
  confidence: Float64Array;
  lines: Uint32Array;
}

export function parseClsResults(text: string, file: string, problems: ProblemCollector): ScoredResults {
  const keys: string[] = [];
  const conf: number[] = [];
  const lines: number[] = [];
  forEachLineSpans(text, 2, (f, line) => {
    if (f.count !== 2) {
      problems.add({ code: 'input/field-count', file, line, expected: '2 fields "<image> <confidence>"', found: `${f.count}` });
      return;
    }
    const c = parseNumberRange(text, f.starts[1], f.ends[1]);
    if (c === undefined) return numberProblem(problems, file, line, 'confidence', text.slice(f.starts[1], f.ends[1]));
    keys.push(text.slice(f.starts[0], f.ends[0]));
    conf.push(c);
    lines.push(line);
  });
  return { file, count: keys.length, keys, confidence: Float64Array.from(conf), lines: Uint32Array.from(lines) };
}

export function parseActionResults(text: string, file: string, problems: ProblemCollector): ScoredResults {
  const keys: string[] = [];
  const conf: number[] = [];
  const lines: number[] = [];
  forEachLine(text, (f, line) => {
    if (f.length !== 3) {
      problems.add({ code: 'input/field-count', file, line, expected: '3 fields "<image> <object index> <confidence>"', found: `${f.length}` });
      return;
    }
    const obj = parseIntegerToken(f[1]);
    if (obj === undefined) {
      problems.add({ code: 'input/number', file, line, field: 'object', expected: 'an integer object index', found: quote(f[1]) });
      return;
    }
    const c = parseStrtod(f[2]);
    if (c === undefined) return numberProblem(problems, file, line, 'confidence', f[2]);
    keys.push(actionKey(f[0], obj));
    conf.push(c);
    lines.push(line);
  });
  return { file, count: keys.length, keys, confidence: Float64Array.from(conf), lines: Uint32Array.from(lines) };
}
