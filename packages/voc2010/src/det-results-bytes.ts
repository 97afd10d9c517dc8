/**
 * `parseDetResults` with an image set, over the file's bytes: no text string for the file (one of a few hundred
 * KiB, which V8 keeps in its large-object space until a full collection), no string per image id (ids are
 * looked up as byte spans in a `ByteKeyIndex`), numbers parsed in place (`parseNumberBytes`). The same lines,
 * fields, line numbers, records and problems as `parseDetResults(bytes.toString('utf8'), …)`: every separator
 * is an ASCII byte, which never occurs inside a UTF-8 sequence, so a field's bytes decode to the field's text.
 */
import type { ProblemCollector } from '@cvdevkit/core';
import { parseNumberBytes, type ByteKeyIndex } from '@cvdevkit/formats/text';
import type { DetImageSet, DetResults } from './results.js';
import { DET_FIELDS, BOX_NAMES } from './results.js';
import { quote } from './text.js';

/** The image set of `parseDetResultsBytes`: its string index (the answer for ids that are not plain UTF-8) and its byte index. */
export interface DetImageBytesSet extends DetImageSet {
  bytes: ByteKeyIndex;
}

/** Lines in `bytes` (an upper bound on its records): its line feeds + 1. */
function countLines(bytes: Uint8Array): number {
  let n = 1;
  for (let i = bytes.indexOf(10); i >= 0; i = bytes.indexOf(10, i + 1)) n++;
  return n;
}

/**
 * The set position of the image id `bytes[a, b)`, or -1. An id with a byte above 0x7f that the byte index does
 * not hold is decoded and looked up as a string: two different invalid UTF-8 sequences decode to the same text.
 */
function imagePosition(bytes: Buffer, a: number, b: number, set: DetImageBytesSet): number {
  const j = set.bytes.find(bytes, a, b);
  if (j >= 0) return j;
  for (let k = a; k < b; k++) if (bytes[k] > 0x7f) return set.index.get(bytes.toString('utf8', a, b)) ?? -1;
  return -1;
}

/**
 * Column storage that `parseDetResultsBytes` may reuse from file to file (for a loop that is done with one
 * file's detections before it reads the next): the arrays it gives are then views of these, valid until the
 * next parse given the same storage.
 */
export class DetColumns {
  confidence = new Float64Array(0);
  boxes = new Float64Array(0);
  lines = new Uint32Array(0);
  imageOf = new Int32Array(0);
  /** Room for `cap` detections (grown when needed). */
  reserve(cap: number): this {
    if (this.confidence.length < cap) {
      const n = Math.max(cap, Math.ceil(this.confidence.length * 1.5));
      this.confidence = new Float64Array(n);
      this.boxes = new Float64Array(n * 4);
      this.lines = new Uint32Array(n);
      this.imageOf = new Int32Array(n);
    }
    return this;
  }
}

/** Parses a detection results file's bytes against an image set (see the module comment); `columns`: see `DetColumns` (default: new arrays). */
export function parseDetResultsBytes(bytes: Buffer, file: string, problems: ProblemCollector, set: DetImageBytesSet, columns = new DetColumns()): DetResults {
  const { confidence, boxes, lines, imageOf } = columns.reserve(countLines(bytes));
  const starts = new Int32Array(6);
  const ends = new Int32Array(6);
  let n = 0;
  const numberProblem = (line: number, field: string, a: number, b: number): void => {
    problems.add({ code: 'input/number', file, line, field, expected: 'a number', found: quote(bytes.toString('utf8', a, b)) });
  };
  /** One non-blank line of `count` fields (the first six in `starts`/`ends`). */
  const onLine = (count: number, line: number): void => {
    if (count !== 6) {
      problems.add({ code: 'input/field-count', file, line, expected: DET_FIELDS, found: `${count}` });
      return;
    }
    const conf = parseNumberBytes(bytes, starts[1], ends[1]);
    if (conf === undefined) return numberProblem(line, 'confidence', starts[1], ends[1]);
    for (let k = 0; k < 4; k++) {
      const v = parseNumberBytes(bytes, starts[2 + k], ends[2 + k]);
      if (v === undefined) return numberProblem(line, BOX_NAMES[k], starts[2 + k], ends[2 + k]);
      boxes[n * 4 + k] = v;
    }
    const j = imagePosition(bytes, starts[0], ends[0], set);
    if (j < 0) {
      const image = bytes.toString('utf8', starts[0], ends[0]);
      problems.add({ code: 'input/unknown-image', file, line, expected: `an image of ${set.file}`, found: quote(image), hint: 'the official devkit fails with "unrecognized image"' });
    }
    imageOf[n] = j;
    confidence[n] = conf;
    lines[n] = line;
    n++;
  };
  // the lines and fields of `forEachLineSpans`, over bytes
  const size = bytes.length;
  let line = 1;
  let count = 0;
  let i = 0;
  while (i < size) {
    const c = bytes[i];
    if (c === 10) {
      if (count > 0) {
        onLine(count, line);
        count = 0;
      }
      line++;
      i++;
    } else if (c === 32 || c === 9 || c === 13 || c === 11 || c === 12) {
      i++;
    } else {
      const start = i;
      i++;
      while (i < size) {
        const d = bytes[i];
        if (d === 32 || d === 10 || d === 9 || d === 13 || d === 11 || d === 12) break;
        i++;
      }
      if (count < 6) {
        starts[count] = start;
        ends[count] = i;
      }
      count++;
    }
  }
  if (count > 0) onLine(count, line);
  return { file, count: n, images: [], imageOf: imageOf.subarray(0, n), confidence: confidence.subarray(0, n), boxes: boxes.subarray(0, n * 4), lines: lines.subarray(0, n) };
}
