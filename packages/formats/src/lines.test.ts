import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { forEachLine, forEachLineSpans, parseLines, spanEquals } from './lines.js';

describe('parseLines', () => {
  it('splits fields and keeps 1-based line numbers, skipping blank lines', () => {
    expect(parseLines('a b\n\n  c\td  \r\nlast')).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 3, fields: ['c', 'd'] },
      { line: 4, fields: ['last'] },
    ]);
  });

  it('round-trips tokens joined by arbitrary whitespace', () => {
    const token = fc.stringMatching(/^[A-Za-z0-9_.\-/]{1,8}$/);
    fc.assert(
      fc.property(fc.array(fc.array(token, { minLength: 1, maxLength: 5 }), { maxLength: 20 }), (rows) => {
        const text = rows.map((r) => r.join(' \t ')).join('\n');
        expect(parseLines(text).map((l) => l.fields)).toEqual(rows);
      }),
    );
  });
});

describe('forEachLineSpans', () => {
  const field = fc.stringMatching(/^[A-Za-z0-9_.\-/+]{1,6}$/);
  const gap = fc.constantFrom(' ', '\t', '  ', '\r', '\v', '\f');
  const lineText = fc.array(fc.tuple(field, gap), { maxLength: 5 }).map((fs) => fs.map(([f, g]) => f + g).join(''));

  it('gives the lines, line numbers and fields of forEachLine, past its capacity too', () => {
    fc.assert(
      fc.property(fc.array(lineText, { maxLength: 12 }), fc.integer({ min: 1, max: 4 }), (lines, max) => {
        const text = lines.join('\n');
        const want: [number, string[]][] = [];
        forEachLine(text, (f, line) => want.push([line, f]));
        const got: [number, string[]][] = [];
        forEachLineSpans(text, max, (s, line) => {
          const fields: string[] = [];
          for (let k = 0; k < Math.min(s.count, max); k++) fields.push(text.slice(s.starts[k], s.ends[k]));
          got.push([line, fields]);
          expect(s.count).toBe(want[got.length - 1][1].length);
        });
        expect(got).toEqual(want.map(([l, f]) => [l, f.slice(0, max)]));
      }),
    );
  });

  it('compares a span with a key without slicing', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.nat(), fc.nat(), (text, key, a, len) => {
        const s = Math.min(a, text.length);
        const e = Math.min(s + len, text.length);
        expect(spanEquals(text, s, e, key)).toBe(text.slice(s, e) === key);
      }),
    );
  });
});
