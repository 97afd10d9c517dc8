import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { forEachLine, forEachLineSpans, parseLines, readKeyNumberLines, spanEquals } from './lines.js';
import { parseIntegerBytes, parseIntegerToken, parseNumberBytes, parseStrtod } from './numbers.js';
import { ByteKeyIndex } from './byte-keys.js';
import { readKeyLabelBytes, readKeyNumberBytes } from './byte-lines.js';

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

describe('byte readers', () => {
  const key = fc.constantFrom('a', 'b', 'zz', '2010_000001', 'é', '\uFEFFa');
  const num = fc.constantFrom('0.5', '-1', '1e3', 'Inf', '-inf', 'NaN', '-0', '.5', '5.', 'x', '0x10', '1e', '+3', '12345678901234567890', '1.00000000000000000000001');
  const gap = fc.constantFrom(' ', '\t', '  ', '\r', '\v', '\f');
  const line = fc.array(fc.tuple(fc.oneof(key, num), gap), { maxLength: 4 }).map((fs) => fs.map(([f, g]) => f + g).join(''));

  it('readKeyNumberBytes: the values, unknown keys and bad lines of readKeyNumberLines', () => {
    const keys = ['a', 'b', '2010_000001', 'é', 'a'];
    const index = ByteKeyIndex.fromStrings(keys);
    const map = new Map<string, number>();
    keys.forEach((k, i) => map.has(k) || map.set(k, i));
    fc.assert(
      fc.property(fc.array(line, { maxLength: 10 }), fc.boolean(), (lines, trailing) => {
        const text = lines.join('\n') + (trailing ? '\n' : '');
        const want = readKeyNumberLines(text, map);
        const wantOut = new Float64Array(keys.length).fill(-1);
        for (let k = 0; k < want.count; k++) if (want.position[k] >= 0) wantOut[want.position[k]] = want.value[k];
        const out = new Float64Array(keys.length).fill(-1);
        const got = readKeyNumberBytes(Buffer.from(text), index, out);
        expect(got.count).toBe(want.count);
        expect(Array.from(out)).toEqual(Array.from(wantOut));
        expect(got.unknown).toEqual(want.unknown.map((u) => ({ line: want.line[u.record], key: u.key })));
        expect(got.bad).toEqual(want.bad);
      }),
      { numRuns: 300 },
    );
  });

  it('readKeyLabelBytes: records, bad lines and repeated keys as forEachLine + parseIntegerToken give them', () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 10 }), (lines) => {
        const text = lines.join('\n');
        const recs: [string, number, number][] = [];
        const bad: { line: number; fields: number; number?: string }[] = [];
        forEachLine(text, (f, l) => {
          if (f.length !== 2) return void bad.push({ line: l, fields: f.length });
          const v = parseIntegerToken(f[1]);
          if (v === undefined) return void bad.push({ line: l, fields: 2, number: f[1] });
          recs.push([f[0], v, l]);
        });
        const got = readKeyLabelBytes(Buffer.from(text));
        expect(got.count).toBe(recs.length);
        expect(got.keys.keys()).toEqual(recs.map((r) => r[0]));
        expect(Array.from(got.label)).toEqual(Array.from(Int32Array.from(recs, (r) => r[1])));
        expect(Array.from(got.line)).toEqual(recs.map((r) => r[2]));
        expect(got.bad).toEqual(bad);
        const firstOf = new Map<string, number>();
        const dups: { record: number; first: number }[] = [];
        recs.forEach(([k], r) => (firstOf.has(k) ? dups.push({ record: r, first: firstOf.get(k)! }) : firstOf.set(k, r)));
        expect(got.duplicates).toEqual(dups);
        for (const [k, r] of firstOf) expect(got.keys.find(Buffer.from(k), 0, Buffer.byteLength(k))).toBe(r);
        expect(got.keys.find(Buffer.from('nope'), 0, 4)).toBe(-1);
      }),
      { numRuns: 300 },
    );
  });

  it('readKeyLabelBytes with copy: keys of its own survive the scratch buffer being overwritten; shared keys are the given ones', () => {
    const scratch = Buffer.from('b 1\na -1\nc 0\n');
    const own = readKeyLabelBytes(scratch, undefined, true);
    const shared = readKeyLabelBytes(Buffer.from('b 0\na 1\nc 1\n'), own.keys, true);
    expect(shared.keys).toBe(own.keys);
    scratch.fill(0x7a);
    expect(own.keys.keys()).toEqual(['b', 'a', 'c']);
    expect(own.keys.find(Buffer.from('c'), 0, 1)).toBe(2);
    expect(Array.from(shared.label)).toEqual([0, 1, 1]);
  });

  it('parseNumberBytes and parseIntegerBytes are parseStrtod and parseIntegerToken of the decoded token', () => {
    const token = fc.oneof(num, fc.stringMatching(/^[+-]?[0-9]{0,20}(\.[0-9]{0,25})?([eE][+-]?[0-9]{0,3})?$/), fc.string({ maxLength: 6 }));
    fc.assert(
      fc.property(token, (t) => {
        const b = Buffer.from(`x${t}y`);
        const end = b.length - 1;
        expect(Object.is(parseNumberBytes(b, 1, end), parseStrtod(t))).toBe(true);
        expect(Object.is(parseIntegerBytes(b, 1, end), parseIntegerToken(t))).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});
