import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isJsonColumnsError } from './errors.js';
import { parseNumber, type ParsedNumber } from './number.js';
import { bufferSource, readJsonColumns } from './reader.js';

const enc = new TextEncoder();
const src = (text: string) => bufferSource(enc.encode(text));

function num(text: string): number {
  const out: ParsedNumber = { value: 0, end: 0, integer: true };
  const b = enc.encode(text);
  parseNumber(b, 0, b.length, true, out);
  expect(out.end).toBe(b.length);
  return out.value;
}

describe('parseNumber', () => {
  it('equals Number() (correctly rounded) on the shortest text of any double', () => {
    fc.assert(fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (d) => Object.is(num(Object.is(d, -0) ? '-0' : String(d).replace('e+', 'e')), d)));
  });
  it('equals Number() on long and exponent forms', () => {
    const text = fc.tuple(fc.boolean(), fc.stringMatching(/^[1-9][0-9]{0,24}$/), fc.stringMatching(/^[0-9]{0,25}$/), fc.integer({ min: -340, max: 340 }), fc.boolean());
    fc.assert(
      fc.property(text, ([neg, int, frac, exp, withExp]) => {
        const t = `${neg ? '-' : ''}${int}${frac ? `.${frac}` : ''}${withExp ? `e${exp}` : ''}`;
        return Object.is(num(t), Number(t));
      }),
      { numRuns: 600 },
    );
  });
  it('keeps -0 and reads 0.1 + exponents', () => {
    expect(Object.is(num('-0'), -0)).toBe(true);
    expect(num('0.1')).toBe(0.1);
    expect(num('1E2')).toBe(100);
    expect(num('0.000001234')).toBe(0.000001234);
    expect(num('9007199254740993')).toBe(9007199254740992);
  });
});

