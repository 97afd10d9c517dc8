/**
 * The cls results of one class read straight into the ground-truth list's order: `parseClsResults` and
 * `scoresInListOrder` in one pass over the file (`readKeyNumberLines` of the input layer), for the start-up
 * of `voc2010/cls` (twenty files of a few thousand lines each, read while the JIT is still cold). Same
 * lines, fields, numbers and problems, in the same order: the line problems first, then the unknown
 * images, as the two-pass reading gives them.
 */
import { isUtf8 } from 'node:buffer';
import type { ProblemCollector } from '@cvdevkit/core';
import { decodeText, readKeyNumberBytes, readKeyNumberLines } from '@cvdevkit/formats/text';
import { byteKeysOf, type LabelledList } from './image-sets.js';
import { quote } from './text.js';

export interface ClsScores {
  /** Per listed image, its last result's confidence (-Inf without one). */
  scores: Float64Array;
  /** Result lines read (the `ndet` of the report). */
  count: number;
}

export function clsScoresInListOrder(text: string, file: string, gt: LabelledList, problems: ProblemCollector): ClsScores {
  const read = readKeyNumberLines(text, gt.index);
  for (const b of read.bad) {
    if (b.number === undefined) problems.add({ code: 'input/field-count', file, line: b.line, expected: '2 fields "<image> <confidence>"', found: `${b.fields}` });
    else problems.add({ code: 'input/number', file, line: b.line, field: 'confidence', expected: 'a number', found: quote(b.number) });
  }
  const scores = new Float64Array(gt.labels.length).fill(-Infinity);
  for (let k = 0; k < read.count; k++) {
    const j = read.position[k];
    if (j >= 0) scores[j] = read.value[k];
  }
  for (const u of read.unknown) {
    problems.add({
      code: 'input/unknown-image',
      file,
      line: read.line[u.record],
      expected: `an image of ${gt.file}`,
      found: quote(u.key),
      hint: 'the official devkit fails with "unrecognized image"',
    });
  }
  return { scores, count: read.count };
}

/**
 * `clsScoresInListOrder` of the file's bytes: the ids looked up as bytes in the list's byte index
 * (`readKeyNumberBytes`), no string per line; the same scores, count and problems. A file that is not
 * valid UTF-8 is decoded and read as text.
 */
export function clsScoresFromBytes(bytes: Buffer, file: string, gt: LabelledList, problems: ProblemCollector): ClsScores {
  if (!isUtf8(bytes)) return clsScoresInListOrder(decodeText(bytes, file, 'a results file'), file, gt, problems);
  const scores = new Float64Array(gt.labels.length).fill(-Infinity);
  const read = readKeyNumberBytes(bytes, byteKeysOf(gt), scores);
  for (const b of read.bad) {
    if (b.number === undefined) problems.add({ code: 'input/field-count', file, line: b.line, expected: '2 fields "<image> <confidence>"', found: `${b.fields}` });
    else problems.add({ code: 'input/number', file, line: b.line, field: 'confidence', expected: 'a number', found: quote(b.number) });
  }
  for (const u of read.unknown) {
    problems.add({
      code: 'input/unknown-image',
      file,
      line: u.line,
      expected: `an image of ${gt.file}`,
      found: quote(u.key),
      hint: 'the official devkit fails with "unrecognized image"',
    });
  }
  return { scores, count: read.count };
}
