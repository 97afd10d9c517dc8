import { fileURLToPath } from 'node:url';
/**
 * Property test: truncated or bit-flipped real MAT-files end in a DevkitError (or decode), never in
 * another exception, a hang or a huge allocation.
 */
import { existsSync, readFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isDevkitError } from '@cvdevkit/core';
import { decodeAll, matNumbers, matStrings, packNumbers, readMat, sparseNonzeros, type MatValue } from '../src/index.js';
import { char, compressed, concat, double, element, encode, matFile, matrix, mi, mx, values } from './build.js';

const FILES = [
  fileURLToPath(new URL('../../../fixtures/ilsvrc2015/real/meta_vid.mat', import.meta.url)),
  fileURLToPath(new URL('../../../fixtures/ilsvrc2015/real/meta_det.mat', import.meta.url)),
  fileURLToPath(new URL('../../../fixtures/ade20k/tiny/annotations_boundary/validation/ADE_val_00000001.mat', import.meta.url)),
  fileURLToPath(new URL('../../../fixtures/ade20k/tiny/annotations_boundary_matlab/validation/ADE_val_00000003.mat', import.meta.url)),
].filter((f) => existsSync(f));

/** The same file with every miCOMPRESSED element replaced by its inflated content (a -v6 style file). */
function uncompress(bytes: Uint8Array): Uint8Array {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const parts: Uint8Array[] = [bytes.subarray(0, 128)];
  let p = 128;
  while (p + 8 <= bytes.length) {
    const type = dv.getUint32(p, true);
    const n = dv.getUint32(p + 4, true);
    if (type === 15) {
      const inner = inflateSync(bytes.subarray(p + 8, p + 8 + n));
      parts.push(element(14, inner.subarray(8, 8 + new DataView(inner.buffer, inner.byteOffset).getUint32(4, true)), true));
      p += 8 + n;
    } else {
      parts.push(bytes.subarray(p, p + 8 + ((n + 7) & ~7)));
      p += 8 + ((n + 7) & ~7);
    }
  }
  return concat(parts);
}

/** A hand-built file with every supported class, in one byte order (covers what the real files lack). */
function kitchenSink(le: boolean): Uint8Array {
  const names = new Uint8Array(16);
  names.set(new TextEncoder().encode('a'), 0);
  names.set(new TextEncoder().encode('bb'), 8);
  const ir = [0, 2, 1];
  const jc = [0, 2, 3];
  const big = Array.from({ length: 20 }, (_, i) => double('', [4, 1], [i, 1, 2, 3], le, mi.UINT8));
  return matFile(le, [
    double('d', [2, 2], [1, 2, 3, 4], le),
    matrix({ cls: mx.INT64, dims: [1, 2], name: 'i64', body: [values(mi.INT64, [-5n, 7n], le)] }, le),
    matrix({ cls: mx.DOUBLE, flags: 0x800, dims: [1, 2], name: 'z', body: [values(mi.DOUBLE, [1, 2], le), values(mi.INT16, [3, 4], le)] }, le),
    char('s', ['ab', 'cd'], le),
    char('u', ['née'], le, mi.UTF8),
    matrix({ cls: mx.UINT8, flags: 0x200, dims: [1, 3], name: 'b', body: [values(mi.UINT8, [1, 0, 1], le, true)] }, le),
    matrix({ cls: mx.SPARSE, dims: [3, 2], nzmax: 3, name: 'sp', body: [values(mi.INT32, ir, le), values(mi.INT32, jc, le), values(mi.DOUBLE, [5, 6, 7], le)] }, le),
    compressed(matrix({ cls: mx.SPARSE, flags: 0x1200, dims: [3, 2], nzmax: 3, name: 'ml', body: [values(mi.INT32, ir, le), values(mi.INT32, jc, le), element(mi.DOUBLE, new Uint8Array([1, 1, 1]), le)] }, le), le),
    matrix({ cls: mx.UINT8, flags: 0x200, dims: [3, 2], nzmax: 3, name: 'oc', body: [values(mi.INT32, ir, le), values(mi.INT32, jc, le), values(mi.DOUBLE, [1, 1, 1], le)] }, le),
    matrix({ cls: mx.STRUCT, dims: [1, 2], name: 'st', body: [element(mi.INT32, encode(mi.INT32, [8], le), le, { small: true }), element(mi.INT8, names, le), double('', [1, 1], [1], le), char('', ['x'], le), double('', [0, 0], [], le), element(mi.MATRIX, new Uint8Array(0), le)] }, le),
    matrix({ cls: mx.CELL, dims: [1, 20], name: 'c', body: big }, le),
  ]);
}

