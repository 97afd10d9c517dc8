import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ProblemCollector } from '@cvdevkit/core';
import { parseActionResults, parseClsResults, parseDetResults } from './results.js';
import { forEachLine, parseStrtod, quote } from './text.js';

/** parseDetResults as it read lines before the span reader: strings per field, `parseStrtod` (reference). */
function detByFields(text: string, set?: ReadonlyMap<string, number>) {
  const problems: unknown[] = [];
  const rows: unknown[] = [];
  const names = ['xmin', 'ymin', 'xmax', 'ymax'];
  forEachLine(text, (f, line) => {
    if (f.length !== 6) return void problems.push({ line, code: 'input/field-count', found: `${f.length}` });
    const conf = parseStrtod(f[1]);
    if (conf === undefined) return void problems.push({ line, field: 'confidence', found: quote(f[1]) });
    const box: number[] = [];
    for (let k = 0; k < 4; k++) {
      const v = parseStrtod(f[2 + k]);
      if (v === undefined) return void problems.push({ line, field: names[k], found: quote(f[2 + k]) });
      box.push(v);
    }
    if (set && !set.has(f[0])) problems.push({ line, code: 'input/unknown-image', found: quote(f[0]) });
    rows.push([set ? (set.get(f[0]) ?? -1) : f[0], conf, ...box, line]);
  });
  return { rows, problems };
}

const id = fc.stringMatching(/^[0-9A-Za-z_./-]{1,16}$/);
const score = fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(Infinity, -Infinity, NaN, -0));
const fmt = (x: number): string => (Number.isNaN(x) ? 'NaN' : x === Infinity ? 'Inf' : x === -Infinity ? '-Inf' : Object.is(x, -0) ? '-0' : String(x));

describe('parseDetResults', () => {
  it('round-trips detection lines exactly (ids, confidences, boxes, line numbers)', () => {
    const row = fc.tuple(id, score, fc.array(fc.double({ noNaN: true, noDefaultInfinity: true }), { minLength: 4, maxLength: 4 }));
    fc.assert(
      fc.property(fc.array(row, { maxLength: 40 }), (rows) => {
        const text = rows.map(([i, c, b]) => `${i} ${fmt(c)}\t${b.map(fmt).join('  ')}`).join('\n') + '\n';
        const p = new ProblemCollector();
        const r = parseDetResults(text, 'f.txt', p);
        expect(p.size).toBe(0);
        expect(r.count).toBe(rows.length);
        expect(r.images).toEqual(rows.map((x) => x[0]));
        rows.forEach(([, c, b], k) => {
          expect(Object.is(r.confidence[k], c)).toBe(true);
          b.forEach((v, j) => expect(Object.is(r.boxes[k * 4 + j], v)).toBe(true));
          expect(r.lines[k]).toBe(k + 1);
        });
      }),
    );
  });

  it('reads messy text as the field-by-field reader does (same records, same problems, with and without a set)', () => {
    const token = fc.oneof(id, fc.constantFrom('0.5', '-1', '1e3', '1E-2', '.5', '5.', 'Inf', '-inf', 'NaN', '0x1', '1d2', '', '1..2', '+3', '00012', '١', 'a\u00a0b'), score.map(fmt));
    const sep = fc.constantFrom(' ', '\t', '  ', ' \r', '\v', '\f', '\u00a0');
    const line = fc.array(fc.tuple(token, sep), { maxLength: 8 }).map((ts) => ts.map(([t, s]) => t + s).join(''));
    const set = new Map([['a', 0], ['b', 1], ['0.5', 2]]);
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), fc.constantFrom('\n', '\r\n'), fc.boolean(), (lines, nl, withSet) => {
        const text = lines.join(nl);
        const p = new ProblemCollector();
        const r = parseDetResults(text, 'f.txt', p, withSet ? { file: 'val.txt', index: set } : undefined);
        const want = detByFields(text, withSet ? set : undefined);
        const rows = Array.from({ length: r.count }, (_, k) => [withSet ? r.imageOf![k] : r.images[k], r.confidence[k], ...r.boxes.subarray(k * 4, k * 4 + 4), r.lines[k]]);
        expect(rows).toEqual(want.rows);
        expect(p.problems.map((x) => ({ line: x.line, ...(x.field ? { field: x.field } : { code: x.code }), found: x.found }))).toEqual(want.problems);
      }),
      { numRuns: 300 },
    );
  });

  it('reports every bad line with file, line, expected and found', () => {
    const p = new ProblemCollector();
    const r = parseDetResults('a 0.5 1 2 3 4\nb 0.5 1 2 3\n\nc x 1 2 3 4\nd 1 1 2 3 4z\ne 1 1 2 3 4\n', 'r.txt', p);
    expect(r.images).toEqual(['a', 'e']);
    expect(r.lines).toEqual(Uint32Array.of(1, 6));
    expect(p.problems).toMatchObject([
      { code: 'input/field-count', file: 'r.txt', line: 2, found: '5' },
      { code: 'input/number', file: 'r.txt', line: 4, field: 'confidence', found: '"x"' },
      { code: 'input/number', file: 'r.txt', line: 5, field: 'ymax', found: '"4z"' },
    ]);
    expect(() => p.throwIfAny()).toThrow(/3 problems found/);
  });

  it('grows past its initial capacity', () => {
    const text = Array.from({ length: 3000 }, (_, i) => `im${i} ${i} 1 2 3 4`).join('\n');
    const r = parseDetResults(text, 'f', new ProblemCollector());
    expect(r.count).toBe(3000);
    expect(r.confidence[2999]).toBe(2999);
    expect(r.boxes[2999 * 4 + 3]).toBe(4);
  });
});

describe('parseClsResults / parseActionResults', () => {
  it('round-trips scored lines', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(id, fc.integer({ min: 0, max: 99 }), score), { maxLength: 30 }), (rows) => {
        const cls = parseClsResults(rows.map(([i, , c]) => `${i} ${fmt(c)}`).join('\n'), 'c', new ProblemCollector());
        expect(cls.keys).toEqual(rows.map((r) => r[0]));
        rows.forEach(([, , c], k) => expect(Object.is(cls.confidence[k], c)).toBe(true));
        const act = parseActionResults(rows.map(([i, o, c]) => `${i} ${o} ${fmt(c)}`).join('\n'), 'a', new ProblemCollector());
        expect(act.keys).toEqual(rows.map(([i, o]) => `${i}/${o}`));
      }),
    );
  });

  it('normalizes the object index as %d does and rejects bad ones', () => {
    const p = new ProblemCollector();
    const r = parseActionResults('x 01 0.5\ny 1.5 0.5\nz 2\n', 'a.txt', p);
    expect(r.keys).toEqual(['x/1']);
    expect(p.problems.map((q) => [q.line, q.code])).toEqual([
      [2, 'input/number'],
      [3, 'input/field-count'],
    ]);
  });
});
