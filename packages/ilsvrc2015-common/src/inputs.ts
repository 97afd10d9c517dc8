import { inputError, ProblemCollector } from '@cvdevkit/core';
import { countInputLinesSync, forEachInputTextPieceSync, forEachLine, isFieldSpace, parseNumberRange, parseStrtod, readInputTextSync, visibleQuote } from '@cvdevkit/formats';
import type { Synsets } from './meta.js';

/**
 * A number token as the devkit's `textread('%f')` reads it (C `strtod` on the whole token): the one
 * number parser of `@cvdevkit/formats`.
 */
export const parseNumberToken = parseStrtod;

/** Reads a whole text file through the input layer (a regular file within the `text` cap); problems name the file. */
export function readText(file: string, what: string): string {
  return readInputTextSync(file, { expected: what });
}

export { forEachLine };

// ------------------------------------------------------------------------------------------ list

/** The image (or frame) list, `val.txt`: `<name> <index>` per line. */
export interface ImageList {
  file: string;
  /** Basenames (DET `ILSVRC2012_val_00000001`, VID `<snippet>/<frame>`), one per line. */
  names: string[];
  /** The index of each line (`gt_img_ids`). */
  ids: Float64Array;
  /** The 1-based line number of each entry. */
  lines: Int32Array;
}

export function parseImageList(text: string, file: string): ImageList {
  const problems = new ProblemCollector();
  const names: string[] = [];
  const ids: number[] = [];
  const lines: number[] = [];
  forEachLine(text, (f, line) => {
    if (f.length !== 2) {
      problems.add({ code: 'input/field-count', file, line, expected: '2 fields "<image name> <index>"', found: `${f.length}` });
      return;
    }
    const id = parseNumberToken(f[1]);
    if (id === undefined || !Number.isInteger(id)) {
      problems.add({ code: 'input/image-index', file, line, field: 'index', expected: 'an integer image index', found: visibleQuote(f[1]) });
      return;
    }
    names.push(f[0]);
    ids.push(id);
    lines.push(line);
  });
  problems.throwIfAny();
  if (names.length === 0) throw inputError({ code: 'input/empty', file, expected: 'at least one line "<image name> <index>"', found: 'an empty list' });
  return { file, names, ids: Float64Array.from(ids), lines: Int32Array.from(lines) };
}

export function readImageList(file: string): ImageList {
  return parseImageList(readText(file, 'an image list "<image name> <index>" per line'), file);
}

// ------------------------------------------------------------------------------------- blacklist

/** `<image index> <WNID>` pairs: detections of that class on that image are skipped. */
export interface Blacklist {
  file: string;
  imageIds: Float64Array;
  labels: Int32Array;
}

export function parseBlacklist(text: string, file: string, synsets: Synsets): Blacklist {
  const problems = new ProblemCollector();
  const ids: number[] = [];
  const labels: number[] = [];
  forEachLine(text, (f, line) => {
    if (f.length !== 2) {
      problems.add({ code: 'input/field-count', file, line, expected: '2 fields "<image index> <WNID>"', found: `${f.length}` });
      return;
    }
    const id = parseNumberToken(f[0]);
    if (id === undefined || !Number.isInteger(id)) {
      problems.add({ code: 'input/image-index', file, line, field: 'image index', expected: 'an integer image index', found: visibleQuote(f[0]) });
      return;
    }
    const label = synsets.labelOf.get(f[1]);
    if (label === undefined) {
      problems.add({ code: 'input/unknown-wnid', file, line, field: 'WNID', expected: `a WNID of the meta file ${synsets.file}`, found: visibleQuote(f[1]) });
      return;
    }
    ids.push(id);
    labels.push(label);
  });
  problems.throwIfAny();
  return { file, imageIds: Float64Array.from(ids), labels: Int32Array.from(labels) };
}

export function readBlacklist(file: string, synsets: Synsets): Blacklist {
  return parseBlacklist(readText(file, 'a blacklist "<image index> <WNID>" per line'), file, synsets);
}

// ----------------------------------------------------------------------------------- predictions

/** Detections in file order, in typed arrays. */
export interface Predictions {
  file: string;
  count: number;
  imageIds: Float64Array;
  labels: Float64Array;
  confidences: Float64Array;
  /** 4 per detection: xmin, ymin, xmax, ymax. */
  boxes: Float64Array;
  /** 1-based line of each detection in the file. */
  lines: Int32Array;
}

const PRED_FORMAT = '"<image_index> <class id> <confidence> <xmin> <ymin> <xmax> <ymax>"';
const PRED_FIELDS = ['image index', 'class id', 'confidence', 'xmin', 'ymin', 'xmax', 'ymax'];

export interface PredictionCheckOptions {
  /**
   * The image indices of the list: a detection on another index is reported in the same pass as the
   * syntax problems (`input/unknown-image`, as `evaluateDetections` with `outside: 'error'`).
   */
  imageIds?: ReadonlySet<number>;
}

/** Line feeds in `text` plus one: an upper bound on its records, so the columns are sized once. */
function countLines(text: string): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** A prediction file parsed a piece of text at a time (pieces end at line ends): `feed` each, then `finish`. */
interface PredictionParser {
  feed(text: string): void;
  finish(): Predictions;
}

/**
 * The parser of `parsePredictions`, its columns sized for `capacity` lines (grown only if more come):
 * per detection 60 bytes (image index, class id, confidence, 4 box numbers, line), nothing else kept.
 * Hot kernel, kept whole (> 80 lines): `feed`, `grow` and `finish` share the columns as closure locals.
 */
