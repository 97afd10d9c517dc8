import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DevkitError } from '@cvdevkit/core';
import { matAt, matNumbers, matScalar, matString, matStrings, readMat, readMatFile, readMatFileSync, type MatNumeric } from './index.js';
import { char, double, matFile, matrix, mi, mx, values } from '../test/build.js';
import { makeTempDir } from '@cvdevkit/test-utils';

const le = true;
const bytes = matFile(le, [double('x', [2, 3], [1, 2, 3, 4, 5, 6], le), char('name', ['abc'], le), matrix({ cls: mx.CELL, dims: [1, 2], name: 'c', body: [char('', ['p'], le), double('', [1, 1], [3], le)] }, le)]);

function devkit(fn: () => unknown): DevkitError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(DevkitError);
    return e as DevkitError;
  }
  throw new Error('no error');
}

describe('values', () => {
  it('name the file and the variable in shape errors', () => {
    const v = readMat(bytes, { file: 'a.mat' });
    const e = devkit(() => matScalar(v.x));
    expect(e.code).toBe('input/mat-shape');
    expect(e.file).toBe('a.mat');
    expect(e.field).toBe('x');
    expect(e.message).toMatch(/a\.mat \[x\].*expected a numeric scalar, found 2x3 double/);
    expect(devkit(() => matString(v.x, 'x(1)')).field).toBe('x(1)');
    expect(devkit(() => matNumbers(v.name)).found).toBe('1x3 char');
    const e2 = devkit(() => matStrings(v.c));
    expect(e2.field).toBe('c{2}');
    expect(devkit(() => matAt(v.x as MatNumeric, 2, 0)).code).toBe('input/mat-index');
  });

  it('variables option: only the named variables, unknown names give nothing', () => {
    expect(Object.keys(readMat(bytes, { variables: ['name'] }))).toEqual(['name']);
    expect(readMat(bytes, { variables: ['nope'] })).toEqual({});
  });

  it('readMatFile / readMatFileSync read from disk and report a missing file', async () => {
    const dir = makeTempDir('matfile-');
    const f = join(dir, 'x.mat');
    writeFileSync(f, bytes);
    expect(matString((await readMatFile(f)).name)).toBe('abc');
    expect(matString(readMatFileSync(f, { variables: ['name'] }).name)).toBe('abc');
    await expect(readMatFile(join(dir, 'missing.mat'))).rejects.toMatchObject({ name: 'DevkitError', code: 'input/missing-file', kind: 'input' });
    const e = devkit(() => readMatFileSync(join(dir, 'missing.mat')));
    expect(e.file).toBe(join(dir, 'missing.mat'));
  });

  it('matNumbers converts integer classes and logical to doubles', () => {
    const w = readMat(
      matFile(le, [
        matrix({ cls: mx.INT16, dims: [1, 2], name: 'i', body: [values(mi.INT16, [-7, 300], le, true)] }, le),
        matrix({ cls: mx.UINT8, flags: 0x200, dims: [1, 2], name: 'b', body: [values(mi.UINT8, [1, 0], le, true)] }, le),
      ]),
    );
    expect(Array.from(matNumbers(w.i))).toEqual([-7, 300]);
    expect(Array.from(matNumbers(w.b))).toEqual([1, 0]);
    expect(matScalar(readMat(bytes).c.kind === 'cell' ? (readMat(bytes).c as { cells: MatNumeric[] }).cells[1] : w.i)).toBe(3);
  });
});
