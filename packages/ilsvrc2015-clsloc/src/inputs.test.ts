import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isDevkitError, type DevkitError } from '@cvdevkit/core';
import { parseBlacklist, parseGroundTruthLabels, parsePredictions } from './inputs.js';

function failure(fn: () => unknown): DevkitError {
  try {
    fn();
  } catch (e) {
    if (isDevkitError(e)) return e;
    throw e;
  }
  throw new Error('expected a DevkitError');
}

describe('parsePredictions', () => {
  it('zero-pads short rows to the widest row and cuts at 5 guesses (dlmread + the official cut)', () => {
    const p = parsePredictions('1 1 2 3 4\n' + Array.from({ length: 7 }, (_, g) => `${g + 1} 0 0 9 9`).join(' ') + '\n', 'p.txt', 1000);
    expect(p.rows).toBe(2);
    expect(p.guesses).toBe(5);
    expect(p.widestRow).toBe(7);
    expect(Array.from(p.labels)).toEqual([1, 0, 0, 0, 0, 1, 2, 3, 4, 5]);
    expect(Array.from(p.boxes.subarray(0, 8))).toEqual([1, 2, 3, 4, 0, 0, 0, 0]);
  });

  it('accepts tabs, commas, CRLF, float and negative boxes, label 0 and 1001', () => {
    const p = parsePredictions('0\t-1.5,2e0 3 4 1001 1 1 2 2\r\n', 'p.txt', 1000);
    expect(Array.from(p.labels)).toEqual([0, 1001]);
    expect(Array.from(p.boxes.subarray(0, 4))).toEqual([-1.5, 2, 3, 4]);
    expect(p.invertedBoxes).toBe(0);
  });

  it('counts inverted boxes without rejecting them', () => {
    expect(parsePredictions('1 10 10 5 20\n', 'p.txt', 1000).invertedBoxes).toBe(1);
  });

  it('reports every problem with file:line, in line order', () => {
    const e = failure(() => parsePredictions('1 2 3\n5 x 1 2 3\n\n2000 1 1 2 2\n1.5 1 1 2 2\n', 'p.txt', 1000));
    expect(e.kind).toBe('input');
    expect(e.problems.map((p) => [p.line, p.code])).toEqual([
      [1, 'input/field-count'],
      [2, 'input/number'],
      [3, 'input/blank-line'],
      [4, 'input/label'],
      [5, 'input/label'],
    ]);
    expect(e.message).toContain('p.txt:1: expected a multiple of 5 fields');
    expect(e.message).toContain('p.txt:2 [field 2]: expected a decimal number, found "x"');
  });

  it('rejects an empty file', () => {
    expect(failure(() => parsePredictions('\n\n', 'p.txt', 1000)).code).toBe('input/empty');
  });

  it('round-trips any well-formed file (property)', () => {
    const group = fc.tuple(fc.integer({ min: 0, max: 1000 }), fc.array(fc.double({ min: -1e4, max: 1e4, noNaN: true }), { minLength: 4, maxLength: 4 }));
    fc.assert(
      fc.property(fc.array(fc.array(group, { minLength: 1, maxLength: 7 }), { minLength: 1, maxLength: 20 }), (rows) => {
        const text = rows.map((r) => r.map(([l, b]) => [l, ...b.map((x) => String(x))].join(' ')).join(' ')).join('\n');
        const p = parsePredictions(text, 'p.txt', 1000);
        const G = Math.min(5, Math.max(...rows.map((r) => r.length)));
        expect(p.rows).toBe(rows.length);
        expect(p.guesses).toBe(G);
        rows.forEach((r, i) => {
          for (let g = 0; g < G; g++) {
            expect(p.labels[i * G + g]).toBe(g < r.length ? r[g][0] : 0);
            for (let c = 0; c < 4; c++) expect(Object.is(p.boxes[(i * G + g) * 4 + c], g < r.length ? r[g][1][c] + 0 : 0) || p.boxes[(i * G + g) * 4 + c] === (g < r.length ? r[g][1][c] : 0)).toBe(true);
          }
        });
      }),
      { numRuns: 100 },
    );
  });
});

describe('parseGroundTruthLabels', () => {
  it('zero-pads multi-label rows and counts the labels', () => {
    const g = parseGroundTruthLabels('5\n6 7\n8 9 10\n', 'gt.txt', 1000);
    expect(g.width).toBe(3);
    expect(Array.from(g.labels)).toEqual([5, 0, 0, 6, 7, 0, 8, 9, 10]);
    expect(Array.from(g.counts)).toEqual([1, 2, 3]);
  });

  it('rejects 0, out-of-range and non-integer labels', () => {
    const e = failure(() => parseGroundTruthLabels('0\n1001\n1002\n2.5\n', 'gt.txt', 1000));
    expect(e.problems.map((p) => p.line)).toEqual([1, 3, 4]);
  });
});

describe('parseBlacklist', () => {
  it('keeps duplicates and order', () => {
    const b = parseBlacklist('3\n1\n3\n', 'bl.txt');
    expect(b.indices).toEqual([3, 1, 3]);
    expect(b.lines).toEqual([1, 2, 3]);
  });

  it('rejects indices < 1 and rows with several fields', () => {
    const e = failure(() => parseBlacklist('0\n1 2\n', 'bl.txt'));
    expect(e.problems.map((p) => [p.line, p.code])).toEqual([
      [1, 'input/image-index'],
      [2, 'input/field-count'],
    ]);
  });
});