describe('readJsonColumns', () => {
  const record = fc.record(
    {
      id: fc.integer({ min: -(2 ** 40), max: 2 ** 40 }),
      score: fc.double({ noNaN: true, noDefaultInfinity: true }),
      bbox: fc.array(fc.double({ noNaN: true, noDefaultInfinity: true }), { maxLength: 6 }),
      name: fc.string(),
      seg: fc.jsonValue(),
      other: fc.jsonValue(),
    },
    { requiredKeys: ['id'] },
  );

  it('reads any list of records at any chunk size as JSON.parse does', () => {
    fc.assert(
      fc.property(fc.array(record, { maxLength: 20 }), fc.integer({ min: 1, max: 64 }), fc.boolean(), (records, chunk, spaced) => {
        const text = JSON.stringify({ info: { a: [1, 2] }, annotations: records, tail: [{ x: 1 }] }, null, spaced ? 1 : undefined);
        const r = readJsonColumns(src(text), { root: 'object', lists: { annotations: { id: 'id', score: 'number', bbox: 'numbers', name: 'string', seg: 'value' } } }, { chunkSize: chunk });
        const a = r.lists.annotations;
        const back = JSON.parse(text) as { annotations: Record<string, unknown>[] };
        expect(a.count).toBe(records.length);
        expect(r.rootKeys).toEqual(['info', 'annotations', 'tail']);
        back.annotations.forEach((rec, i) => {
          expect(a.numbers.id[i]).toBe(rec.id);
          if (rec.score === undefined) expect(a.present.score[i]).toBe(0);
          else expect(Object.is(a.numbers.score[i], rec.score)).toBe(true);
          const l = a.lists.bbox;
          if (rec.bbox === undefined) expect(l.length[i]).toBe(-1);
          else expect(Array.from(l.values.subarray(l.start[i], l.start[i] + l.length[i]))).toEqual(rec.bbox);
          expect(a.strings.name[i]).toBe(rec.name);
          expect(a.values.seg[i]).toEqual(rec.seg);
        });
      }),
      { numRuns: 60 },
    );
  });

  it('sizes the columns from the bytes left and fills in fields first seen late (long lists, any chunk size)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2000 }), fc.integer({ min: 0, max: 2000 }), fc.integer({ min: 16, max: 4096 }), fc.boolean(), (n, from, chunk, trailer) => {
        const recs = Array.from({ length: n }, (_, i) => (i >= from ? { id: i, box: [i, i / 3, i % 7], s: `r${i}`, v: i % 2 ? { a: i } : [i], x: i * 0.5 } : { id: i, x: i * 0.5 }));
        const text = JSON.stringify(trailer ? { annotations: recs, tail: 'x'.repeat(5000) } : { annotations: recs });
        const r = readJsonColumns(src(text), { root: 'object', lists: { annotations: { id: 'id', x: 'number', box: 'numbers', s: 'string', v: 'value', late: 'number', gone: 'string' } } }, { chunkSize: chunk });
        const a = r.lists.annotations;
        expect(a.count).toBe(n);
        // dense lists (no holes: map and forEach see every record), also where a field came late or never
        for (const list of [a.strings.s, a.values.v, a.strings.gone]) expect(Object.keys(list).length).toBe(n);
        for (let i = 0; i < n; i++) {
          const late = i >= from;
          if (a.numbers.id[i] !== i || a.numbers.x[i] !== i * 0.5 || a.present.box[i] !== (late ? 1 : 0) || a.present.late[i] !== 0 || !Number.isNaN(a.numbers.late[i])) return false;
          const l = a.lists.box;
          if (late ? l.length[i] !== 3 || l.values[l.start[i] + 1] !== i / 3 : l.length[i] !== -1) return false;
          if (a.strings.s[i] !== (late ? `r${i}` : undefined)) return false;
          expect(a.values.v[i]).toEqual(late ? recs[i].v : undefined);
        }
        return a.lists.box.values.length === 3 * Math.max(0, n - from);
      }),
      { numRuns: 8 },
    );
  });

  it('keeps "__proto__" as an own key of a value, as JSON.parse does (never the prototype)', () => {
    const text = '[{"seg": {"__proto__": {"polluted": 1}, "a": 2}}]';
    const r = readJsonColumns(src(text), { root: 'array', record: { seg: 'value' } }, { chunkSize: 5 });
    const seg = r.lists[''].values.seg[0] as Record<string, unknown>;
    expect(seg).toEqual(JSON.parse(text)[0].seg);
    expect(Object.getPrototypeOf(seg)).toBe(Object.prototype);
    expect(Object.keys(seg)).toEqual(['__proto__', 'a']);
  });

  it('accepts NaN, Infinity and -Infinity as Python json does', () => {
    const r = readJsonColumns(src('[{"score": NaN, "bbox": [Infinity, -Infinity, 1, 2]}, {"score": -Infinity}]'), { root: 'array', record: { score: 'number', bbox: 'numbers' } }, { chunkSize: 3 });
    const c = r.lists[''];
    expect(c.numbers.score[0]).toBeNaN();
    expect(c.present.score[0]).toBe(1);
    expect(c.numbers.score[1]).toBe(-Infinity);
    expect(Array.from(c.lists.bbox.values)).toEqual([Infinity, -Infinity, 1, 2]);
  });

  it('true and false are 1 and 0 in number fields; a UTF-8 BOM is skipped', () => {
    const r = readJsonColumns(src('\ufeff[{"iscrowd": true}, {"iscrowd": false}]'), { root: 'array', record: { iscrowd: 'number' } });
    expect(Array.from(r.lists[''].numbers.iscrowd)).toEqual([1, 0]);
  });

  it('ids beyond 2^53 are an error, never rounded', () => {
    try {
      readJsonColumns(src('[{"id": 12345678901234567890}]'), { root: 'array', record: { id: 'id' } });
      expect.fail('expected an error');
    } catch (e) {
      expect(isJsonColumnsError(e) && e.reason).toBe('inexact-integer');
      expect(isJsonColumnsError(e) && e.found).toBe('12345678901234567890');
      expect(isJsonColumnsError(e) && e.path).toBe('[0].id');
    }
  });

  it('2^53 + 1 (read as 2^53) is refused too; 2^53 − 1 is exact and read', () => {
    const read = (id: string) => readJsonColumns(src(`[{"id": ${id}}]`), { root: 'array', record: { id: 'id' } });
    expect(() => read('9007199254740993')).toThrow(/9007199254740993/);
    expect(() => read('-9007199254740992')).toThrow(/inexact|2\^53/);
    expect(Array.from(read('9007199254740991').lists[''].numbers.id)).toEqual([9007199254740991]);
  });

  it('type and syntax errors name the byte offset, the record and the value', () => {
    const cases: [string, string, string | undefined][] = [
      ['[{"score": "high"}]', 'type', '[0].score'],
      ['[{"bbox": [1, [2]]}]', 'type', '[0].bbox'],
      ['[{"score": 1}, 7]', 'type', '[1]'],
      ['[{"score": 1},, ]', 'syntax', undefined],
      ['[{"score": 1}', 'syntax', undefined],
      ['[{"score": 1}] x', 'syntax', undefined],
      ['{"annotations": 3}', 'root', undefined],
    ];
    for (const [text, reason, path] of cases) {
      try {
        if (text.startsWith('{')) readJsonColumns(src(text), { root: 'object', lists: { annotations: { score: 'number' } } });
        else readJsonColumns(src(text), { root: 'array', record: { score: 'number', bbox: 'numbers' } }, { chunkSize: 4 });
        expect.fail(`expected an error for ${text}`);
      } catch (e) {
        if (!isJsonColumnsError(e)) throw e;
        expect(e.reason === reason || (reason === 'root' && e.reason === 'type'), `${text}: ${e.reason}`).toBe(true);
        if (path) expect(e.path).toBe(path);
        expect(e.offset).toBeGreaterThanOrEqual(0);
      }
    }
  });

  it('rejects what JSON.parse rejects (random byte strings)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (s) => {
        const text = `[${s}]`;
        let ok = true;
        try {
          JSON.parse(text);
        } catch {
          ok = false;
        }
        let mine = true;
        try {
          readJsonColumns(src(text), { root: 'array', record: {} }, { chunkSize: 5 });
        } catch (e) {
          if (!isJsonColumnsError(e)) throw e;
          mine = false;
        }
        // the reader accepts NaN/Infinity (Python) and needs records (objects) in the list
        if (/NaN|Infinity/.test(s)) return true;
        if (ok) {
          const v = JSON.parse(text) as unknown[];
          return mine === v.every((x) => typeof x === 'object' && x !== null && !Array.isArray(x));
        }
        return mine === false;
      }),
      { numRuns: 500 },
    );
  });
});

