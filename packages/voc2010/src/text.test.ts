import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { forEachLine, parseIntegerToken, parseStrtod } from './text.js';

function collect(text: string): { fields: string[]; line: number }[] {
  const out: { fields: string[]; line: number }[] = [];
  // forEachLine reuses its fields array from one line to the next: keep a copy
  forEachLine(text, (fields, line) => out.push({ fields: [...fields], line }));
  return out;
}

describe('forEachLine', () => {
  it('splits on any white space, skips blank lines, keeps 1-based line numbers', () => {
    expect(collect('a b\n\n  c\td  \r\n\x0blast')).toEqual([
      { fields: ['a', 'b'], line: 1 },
      { fields: ['c', 'd'], line: 3 },
      { fields: ['last'], line: 4 },
    ]);
    expect(collect('')).toEqual([]);
    expect(collect('\n\n')).toEqual([]);
  });

  it('round-trips rows of tokens joined by arbitrary white space', () => {
    const token = fc.stringMatching(/^[!-~]{1,10}$/);
    const sep = fc.constantFrom(' ', '\t', '  ', ' \t ');
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.array(token, { minLength: 1, maxLength: 6 }), sep, fc.boolean()), { maxLength: 30 }), (rows) => {
        const text = rows.map(([r, s, cr]) => r.join(s) + (cr ? '\r' : '')).join('\n');
        const got = collect(text);
        expect(got.map((g) => g.fields)).toEqual(rows.map(([r]) => r));
        expect(got.map((g) => g.line)).toEqual(rows.map((_, i) => i + 1));
      }),
    );
  });
});

describe('parseStrtod', () => {
  it('reads what strtod / textread %f read', () => {
    expect(parseStrtod('0.5')).toBe(0.5);
    expect(parseStrtod('1E2')).toBe(100);
    expect(parseStrtod('-2.5e+00')).toBe(-2.5);
    expect(parseStrtod('.5')).toBe(0.5);
    expect(parseStrtod('5.')).toBe(5);
    expect(Object.is(parseStrtod('-0'), -0)).toBe(true);
    expect(parseStrtod('Inf')).toBe(Infinity);
    expect(parseStrtod('inf')).toBe(Infinity);
    expect(parseStrtod('-Inf')).toBe(-Infinity);
    expect(parseStrtod('+infinity')).toBe(Infinity);
    expect(parseStrtod('NaN')).toBeNaN();
    expect(parseStrtod('nan')).toBeNaN();
    expect(parseStrtod('0.123456789012345678')).toBe(0.12345678901234568);
  });

  it('rejects junk, hex and empty text', () => {
    for (const bad of ['', 'abc', '0x10', '1e', '1.2.3', '--1', '1,5', 'Infx', '12abc']) expect(parseStrtod(bad), bad).toBeUndefined();
  });

  it('accepts exactly the strtod forms (against a regular-expression reference)', () => {
    const ref = (t: string): boolean => /^[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf(?:inity)?|nan)$/i.test(t);
    const ch = fc.constantFrom(...'0123456789.eE+-xXbBoOinfatyINFATY_ \u00a0\t'.split(''));
    fc.assert(
      fc.property(fc.array(ch, { maxLength: 10 }).map((a) => a.join('')), (t) => {
        expect(parseStrtod(t) !== undefined, JSON.stringify(t)).toBe(ref(t));
      }),
      { numRuns: 3000 },
    );
  });

  it('round-trips every double written by JavaScript or with %.17g', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true }), (x) => {
        const s = Object.is(x, -0) ? '-0' : x === Infinity ? 'Inf' : x === -Infinity ? '-Inf' : String(x);
        expect(Object.is(parseStrtod(s), x)).toBe(true);
        if (Number.isFinite(x) && !Object.is(x, -0)) expect(parseStrtod(x.toPrecision(17))).toBe(x);
      }),
    );
  });
});

describe('parseIntegerToken', () => {
  it('accepts signed digits only', () => {
    expect(parseIntegerToken('1')).toBe(1);
    expect(parseIntegerToken('-1')).toBe(-1);
    expect(parseIntegerToken('+0')).toBe(0);
    expect(parseIntegerToken('007')).toBe(7);
    for (const bad of ['1.0', 'a', '', '1e2', '99999999999999999999']) expect(parseIntegerToken(bad), bad).toBeUndefined();
  });
});
