import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ProblemCollector } from '@cvdevkit/core';
import { averagePrecisionArea } from '@cvdevkit/metrics';
import { evaluateScoredList, scoresInListOrder } from './cls.js';
import { parseLabelledList } from './image-sets.js';
import { parseClsResults } from './results.js';

describe('cls scoring', () => {
  it('puts scores in list order (last line wins, missing = -Inf) and reports unknown ids', () => {
    const p = new ProblemCollector();
    const gt = parseLabelledList('a 1\nb -1\nc 0\n', 'car_val.txt', p);
    const res = parseClsResults('b 0.5\na 0.1\nb 0.7\nzz 1\n', 'res.txt', p);
    const s = scoresInListOrder(gt, res, p, 'image');
    expect(Array.from(s)).toEqual([0.1, 0.7, -Infinity]);
    expect(p.problems).toMatchObject([{ code: 'input/unknown-image', file: 'res.txt', line: 4, found: '"zz"' }]);
  });

  it('ranks ties in list order, label 0 neither TP nor FP, NaN after -Inf', () => {
    const e = evaluateScoredList(Int32Array.of(-1, 1, 0, 1, 1), Float64Array.of(0.5, 0.5, 0.9, -Infinity, NaN), averagePrecisionArea, 'x', 4);
    // ranked: 2 (label 0), 0 (FP), 1 (TP), 3 (TP), 4 (TP)
    expect(Array.from(e.recall)).toEqual([0, 0, 1 / 3, 2 / 3, 1]);
    expect(Array.from(e.precision)).toEqual([NaN, 0, 0.5, 2 / 3, 0.75]);
    expect(e.npos).toBe(3);
  });

  it('always has one row per listed image and recall ends at 1 when there are positives', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom(-1, 0, 1), fc.double({ noNaN: false })), { minLength: 1, maxLength: 40 }), (rows) => {
        const e = evaluateScoredList(Int32Array.from(rows, (r) => r[0]), Float64Array.from(rows, (r) => r[1]), averagePrecisionArea, 'x', rows.length);
        expect(e.recall.length).toBe(rows.length);
        if (rows.some((r) => r[0] > 0)) expect(e.recall[rows.length - 1]).toBe(1);
        else expect(e.ap).toBeNaN();
      }),
    );
  });
});
