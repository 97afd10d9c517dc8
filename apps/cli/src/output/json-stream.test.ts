import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { writeJson } from './json-stream.js';

const replacer = (_k: string, v: unknown) => (ArrayBuffer.isView(v) && !(v instanceof DataView) ? Array.from(v as unknown as ArrayLike<number>) : v);
const streamed = (value: unknown) => {
  const pieces: string[] = [];
  writeJson(value, (c) => pieces.push(c));
  return pieces.join('');
};

describe('writeJson', () => {
  it('writes what JSON.stringify(value, typed arrays as arrays, 2) writes', () => {
    const number = fc.oneof(fc.double(), fc.constantFrom(NaN, Infinity, -Infinity, -0, 0.1 + 0.2, 1e21, 5e-324));
    const leaf = fc.oneof(number, fc.string(), fc.boolean(), fc.constant(null));
    const { tree } = fc.letrec((tie) => ({
      tree: fc.oneof({ depthSize: 'small' }, leaf, tie('array'), tie('object'), tie('typed'), tie('numbers')),
      array: fc.array(tie('tree'), { maxLength: 5 }),
      object: fc.dictionary(fc.string(), tie('tree'), { maxKeys: 5 }),
      typed: fc.array(number, { maxLength: 8 }).map((xs) => Float64Array.from(xs)),
      numbers: fc.array(number, { maxLength: 8 }),
    }));
    fc.assert(
      fc.property(tree, (value) => {
        expect(streamed(value)).toBe(JSON.stringify(value, replacer, 2));
      }),
      { numRuns: 500 },
    );
  });

  it('writes typed arrays of every kind, with runs of equal values, at any depth, as JSON.stringify does', () => {
    const number = fc.oneof(fc.double(), fc.constantFrom(NaN, Infinity, -Infinity, -0, 0.1 + 0.2, 1e21, 5e-324, 2 ** 53, 1 / 3));
    const runs = fc.array(fc.tuple(number, fc.integer({ min: 1, max: 4 })), { maxLength: 12 }).map((rs) => rs.flatMap(([v, k]) => Array<number>(k).fill(v)));
    const kinds = [Float64Array, Float32Array, Int32Array, Uint8Array, Uint16Array] as const;
    const typed = fc.tuple(runs, fc.integer({ min: 0, max: kinds.length - 1 })).map(([xs, k]) => kinds[k].from(xs));
    fc.assert(
      fc.property(typed, fc.integer({ min: 0, max: 3 }), (items, depth) => {
        let value: unknown = items;
        for (let d = 0; d < depth; d++) value = d % 2 === 0 ? { curve: value } : [value];
        expect(streamed(value)).toBe(JSON.stringify(value, replacer, 2));
      }),
      { numRuns: 300 },
    );
  });

  it('writes typed arrays nested deeper than a JSON.stringify gap reaches (over 10 spaces), and with other indents, as JSON.stringify does', () => {
    const items = Float64Array.from([0.1, NaN, -0, 1 / 3, Infinity, 1e21, 5e-324, 1 / 3]);
    for (const indent of [1, 2, 4, 10]) {
      for (let depth = 0; depth <= 6; depth++) {
        let value: unknown = items;
        for (let d = 0; d < depth; d++) value = d % 2 === 0 ? { curve: value } : [value];
        const pieces: string[] = [];
        writeJson(value, (c) => pieces.push(c), indent);
        expect(pieces.join('')).toBe(JSON.stringify(value, replacer, indent));
      }
    }
  });

  it('writes curves longer than one chunk the same way (typed and plain)', () => {
    const n = 150_000;
    const recall = new Float64Array(n).map((_, i) => i / n);
    const precision = Array.from({ length: n }, (_, i) => (i % 1000 === 0 ? NaN : 1 / (1 + i)));
    const report = { curves: [{ key: 'a', recall, precision }], rows: [] };
    expect(streamed(report)).toBe(JSON.stringify(report, replacer, 2));
  });
});