function touch(vars: Record<string, MatValue>): void {
  for (const v of Object.values(vars)) {
    decodeAll(v);
    if (v.kind === 'numeric' || v.kind === 'logical') matNumbers(v);
    if (v.kind === 'sparse') sparseNonzeros(v);
    if (v.kind === 'char') matStrings(v);
    if (v.kind === 'cell') {
      try {
        packNumbers(v);
      } catch (e) {
        if (!isDevkitError(e)) throw e;
      }
    }
  }
}

function check(bytes: Uint8Array): void {
  const t = performance.now();
  try {
    touch(readMat(bytes, { file: 'fuzz.mat', maxBytes: 64 << 20 }));
  } catch (e) {
    if (!isDevkitError(e)) throw e;
    expect(e.kind).toBe('input');
    expect(e.file).toBe('fuzz.mat');
    expect(typeof e.offset === 'number' || e.code === 'input/mat-shape').toBe(true);
  }
  expect(performance.now() - t).toBeLessThan(1000);
}

describe.skipIf(FILES.length === 0)('fuzzing the reader with damaged real files', () => {
  const originals = FILES.map((f) => new Uint8Array(readFileSync(f)));
  const samples = [...originals, ...originals.map(uncompress), kitchenSink(true), kitchenSink(false)];

  it('the kitchen-sink files decode', () => {
    for (const le of [true, false]) expect(Object.keys(readMat(kitchenSink(le), { eager: true })).length).toBe(11);
  });

  it('the uncompressed variants decode like the originals', () => {
    for (let i = 0; i < originals.length; i++) {
      expect(Object.keys(readMat(samples[originals.length + i]))).toEqual(Object.keys(readMat(originals[i])));
    }
  });

  it('truncation', () => {
    fc.assert(
      fc.property(fc.nat(samples.length - 1), fc.double({ min: 0, max: 1, noNaN: true }), (k, frac) => {
        const b = samples[k];
        check(b.subarray(0, Math.floor(b.length * frac)));
      }),
      { numRuns: 150, seed: 42 },
    );
  });

  it('byte flips', () => {
    fc.assert(
      fc.property(
        fc.nat(samples.length - 1),
        fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 6 }),
        (k, flips) => {
          const b = samples[k].slice();
          // Bias towards the first bytes of elements (headers, tags, dims) where the parser decides things.
          for (const [pos, val] of flips) {
            const at = pos < 0.5 ? 128 + Math.floor(pos * 2 * Math.min(512, b.length - 128)) : Math.floor(pos * b.length);
            b[Math.min(b.length - 1, at)] = val;
          }
          check(b);
        },
      ),
      { numRuns: 300, seed: 7 },
    );
  });

  it('32-bit field overwrites (lengths, dims, types)', () => {
    fc.assert(
      fc.property(
        fc.nat(samples.length - 1),
        fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
        fc.constantFrom(0, 1, 4, 8, 0x7fffffff, 0xffffffff, 0x80000000, 0x10000, 0x40000, 14, 15, 5, 9),
        (k, pos, val) => {
          const b = samples[k].slice();
          const at = 128 + (Math.floor(pos * ((b.length - 132) / 4)) * 4);
          new DataView(b.buffer).setUint32(at, val >>> 0, true);
          check(b);
        },
      ),
      { numRuns: 300, seed: 11 },
    );
  });
});