function predictionParser(file: string, options: PredictionCheckOptions, capacity: number): PredictionParser {
  const problems = new ProblemCollector();
  const known = options.imageIds;
  let cap = Math.max(1, capacity);
  let imageIds = new Float64Array(cap);
  let labels = new Float64Array(cap);
  let confidences = new Float64Array(cap);
  let boxes = new Float64Array(cap * 4);
  let lines = new Int32Array(cap);
  let n = 0;
  const vals = new Float64Array(7);
  let lineNo = 0;
  // Hot kernel (one pass over every byte of a file of up to millions of detections), kept whole: the
  // tokenizer, the typed columns and the problem checks share locals.
  function feed(text: string): void {
    const len = text.length;
    let pos = 0;
    while (pos < len) {
      let end = text.indexOf('\n', pos);
      if (end < 0) end = len;
      lineNo++;
      // tokens of this line
      let k = 0;
      let bad = -1;
      let badToken = '';
      let p = pos;
      for (;;) {
        while (p < end && isFieldSpace(text.charCodeAt(p))) p++;
        if (p >= end) break;
        const a = p;
        while (p < end && !isFieldSpace(text.charCodeAt(p))) p++;
        if (k < 7 && bad < 0) {
          const v = parseNumberRange(text, a, p);
          if (v === undefined) {
            bad = k;
            badToken = text.slice(a, p);
          } else vals[k] = v;
        }
        k++;
      }
      const line = lineNo;
      pos = end + 1;
      if (k === 0) continue;
      if (k !== 7) {
        problems.add({ code: 'input/field-count', file, line, expected: `7 fields ${PRED_FORMAT}`, found: `${k}` });
        continue;
      }
      if (bad >= 0) {
        problems.add({ code: 'input/number', file, line, field: PRED_FIELDS[bad], expected: 'a number', found: visibleQuote(badToken) });
        continue;
      }
      if (!Number.isInteger(vals[0]) || vals[0] < 1) {
        problems.add({ code: 'input/image-index', file, line, field: 'image index', expected: 'a positive integer image index', found: String(vals[0]) });
        continue;
      }
      if (known && !known.has(vals[0])) {
        problems.add({ code: 'input/unknown-image', file, line, field: 'image index', expected: 'an image index of the image list', found: String(vals[0]), hint: 'the official eval_detection.m fails on it' });
        continue;
      }
      if (!Number.isInteger(vals[1])) {
        problems.add({ code: 'input/class-id', file, line, field: 'class id', expected: 'an integer class id', found: String(vals[1]) });
        continue;
      }
      if (n === cap) grow();
      imageIds[n] = vals[0];
      labels[n] = vals[1];
      confidences[n] = vals[2];
      boxes[4 * n] = vals[3];
      boxes[4 * n + 1] = vals[4];
      boxes[4 * n + 2] = vals[5];
      boxes[4 * n + 3] = vals[6];
      lines[n] = line;
      n++;
    }
  }
  // only when the file grew after it was counted
  function grow(): void {
    cap *= 2;
    const grown = <T extends Float64Array | Int32Array>(a: T, m = 1): T => {
      const b = new (a.constructor as new (k: number) => T)(cap * m);
      b.set(a);
      return b;
    };
    imageIds = grown(imageIds);
    labels = grown(labels);
    confidences = grown(confidences);
    boxes = grown(boxes, 4);
    lines = grown(lines);
  }
  function finish(): Predictions {
    problems.throwIfAny();
    if (n === 0) {
      throw inputError({ code: 'input/empty', file, expected: `at least one detection ${PRED_FORMAT}`, found: 'an empty file', hint: 'the official eval_detection.m fails on an empty prediction file' });
    }
    // views, not copies: the columns were sized for the file (a copy would double the peak memory)
    return {
      file,
      count: n,
      imageIds: imageIds.subarray(0, n),
      labels: labels.subarray(0, n),
      confidences: confidences.subarray(0, n),
      boxes: boxes.subarray(0, 4 * n),
      lines: lines.subarray(0, n),
    };
  }
  return { feed, finish };
}

/**
 * Parses a prediction file, one detection per line:
 * `<image_index> <class id> <confidence> <xmin> <ymin> <xmax> <ymax>`.
 * The official `textread` reads a stream of tokens, so a short row silently shifts every later
 * record; here a line with another field count is an error naming the line. Image indices and
 * class ids must be integers (`%d`); an empty file is an error (the official code fails on it).
 */
export function parsePredictions(text: string, file: string, options: PredictionCheckOptions = {}): Predictions {
  const parser = predictionParser(file, options, countLines(text));
  parser.feed(text);
  return parser.finish();
}

/**
 * Reads a prediction file a piece at a time (`@cvdevkit/formats` text pieces, lines counted first so the
 * columns are allocated once): the file's text is never held whole, so memory is the 60 bytes a
 * detection of the columns plus one piece.
 */
export function readPredictions(file: string, options: PredictionCheckOptions & { pieceBytes?: number } = {}): Predictions {
  const expected = `a prediction file ${PRED_FORMAT} per line`;
  const parser = predictionParser(file, options, countInputLinesSync(file, { expected }));
  forEachInputTextPieceSync(file, { expected }, (text) => parser.feed(text), options.pieceBytes);
  return parser.finish();
}
