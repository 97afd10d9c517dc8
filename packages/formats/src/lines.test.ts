import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { forEachLine, forEachLineSpans, parseLines, readKeyNumberLines, spanEquals } from './lines.js';
import { parseStrtod } from './numbers.js';

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

describe('readKeyNumberLines', () => {
  it('gives the records, unknown keys and bad lines that forEachLine + parseStrtod give', () => {
    const key = fc.constantFrom('a', 'b', 'zz', '2010_000001');
    const num = fc.constantFrom('0.5', '-1', '1e3', 'Inf', '-inf', 'NaN', '-0', '.5', '5.', 'x', '0x10', '1e');
    const gap = fc.constantFrom(' ', '\t', '  ', '\r', '\v', '\f');
    const line = fc.array(fc.tuple(fc.oneof(key, num), gap), { maxLength: 4 }).map((fs) => fs.map(([f, g]) => f + g).join(''));
    const index = new Map([['a', 0], ['b', 1], ['2010_000001', 2]]);
    fc.assert(
      fc.property(fc.array(line, { maxLength: 10 }), fc.boolean(), (lines, trailing) => {
        const text = lines.join('\n') + (trailing ? '\n' : '');
        const records: [number, number, number][] = [];
        const unknown: [number, string][] = [];
        const bad: { line: number; fields: number; number?: string }[] = [];
        forEachLine(text, (f, l) => {
          if (f.length !== 2) return void bad.push({ line: l, fields: f.length });
          const v = parseStrtod(f[1]);
          if (v === undefined) return void bad.push({ line: l, fields: 2, number: f[1] });
          const at = index.get(f[0]);
          if (at === undefined) unknown.push([records.length, f[0]]);
          records.push([at ?? -1, v, l]);
        });
        const got = readKeyNumberLines(text, index);
        expect(got.count).toBe(records.length);
        for (let k = 0; k < got.count; k++) {
          expect(got.position[k]).toBe(records[k][0]);
          expect(Object.is(got.value[k], records[k][1])).toBe(true);
          expect(got.line[k]).toBe(records[k][2]);
        }
        expect(got.unknown.map((u) => [u.record, u.key])).toEqual(unknown);
        expect(got.bad).toEqual(bad);
      }),
      { numRuns: 500 },
    );
  });
});
