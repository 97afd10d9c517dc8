/**
 * The cls results of one class read straight into the ground-truth list's order: `parseClsResults` and
 * `scoresInListOrder` in one pass, for the start-up of `voc2010/cls` (twenty files of a few thousand lines
 * each, read while the JIT is still cold). Same lines, fields, numbers and problems, in the same order:
 * the line problems first, then the unknown images, as the two-pass reading gives them.
 */
import type { Problem, ProblemCollector } from '@cvdevkit/core';
import type { LabelledList } from './image-sets.js';
import { parseNumberRange, quote } from './text.js';

export interface ClsScores {
  /** Per listed image, its last result's confidence (-Inf without one). */
  scores: Float64Array;
  /** Result lines read (the `ndet` of the report). */
  count: number;
}

/**
 * A hot kernel: one loop over the characters, no string per line but the id looked up, no callback.
 * White space and lines as `forEachLine` (space, TAB, CR, VT, FF separate fields; LF ends a line).
 */
export function clsScoresInListOrder(text: string, file: string, gt: LabelledList, problems: ProblemCollector): ClsScores {
  const scores = new Float64Array(gt.keys.length).fill(-Infinity);
  const index = gt.index;
  const unknown: Problem[] = [];
  const n = text.length;
  let count = 0;
  let line = 1;
  let i = 0;
  while (i < n) {
    let c = text.charCodeAt(i);
    // skip blank space; an empty line only counts
    while (i < n && (c === 32 || c === 9 || c === 13 || c === 11 || c === 12)) c = text.charCodeAt(++i);
    if (i >= n) break;
    if (c === 10) {
      i++;
      line++;
      continue;
    }
    // the fields of this line: the first two kept as spans, the others counted
    let fields = 0;
    let a0 = 0;
    let a1 = 0;
    let b0 = 0;
    let b1 = 0;
    while (i < n && c !== 10) {
      const start = i;
      while (i < n && c !== 32 && c !== 9 && c !== 10 && c !== 13 && c !== 11 && c !== 12) c = text.charCodeAt(++i);
      if (fields === 0) {
        a0 = start;
        a1 = i;
      } else if (fields === 1) {
        b0 = start;
        b1 = i;
      }
      fields++;
      while (i < n && (c === 32 || c === 9 || c === 13 || c === 11 || c === 12)) c = text.charCodeAt(++i);
    }
    if (fields !== 2) {
      problems.add({ code: 'input/field-count', file, line, expected: '2 fields "<image> <confidence>"', found: `${fields}` });
    } else {
      const v = parseNumberRange(text, b0, b1);
      if (v === undefined) {
        problems.add({ code: 'input/number', file, line, field: 'confidence', expected: 'a number', found: quote(text.slice(b0, b1)) });
      } else {
        count++;
        const id = text.slice(a0, a1);
        const j = index.get(id);
        if (j === undefined) {
          unknown.push({
            code: 'input/unknown-image',
            file,
            line,
            expected: `an image of ${gt.file}`,
            found: quote(id),
            hint: 'the official devkit fails with "unrecognized image"',
          });
        } else scores[j] = v;
      }
    }
  }
  for (const p of unknown) problems.add(p);
  return { scores, count };
}