describe("readJsonColumns: 'rle' fields", () => {
  type Cols = ReturnType<typeof readJsonColumns>['lists'][string];
  /** Record i's rle field as the value it stands for (the byte form rebuilt as an object). */
  function rebuilt(c: Cols, field: string, i: number): unknown {
    const r = c.rles[field];
    if (r.length[i] < 0) return c.values[field][i];
    let counts = '';
    for (let k = r.start[i]; k < r.start[i] + r.length[i]; k++) counts += String.fromCharCode(r.bytes[k]);
    return { size: [r.h[i], r.w[i]], counts };
  }
  const ascii = fc.string({ unit: fc.constantFrom(...'0123456789:;<=>?@ABCXYZ[\\]^_`abcnoz "\t/é'.split('')), maxLength: 40 });
  const plain = fc.record({ size: fc.tuple(fc.oneof(fc.nat(5000), fc.double({ noNaN: true, noDefaultInfinity: true })), fc.oneof(fc.nat(5000), fc.integer({ min: -3, max: 3 }))), counts: ascii });
  const seg = fc.oneof(
    plain,
    plain.map(({ size, counts }) => ({ counts, size })),
    plain.map((v) => ({ ...v, extra: 1 })),
    fc.record({ size: fc.tuple(fc.nat(9), fc.nat(9)), counts: fc.array(fc.nat(30), { maxLength: 6 }) }),
    fc.array(fc.array(fc.double({ noNaN: true, noDefaultInfinity: true }), { maxLength: 8 }), { maxLength: 3 }),
    fc.jsonValue(),
  );

  it('reads any value as JSON.parse does, at any chunk size and spacing; the plain form as bytes', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ id: fc.nat(), seg }, { requiredKeys: ['id'] }), { maxLength: 12 }), fc.integer({ min: 1, max: 48 }), fc.boolean(), (records, chunk, spaced) => {
        const text = JSON.stringify(records, null, spaced ? 1 : undefined);
        const c = readJsonColumns(src(text), { root: 'array', record: { id: 'id', seg: 'rle' } }, { chunkSize: chunk }).lists[''];
        const back = JSON.parse(text) as { seg?: unknown }[];
        expect(c.count).toBe(back.length);
        back.forEach((rec, i) => {
          expect(c.present.seg[i]).toBe(rec.seg === undefined ? 0 : 1);
          expect(rebuilt(c, 'seg', i)).toEqual(rec.seg);
          const s = rec.seg as { size?: unknown; counts?: unknown } | undefined;
          const isPlain =
            typeof s === 'object' && s !== null && !Array.isArray(s) && Object.keys(s).join() === 'size,counts' && typeof s.counts === 'string' && /^[\x20-\x7f]*$/.test(s.counts) && !s.counts.includes('"') && Array.isArray(s.size) && s.size.length === 2 && s.size.every((x) => typeof x === 'number');
          expect(c.rles.seg.length[i] >= 0).toBe(isPlain);
          if (isPlain) expect(c.values.seg[i]).toBeUndefined();
        });
      }),
      { numRuns: 150 },
    );
  });

  it("fails exactly as a 'value' field on any broken value (reason, message, offset, path)", () => {
    const token = fc.constantFrom('{', '}', '[', ']', ',', ':', ' ', '"size"', '"counts"', '"5:e2"', '"a\\u0041"', '"\\', '"5\\\\e\\\\"', '\\\\', '12', '-', '-1', '1e', 'NaN', '-Infinity', 'true', 'null', '"é"');
    const read = (text: string, kind: 'rle' | 'value', chunk: number) => {
      try {
        const c = readJsonColumns(src(text), { root: 'array', record: { seg: kind } }, { chunkSize: chunk }).lists[''];
        return { ok: Array.from({ length: c.count }, (_, i) => (kind === 'rle' ? rebuilt(c, 'seg', i) : c.values.seg[i])) };
      } catch (e) {
        if (!isJsonColumnsError(e)) throw e;
        return { reason: e.reason, message: e.message, offset: e.offset, path: e.path, expected: e.expected, found: e.found };
      }
    };
    fc.assert(
      fc.property(fc.array(token, { maxLength: 14 }), fc.integer({ min: 1, max: 24 }), (tokens, chunk) => {
        const text = `[{"seg": {"size": [3, 4], "counts": "5:e2"}}, {"seg": ${tokens.join('')}}]`;
        expect(read(text, 'rle', chunk)).toEqual(read(text, 'value', 1 << 16));
      }),
      { numRuns: 600 },
    );
  });

  it('a sink sees every value in the byte form once, with its record, and keeps only what it says', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ id: fc.nat(), k: fc.integer({ min: -5, max: 5 }), seg }, { requiredKeys: ['id'] }), { maxLength: 12 }),
        fc.integer({ min: 1, max: 48 }),
        fc.boolean(),
        (records, chunk, spaced) => {
          const text = JSON.stringify(records, null, spaced ? 1 : undefined);
          const layout = { root: 'array', record: { id: 'id', k: 'number', seg: 'rle' } } as const;
          const all = readJsonColumns(src(text), layout, { chunkSize: chunk }).lists[''];
          const seen: { i: number; h: number; w: number; text: string; id: number; k: number; hasK: boolean }[] = [];
          const sink = (i: number, h: number, w: number, bytes: Uint8Array, start: number, end: number, r: { number(n: string): number; has(n: string): boolean }) => {
            seen.push({ i, h, w, text: String.fromCharCode(...bytes.subarray(start, end)), id: r.number('id'), k: r.number('k'), hasK: r.has('k') });
            return r.number('id') % 2 === 0; // keep the even ids
          };
          const some = readJsonColumns(src(text), layout, { chunkSize: chunk, rleSinks: { '': { seg: sink } } }).lists[''];
          const back = JSON.parse(text) as { id: number; k?: number }[];
          // seen: exactly the records whose value is in the byte form, in order, with their bytes and fields
          const expected = back.flatMap((rec, i) => (all.rles.seg.length[i] >= 0 ? [{ i, h: all.rles.seg.h[i], w: all.rles.seg.w[i], text: rebuilt(all, 'seg', i) as { counts: string }, id: rec.id, k: rec.k ?? NaN, hasK: rec.k !== undefined }] : []));
          expect(seen).toEqual(expected.map((e) => ({ ...e, text: e.text.counts })));
          back.forEach((rec, i) => {
            const inBytes = all.rles.seg.length[i] >= 0;
            expect(some.rles.seg.length[i]).toBe(inBytes && rec.id % 2 !== 0 ? -2 : all.rles.seg.length[i]);
            if (some.rles.seg.length[i] !== -2) expect(rebuilt(some, 'seg', i)).toEqual(rebuilt(all, 'seg', i));
            expect(some.numbers.id[i]).toBe(rec.id);
            expect(some.present.seg[i]).toBe(all.present.seg[i]);
          });
          // the dropped strings take no room: the kept ones are packed one after another
          let kept = 0;
          back.forEach((_, i) => (kept += Math.max(0, some.rles.seg.length[i])));
          expect(some.rles.seg.bytes.length).toBe(kept);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('an rle field no record has, or only some records have', () => {
    const c = readJsonColumns(src('[{"a": 1}, {"seg": {"size": [2, 3], "counts": "06"}}, {"seg": [[1, 2, 3, 4, 5, 6]]}]'), { root: 'array', record: { a: 'number', seg: 'rle', none: 'rle' } }).lists[''];
    expect([0, 1, 2].map((i) => rebuilt(c, 'seg', i))).toEqual([undefined, { size: [2, 3], counts: '06' }, [[1, 2, 3, 4, 5, 6]]]);
    expect(Array.from(c.present.seg)).toEqual([0, 1, 1]);
    expect(Array.from(c.rles.none.length)).toEqual([-1, -1, -1]);
    expect(c.values.none).toEqual([undefined, undefined, undefined]);
  });
});
