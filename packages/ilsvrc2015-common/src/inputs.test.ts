import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isDevkitError, type DevkitError } from '@cvdevkit/core';
import { makeTempDir, removeTempDirs } from '@cvdevkit/test-utils';
import { parseBlacklist, parseImageList, parseNumberToken, parsePredictions, readPredictions } from './inputs.js';
import type { Synsets } from './meta.js';

const synsets: Synsets = { wnids: ['n1', 'n2'], names: ['a', 'b'], ids: [1, 2], labelOf: new Map([['n1', 1], ['n2', 2]]), file: 'meta.mat' };

function errorOf(fn: () => unknown): DevkitError {
  try {
    fn();
  } catch (e) {
    if (isDevkitError(e)) return e;
    throw e;
  }
  throw new Error('no error');
}

describe('parsePredictions', () => {
  it('reads 7 numbers per line into typed arrays, with line numbers', () => {
    const p = parsePredictions('1 2 0.5 1 2 3 4\n\n  3 1 NaN 1.5 -2 1e2 .5  \r\n', 'p.txt');
    expect(p.count).toBe(2);
    expect(Array.from(p.imageIds)).toEqual([1, 3]);
    expect(Number.isNaN(p.confidences[1])).toBe(true);
    expect(Array.from(p.boxes.subarray(4))).toEqual([1.5, -2, 100, 0.5]);
    expect(Array.from(p.lines)).toEqual([1, 3]);
  });

  it('reports wrong field counts, non-numbers, bad indices and ids with file:line, all together', () => {
    const e = errorOf(() => parsePredictions('1 2 0.5 1 2 3\n1 x 0.5 1 2 3 4\n0 1 0.5 1 2 3 4\n1 1.5 0.5 1 2 3 4\n1 1 0.5 1 2 3 4\n', 'p.txt'));
    expect(e.kind).toBe('input');
    expect(e.problems.map((p) => [p.line, p.code])).toEqual([
      [1, 'input/field-count'],
      [2, 'input/number'],
      [3, 'input/image-index'],
      [4, 'input/class-id'],
    ]);
    expect(e.message).toContain('p.txt:1: expected 7 fields "<image_index> <class id> <confidence> <xmin> <ymin> <xmax> <ymax>", found 6');
    expect(e.message).toContain('p.txt:2 [class id]: expected a number, found "x"');
  });

  it('an empty file is an input error', () => {
    expect(errorOf(() => parsePredictions('\n \n', 'p.txt')).code).toBe('input/empty');
  });

  it('round-trips any finite doubles written with String()', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 1, max: 1e6 }), fc.integer({ min: -5, max: 300 }), fc.array(fc.double({ noNaN: true, noDefaultInfinity: true }), { minLength: 5, maxLength: 5 })), { minLength: 1, maxLength: 20 }), (rows) => {
        const text = rows.map(([i, c, v]) => [i, c, ...v].map(String).join(' ')).join('\n');
        for (const r of rows) r[2] = r[2].map((x) => x + 0); // String(-0) is "0"
        const p = parsePredictions(text, 'p.txt');
        expect(p.count).toBe(rows.length);
        rows.forEach(([i, c, v], k) => {
          expect(p.imageIds[k]).toBe(i);
          expect(p.labels[k]).toBe(c);
          expect(p.confidences[k]).toBe(v[0]);
          expect(Array.from(p.boxes.subarray(4 * k, 4 * k + 4))).toEqual(v.slice(1));
        });
      }),
    );
  });
});

describe('readPredictions: the file a piece at a time', () => {
  const dir = makeTempDir('cvdevkit-pred-');
  afterAll(removeTempDirs);
  const lines = Array.from({ length: 40 }, (_, i) => `${1 + (i % 7)} ${1 + (i % 3)} 0.${i} ${i} ${i}.5 ${i + 10} ${i + 20}`);

  it('the same columns and line numbers as the whole text, whatever the piece size', () => {
    const text = lines.join('\n') + '\n\n' + lines.slice(0, 3).join('\r\n');
    const file = join(dir, 'pred.txt');
    writeFileSync(file, text);
    const whole = parsePredictions(text, file);
    for (const pieceBytes of [1, 7, 64, 1 << 20]) expect(readPredictions(file, { pieceBytes })).toEqual(whole);
  });

  it('every problem of every piece, with its line, in one pass', () => {
    const bad = [...lines];
    bad[3] = '1 1 0.5 1 2 3';
    bad[25] = '1 x 0.5 1 2 3 4';
    bad[39] = '9 1 0.5 1 2 3 4';
    const file = join(dir, 'bad.txt');
    writeFileSync(file, bad.join('\n'));
    const e = errorOf(() => readPredictions(file, { pieceBytes: 50, imageIds: new Set([1, 2, 3, 4, 5, 6, 7]) }));
    expect(e.problems.map((p) => [p.line, p.code])).toEqual([
      [4, 'input/field-count'],
      [26, 'input/number'],
      [40, 'input/unknown-image'],
    ]);
  });
});

describe('the number fast path', () => {
  it('equals Number() on fixed-point strings of any precision', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }), fc.integer({ min: 0, max: 20 }), (x, k) => {
        const s = x.toFixed(k);
        const p = parsePredictions(`1 1 ${s} ${s} 0 ${s} -${s.replace(/^-/, '')}`, 'p.txt');
        expect(Object.is(p.confidences[0], Number(s))).toBe(true);
        expect(Object.is(p.boxes[0], Number(s))).toBe(true);
        expect(Object.is(p.boxes[3], Number('-' + s.replace(/^-/, '')))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('parseNumberToken', () => {
  it('accepts textread %f numbers and rejects junk', () => {
    expect(parseNumberToken('1e3')).toBe(1000);
    expect(parseNumberToken('-Inf')).toBe(-Infinity);
    expect(Number.isNaN(parseNumberToken('nan')!)).toBe(true);
    for (const junk of ['', '0x10', '1,5', 'abc', '1e', '.']) expect(parseNumberToken(junk)).toBeUndefined();
  });
});

describe('image list and blacklist', () => {
  it('reads "<name> <index>" lines', () => {
    const l = parseImageList('a 1\nsnip/000001 7\n', 'val.txt');
    expect(l.names).toEqual(['a', 'snip/000001']);
    expect(Array.from(l.ids)).toEqual([1, 7]);
  });
  it('reports bad list lines', () => {
    const e = errorOf(() => parseImageList('a 1\nb\nc x\n', 'val.txt'));
    expect(e.problems.map((p) => p.line)).toEqual([2, 3]);
  });
  it('maps blacklist WNIDs to labels and reports unknown ones with the line', () => {
    expect(Array.from(parseBlacklist('5 n2\n', 'bl.txt', synsets).labels)).toEqual([2]);
    const e = errorOf(() => parseBlacklist('5 n2\n6 n9\n', 'bl.txt', synsets));
    expect(e.message).toBe('bl.txt:2 [WNID]: expected a WNID of the meta file meta.mat, found "n9"');
  });
});
