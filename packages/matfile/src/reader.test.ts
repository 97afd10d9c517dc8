import { describe, expect, it } from 'vitest';
import { DevkitError } from '@cvdevkit/core';
import { decodeAll, matAt, matNumbers, matScalar, matString, matStrings, packNumbers, readMat, sparseNonzeros, sparseToDense } from './index.js';
import type { MatCell, MatChar, MatLogical, MatNumeric, MatSparse, MatStruct } from './index.js';
import { char, compressed, concat, double, element, encode, header, matFile, matrix, mi, mx, values } from '../test/build.js';

function expectMatError(fn: () => unknown, code?: string | RegExp): DevkitError {
  let err: unknown;
  try {
    fn();
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(DevkitError);
  const d = err as DevkitError;
  expect(d.kind).toBe('input');
  if (code) expect(d.code).toMatch(code);
  return d;
}

describe.each([true, false])('little-endian=%s', (le) => {
  it('reads doubles, small data elements and storage-type compression', () => {
    const bytes = matFile(le, [
      double('x', [2, 3], [1, 2, 3, 4, 5, 6], le),
      double('s', [1, 1], [7], le, mi.UINT8), // small element (1 byte), MATLAB's compact storage
      double('i', [1, 2], [-3, 40000], le, mi.INT32),
    ]);
    const v = readMat(bytes, { file: 't.mat' });
    const x = v.x as MatNumeric;
    expect(x.class).toBe('double');
    expect(x.dims).toEqual([2, 3]);
    expect(Array.from(x.data as Float64Array)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(matAt(x, 1, 2)).toBe(6);
    expect(matAt(x, 0, 1)).toBe(3);
    expect(matScalar(v.s)).toBe(7);
    expect((v.s as MatNumeric).stored).toBe('uint8');
    expect((v.s as MatNumeric).data).toBeInstanceOf(Float64Array);
    expect(Array.from(matNumbers(v.i))).toEqual([-3, 40000]);
  });

  it('reads every integer class, int64 as BigInt64Array', () => {
    const cases: [number, number, (number | bigint)[], string, unknown][] = [
      [mx.INT8, mi.INT8, [-1, 2], 'int8', Int8Array],
      [mx.UINT8, mi.UINT8, [255, 2], 'uint8', Uint8Array],
      [mx.INT16, mi.INT16, [-300, 2], 'int16', Int16Array],
      [mx.UINT16, mi.UINT16, [65535, 2], 'uint16', Uint16Array],
      [mx.INT32, mi.INT32, [-70000, 2], 'int32', Int32Array],
      [mx.UINT32, mi.UINT32, [4000000000, 2], 'uint32', Uint32Array],
      [mx.SINGLE, mi.SINGLE, [1.5, -2], 'single', Float32Array],
      [mx.INT64, mi.INT64, [-(2n ** 62n), 5n], 'int64', BigInt64Array],
      [mx.UINT64, mi.UINT64, [2n ** 64n - 1n, 5n], 'uint64', BigUint64Array],
    ];
    const bytes = matFile(le, cases.map(([cls, type, vals], k) => matrix({ cls, dims: [1, 2], name: `v${k}`, body: [values(type, vals, le, true)] }, le)));
    const v = readMat(bytes);
    cases.forEach(([, , vals, name, ctor], k) => {
      const x = v[`v${k}`] as MatNumeric;
      expect(x.class).toBe(name);
      expect(x.data).toBeInstanceOf(ctor);
      expect(Array.from(x.data as ArrayLike<number | bigint>)).toEqual(vals);
    });
    expect(matAt(v.v7 as MatNumeric, 0, 1)).toBe(5);
    expect(matNumbers(v.v8)[0]).toBe(2 ** 64);
  });

  it('reads complex arrays', () => {
    const bytes = matFile(le, [matrix({ cls: mx.DOUBLE, flags: 0x800, dims: [1, 2], name: 'z', body: [values(mi.DOUBLE, [1, 2], le), values(mi.DOUBLE, [3, -4], le)] }, le)]);
    const z = readMat(bytes).z as MatNumeric;
    expect(Array.from(z.imag as Float64Array)).toEqual([3, -4]);
  });

  it('reads logical arrays', () => {
    const bytes = matFile(le, [matrix({ cls: mx.UINT8, flags: 0x200, dims: [2, 2], name: 'b', body: [values(mi.UINT8, [1, 0, 0, 1], le, true)] }, le)]);
    const b = readMat(bytes).b as MatLogical;
    expect(b.kind).toBe('logical');
    expect(Array.from(b.data)).toEqual([1, 0, 0, 1]);
    expect(matAt(b, 1, 1)).toBe(1);
  });

  it('reads char row vectors, multi-row char arrays (column-major) and UTF-8 char data', () => {
    const bytes = matFile(le, [
      char('s', ['hello'], le),
      char('m', ['abc ', 'defg'], le),
      char('u', ['née'], le, mi.UTF8),
      char('e', [], le),
    ]);
    const v = readMat(bytes);
    expect(matString(v.s)).toBe('hello');
    const m = v.m as MatChar;
    expect(m.dims).toEqual([2, 4]);
    expect(String.fromCharCode(...m.codes)).toBe('adbecf g'); // column-major
    expect(matStrings(m)).toEqual(['abc', 'defg']);
    expect(matString(v.u)).toBe('née');
    expect(matString(v.e)).toBe('');
    expectMatError(() => matString(m, 'm'), 'input/mat-shape');
  });

  it('reads cells and struct arrays (field names as stored: 64 like Octave or longest+1 like MATLAB)', () => {
    for (const fieldLen of [64, 5]) {
      const names = ['name', 'id'];
      const nameBytes = new Uint8Array(names.length * fieldLen);
      names.forEach((n, i) => nameBytes.set(new TextEncoder().encode(n), i * fieldLen));
      const elems = [
        [char('', ['cat'], le), double('', [1, 1], [1], le)],
        [char('', ['dog'], le), matrix({ cls: mx.CELL, dims: [1, 2], body: [double('', [1, 1], [5], le), element(mi.MATRIX, new Uint8Array(0), le)] }, le)],
      ];
      const s = matrix(
        {
          cls: mx.STRUCT,
          dims: [1, 2],
          name: 'st',
          body: [element(mi.INT32, encode(mi.INT32, [fieldLen], le), le, { small: true }), element(mi.INT8, nameBytes, le), ...elems.flat()],
        },
        le,
      );
      const c = matrix({ cls: mx.CELL, dims: [2, 1], name: 'c', body: [char('', ['x'], le), char('', ['yz'], le)] }, le);
      const v = readMat(matFile(le, [s, c]), { file: 'f.mat' });
      const st = v.st as MatStruct;
      expect(st.fieldNames).toEqual(['name', 'id']);
      expect(st.length).toBe(2);
      expect(matString(st.get(1, 'name'))).toBe('dog');
      expect(matScalar(st.get(0, 'id'))).toBe(1);
      expect(st.column('name').map((x) => matString(x))).toEqual(['cat', 'dog']);
      const inner = st.get(1, 'id') as MatCell;
      expect(inner.cells.length).toBe(2);
      expect((inner.cells[1] as MatNumeric).dims).toEqual([0, 0]);
      expect(matStrings(v.c)).toEqual(['x', 'yz']);
      const e = expectMatError(() => st.get(0, 'nope'), 'input/mat-field');
      expect(e.file).toBe('f.mat');
      expect(e.field).toBe('st.nope');
      expectMatError(() => st.get(2, 'id'), 'input/mat-index');
    }
  });

  it('reads miCOMPRESSED variables (unpadded) and the `variables` filter skips others', () => {
    const a = compressed(double('a', [1, 3], [1, 2, 3], le), le);
    const b = compressed(char('bee', ['hi'], le), le);
    const bytes = matFile(le, [a, b, double('c', [1, 1], [9], le)]);
    expect(a.length % 8).not.toBe(0); // make sure the unpadded case is exercised at least sometimes
    const v = readMat(bytes);
    expect(Object.keys(v)).toEqual(['a', 'bee', 'c']);
    expect(Array.from(matNumbers(v.a))).toEqual([1, 2, 3]);
    expect(matString(v.bee)).toBe('hi');
    expect(matScalar(v.c)).toBe(9);
    const only = readMat(bytes, { variables: ['bee', 'c'] });
    expect(Object.keys(only)).toEqual(['bee', 'c']);
  });

  it('reads sparse double, MATLAB sparse logical (0x1205, miDOUBLE tag with nnz bytes) and Octave uint8 sparse', () => {
    // 3x2 with A(1,1)=5, A(3,1)=6, A(2,2)=7
    const ir = [0, 2, 1];
    const jc = [0, 2, 3];
    const sp = matrix({ cls: mx.SPARSE, dims: [3, 2], nzmax: 3, name: 'sp', body: [values(mi.INT32, ir, le), values(mi.INT32, jc, le), values(mi.DOUBLE, [5, 6, 7], le)] }, le);
    const ml = matrix(
      { cls: mx.SPARSE, flags: 0x1200, dims: [3, 2], nzmax: 3, name: 'ml', body: [values(mi.INT32, ir, le), values(mi.INT32, jc, le), element(mi.DOUBLE, new Uint8Array([1, 1, 1]), le)] },
      le,
    );
    const oc = matrix({ cls: mx.UINT8, flags: 0x200, dims: [3, 2], nzmax: 3, name: 'oc', body: [values(mi.INT32, ir, le), values(mi.INT32, jc, le), values(mi.DOUBLE, [1, 1, 1], le)] }, le);
    const v = readMat(matFile(le, [sp, ml, compressed(ml, le), oc]));
    const s = v.sp as MatSparse;
    expect(s.kind).toBe('sparse');
    expect(s.logical).toBe(false);
    expect(s.nnz).toBe(3);
    const nz = sparseNonzeros(s);
    expect(Array.from(nz.rows)).toEqual([0, 2, 1]);
    expect(Array.from(nz.cols)).toEqual([0, 0, 1]);
    expect(Array.from(nz.values)).toEqual([5, 6, 7]);
    expect(Array.from(sparseToDense(s))).toEqual([5, 0, 6, 0, 7, 0]);
    for (const k of ['ml', 'oc']) {
      const l = v[k] as MatSparse;
      expect(l.kind).toBe('sparse');
      expect(l.logical).toBe(true);
      expect(Array.from(l.data)).toEqual([1, 1, 1]);
      expect(Array.from(sparseToDense(l))).toEqual([1, 0, 1, 0, 1, 0]);
    }
  });

  it('packs the numbers of a cell array / struct field without decoding each element', () => {
    const c = matrix({ cls: mx.CELL, dims: [1, 3], name: 'c', body: [double('', [4, 1], [1, 2, 3, 4], le, mi.UINT8), double('', [0, 0], [], le), double('', [4, 2], [1, 2, 3, 4, 5, 6, 7, 8], le, mi.INT16)] }, le);
    const v = readMat(matFile(le, [compressed(c, le)]));
    const p = packNumbers(v.c as MatCell);
    expect(Array.from(p.offsets)).toEqual([0, 4, 4, 12]);
    expect(Array.from(p.rows)).toEqual([4, 0, 4]);
    expect(Array.from(p.cols)).toEqual([1, 0, 2]);
    expect(Array.from(p.values)).toEqual([1, 2, 3, 4, 1, 2, 3, 4, 5, 6, 7, 8]);
    decodeAll(v.c);
    expect(packNumbers(v.c as MatCell)).toEqual(p);
  });
});

describe('file-level checks', () => {
  it('detects v7.3 (HDF5) files and asks for -v7', () => {
    const h = header(true, 'MATLAB 7.3 MAT-file, Platform: GLNXA64, Created on: now HDF5 schema 1.00 .');
    const bytes = concat([h, new Uint8Array(512 - 128), new Uint8Array([0x89, 0x48, 0x44, 0x46, 0x0d, 0x0a, 0x1a, 0x0a]), new Uint8Array(64)]);
    const e = expectMatError(() => readMat(bytes, { file: 'big.mat' }), 'input/mat-v73');
    expect(e.message).toMatch(/-v7/);
    expect(e.file).toBe('big.mat');
  });

  it('rejects non-MAT input, truncation and wrong tags with located DevkitErrors', () => {
    expectMatError(() => readMat(new Uint8Array(10)), 'input/mat-truncated');
    expectMatError(() => readMat(new TextEncoder().encode('x'.repeat(200))), 'input/mat-header');
    const le = true;
    const good = matFile(le, [double('x', [2, 3], [1, 2, 3, 4, 5, 6], le)]);
    const e = expectMatError(() => readMat(good.subarray(0, good.length - 9), { file: 'cut.mat' }), 'input/mat-truncated');
    expect(e.offset).toBe(128);
    expect(e.file).toBe('cut.mat');
    // dims say 100 values, 6 present
    const lie = matFile(le, [matrix({ cls: mx.DOUBLE, dims: [10, 10], name: 'big', body: [values(mi.DOUBLE, [1, 2, 3, 4, 5, 6], le)] }, le)]);
    const e2 = expectMatError(() => readMat(lie, { file: 'lie.mat' }), 'input/mat-size');
    expect(e2.field).toBe('big');
    // a huge cell that is not there
    const hugeCell = matFile(le, [matrix({ cls: mx.CELL, dims: [100000, 100000], name: 'c', body: [] }, le)]);
    expectMatError(() => readMat(hugeCell), 'input/mat-dims');
    // an unknown top-level element
    expectMatError(() => readMat(matFile(le, [values(mi.DOUBLE, [1], le)])), 'input/mat-tag');
  });

  it('names the variable and the path of a bad element inside a compressed cell', () => {
    const le = true;
    const bad = matrix({ cls: mx.DOUBLE, dims: [1, 5], body: [values(mi.DOUBLE, [1, 2], le)] }, le);
    // Small containers are decoded during readMat; large ones (> 16 elements) on first access.
    const small = matrix({ cls: mx.CELL, dims: [1, 2], name: 'boxes', body: [double('', [1, 1], [1], le), bad] }, le);
    const e0 = expectMatError(() => readMat(matFile(le, [compressed(small, le)]), { file: 'g.mat' }), 'input/mat-size');
    expect(e0.field).toBe('boxes{2}');
    const body = Array.from({ length: 30 }, (_, i) => (i === 20 ? bad : double('', [1, 1], [i], le)));
    const c = matrix({ cls: mx.CELL, dims: [1, 30], name: 'boxes', body }, le);
    const v = readMat(matFile(le, [compressed(c, le)]), { file: 'g.mat' });
    const e = expectMatError(() => (v.boxes as MatCell).cells, 'input/mat-size');
    expect(e.field).toBe('boxes{21}');
    expect(e.offset).toBe(128);
    expect(e.message).toMatch(/inflated/);
    expectMatError(() => readMat(matFile(le, [compressed(c, le)]), { eager: true }), 'input/mat-size');
    // The same inside a lazily decoded struct array: the path names element and field.
    const nameBytes = new Uint8Array(8);
    nameBytes.set(new TextEncoder().encode('box'));
    const st = matrix({ cls: mx.STRUCT, dims: [20, 1], name: 's', body: [element(mi.INT32, encode(mi.INT32, [8], le), le, { small: true }), element(mi.INT8, nameBytes, le), ...Array.from({ length: 20 }, (_, i) => (i === 13 ? c : double('', [1, 1], [i], le)))] }, le);
    const sv = readMat(matFile(le, [st]), { file: 'h.mat' }).s as MatStruct;
    expect(matScalar(sv.get(0, 'box'))).toBe(0);
    const inner = sv.get(13, 'box') as MatCell;
    const e3 = expectMatError(() => inner.cells, 'input/mat-size');
    expect(e3.field).toBe('s(14).box{21}');
    expect(e3.offset).toBeGreaterThan(128);
  });

  it('caps inflation: a zip bomb declaring a small element fails fast', () => {
    const le = true;
    // inner element claims 16 bytes of data but the stream inflates to 64 MiB
    const inner = concat([element(mi.MATRIX, new Uint8Array(0), le, { nbytes: 16 }).subarray(0, 8), new Uint8Array(64 << 20)]);
    const el = compressed(inner, le);
    const t = performance.now();
    expectMatError(() => readMat(matFile(le, [el])), 'input/mat-compressed');
    expect(performance.now() - t).toBeLessThan(2000);
    // declared size above maxBytes
    const inner2 = element(mi.MATRIX, new Uint8Array(0), le, { nbytes: 1 << 30 }).subarray(0, 8);
    expectMatError(() => readMat(matFile(le, [compressed(inner2, le)]), { maxBytes: 1 << 20 }), 'input/mat-too-large');
  });

  it('claims of huge element counts without data do not hang or allocate', () => {
    const le = true;
    const noFields = matrix({ cls: mx.STRUCT, dims: [2 ** 30, 2 ** 30], name: 's', body: [element(mi.INT32, encode(mi.INT32, [8], le), le, { small: true }), element(mi.INT8, new Uint8Array(0), le)] }, le);
    const emptyChar = matrix({ cls: mx.CHAR, dims: [2 ** 30, 0], name: 'ch', body: [element(mi.UINT16, new Uint8Array(0), le)] }, le);
    const v = readMat(matFile(le, [noFields, emptyChar]), { eager: true });
    expect((v.s as MatStruct).length).toBe(2 ** 60);
    decodeAll(v.s);
    expectMatError(() => matStrings(v.ch), 'input/mat-too-large');
  });

  it('deeply nested cells neither overflow the stack nor slow down', () => {
    const le = true;
    const depth = 20000;
    const inner = double('', [1, 1], [42], le);
    // Level k (outermost k = depth): miMATRIX tag + flags + dims 1x1 + empty name, then level k-1.
    const levelHead = (nbytes: number, name: string) =>
      concat([
        element(mi.MATRIX, new Uint8Array(0), le, { nbytes }).subarray(0, 8),
        element(mi.UINT32, encode(mi.UINT32, [mx.CELL, 0], le), le),
        element(mi.INT32, encode(mi.INT32, [1, 1], le), le),
        name ? element(mi.INT8, new TextEncoder().encode(name), le, { small: true }) : element(mi.INT8, new Uint8Array(0), le),
      ]);
    const parts: Uint8Array[] = [];
    let size = inner.length;
    const sizes: number[] = [];
    for (let k = 1; k <= depth; k++) {
      sizes.push(size);
      size += 48;
    }
    for (let k = depth; k >= 1; k--) parts.push(levelHead(40 + sizes[k - 1], k === depth ? 'c' : ''));
    parts.push(inner);
    const bytes = matFile(le, parts);
    const t = performance.now();
    const v = readMat(bytes, { eager: true });
    let x = v.c;
    let n = 0;
    while (x.kind === 'cell') {
      x = x.cells[0];
      n++;
    }
    expect(n).toBe(depth);
    expect(matScalar(x)).toBe(42);
    expect(performance.now() - t).toBeLessThan(5000);
  });
});
