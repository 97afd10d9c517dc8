import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ProblemCollector } from '@cvdevkit/core';
import { clsScoresFromBytes, clsScoresInListOrder } from './cls-scores.js';
import { scoresInListOrder } from './cls.js';
import { parseLabelledList, parseLabelledListBytes } from './image-sets.js';
import { parseClsResults } from './results.js';

describe('clsScoresInListOrder', () => {
  const gtText = 'a 1\nb -1\nc 0\nd 1\n';

  it('puts scores in list order (last line wins, missing = -Inf) and reports unknown ids after the line problems', () => {
    const p = new ProblemCollector();
    const gt = parseLabelledList(gtText, 'car_val.txt', p);
    const r = clsScoresInListOrder('b 0.5\nzz 1\na 0.1\nb 0.7 x\nb 0.7\nc one\n', 'res.txt', gt, p);
    expect(Array.from(r.scores)).toEqual([0.1, 0.7, -Infinity, -Infinity]);
    expect(r.count).toBe(4);
    expect(p.problems.map((q) => [q.code, q.line])).toEqual([
      ['input/field-count', 4],
      ['input/number', 6],
      ['input/unknown-image', 2],
    ]);
  });

  it('gives the scores, count and problems of parseClsResults + scoresInListOrder on any text', () => {
    const id = fc.constantFrom('a', 'b', 'c', 'd', 'zz', '2010_000001');
    const num = fc.constantFrom('0.5', '-1', '1e3', 'Inf', '-inf', 'NaN', '-0', '.5', '5.', 'x', '0x10', '1e', '');
    const gap = fc.constantFrom(' ', '\t', '  ', '\r', '\v', '\f');
    const line = fc.array(fc.tuple(fc.oneof(id, num), gap), { maxLength: 4 }).map((fs) => fs.map(([f, g]) => f + g).join(''));
    fc.assert(
      fc.property(fc.array(line, { maxLength: 10 }), fc.boolean(), (lines, trailing) => {
        const text = lines.join('\n') + (trailing ? '\n' : '');
        const gt = parseLabelledList(gtText, 'car_val.txt', new ProblemCollector());
        const p1 = new ProblemCollector();
        const res = parseClsResults(text, 'res.txt', p1);
        const want = scoresInListOrder(gt, res, p1, 'image');
        const p2 = new ProblemCollector();
        const got = clsScoresInListOrder(text, 'res.txt', gt, p2);
        expect(Array.from(got.scores)).toEqual(Array.from(want));
        expect(got.count).toBe(res.count);
        expect(p2.problems).toEqual(p1.problems);
      }),
      { numRuns: 500 },
    );
  });
});

describe('clsScoresFromBytes', () => {
  const id = fc.constantFrom('a', 'b', 'c', 'd', 'zz', '2010_000001', 'é', '\uFEFFa', '\uFFFD');
  const num = fc.constantFrom('0.5', '-1', '1e3', 'Inf', '-inf', 'NaN', '-0', '.5', '5.', 'x', '0x10', '1e', '', '9007199254740993', '0.1234567890123456789012345', '½');
  const gap = fc.constantFrom(' ', '\t', '  ', '\r', '\v', '\f');
  const line = fc.array(fc.tuple(fc.oneof(id, num), gap), { maxLength: 4 }).map((fs) => fs.map(([f, g]) => f + g).join(''));
  const gtText = fc.constantFrom('a 1\nb -1\nc 0\nd 1\n', 'a 1\na -1\né 1\n', '\uFEFFa 1\nzz 0\n2010_000001 -1\n');

  it('gives the scores, count and problems of the text reader, as bytes from valid UTF-8 or not', () => {
    const junk = fc.constantFrom(Buffer.alloc(0), Buffer.from([0xff]), Buffer.from([0xc3]), Buffer.from([0xe2, 0x82]));
    fc.assert(
      fc.property(gtText, fc.array(line, { maxLength: 10 }), fc.boolean(), junk, (gtT, lines, bytesGt, tail) => {
        const bytes = Buffer.concat([Buffer.from(lines.join('\n'), 'utf8'), tail]);
        const text = bytes.toString('utf8');
        const gtBytes = Buffer.from(gtT, 'utf8');
        const gt = bytesGt ? parseLabelledListBytes(gtBytes, 'car_val.txt', new ProblemCollector()) : parseLabelledList(gtT, 'car_val.txt', new ProblemCollector());
        const p1 = new ProblemCollector();
        const want = clsScoresInListOrder(text, 'res.txt', parseLabelledList(gtT, 'car_val.txt', new ProblemCollector()), p1);
        const p2 = new ProblemCollector();
        const got = clsScoresFromBytes(bytes, 'res.txt', gt, p2);
        expect(Array.from(got.scores)).toEqual(Array.from(want.scores));
        expect(got.count).toBe(want.count);
        expect(p2.problems).toEqual(p1.problems);
      }),
      { numRuns: 400 },
    );
  });
});
