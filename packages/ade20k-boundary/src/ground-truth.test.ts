import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDevkitError } from '@cvdevkit/core';
import { sparseFromMask } from '@cvdevkit/matfile';
import { readGroundTruth, writeBoundaryMat } from './ground-truth.js';
import { makeTempDir } from '@cvdevkit/test-utils';

const FIXTURES = join(import.meta.dirname, '../../../fixtures/ade20k');

function countOnes(m: Uint8Array | null): number {
  let n = 0;
  if (m) for (const v of m) n += v;
  return n;
}

describe('readGroundTruth', () => {
  it('reads the boundaries of our own -v6 writer as row-major masks', () => {
    const dir = makeTempDir('ade20k-gt-');
    const a = [0, 1, 0, 1, 1, 0]; // 2x3 row-major
    const cells = Array.from({ length: 150 }, (_, i) => sparseFromMask(i === 6 ? a : [0, 0, 0, 0, 0, 0], 2, 3));
    writeFileSync(join(dir, 'x.mat'), writeBoundaryMat(cells));
    const gt = readGroundTruth(join(dir, 'x.mat'));
    expect([gt.height, gt.width, gt.classCount]).toEqual([2, 3, 150]);
    expect(Array.from(gt.mask(7)!)).toEqual(a);
    expect(gt.mask(1)).toBeNull();
    expect(gt.pixelCount(7)).toBe(3);
  });

  it('gives the same masks for the Octave (sparse double) and MATLAB (sparse logical, -v7 and -v6) layouts', () => {
    for (const image of ['ADE_val_00000001', 'ADE_val_00000002', 'ADE_val_00000003']) {
      const octave = readGroundTruth(join(FIXTURES, 'tiny/annotations_boundary/validation', `${image}.mat`));
      const matlab = readGroundTruth(join(FIXTURES, 'tiny/annotations_boundary_matlab/validation', `${image}.mat`));
      const v6 = readGroundTruth(join(FIXTURES, 'tiny/annotations_boundary_matlab_v6/validation', `${image}.mat`));
      expect([matlab.height, matlab.width]).toEqual([octave.height, octave.width]);
      for (let c = 1; c <= 150; c++) {
        const m = octave.mask(c);
        expect(matlab.mask(c)).toEqual(m);
        expect(v6.mask(c)).toEqual(m);
      }
    }
    // manifest: image 1 is 64x96 with GT pixels for classes 1 (145), 4 (150), 13 (71)
    const one = readGroundTruth(join(FIXTURES, 'tiny/annotations_boundary/validation/ADE_val_00000001.mat'));
    expect([one.height, one.width]).toEqual([64, 96]);
    expect([countOnes(one.mask(1)), countOnes(one.mask(4)), countOnes(one.mask(13)), countOnes(one.mask(30))]).toEqual([145, 150, 71, 0]);
  });

  it('reports a file that is not the boundary GT layout', () => {
    const dir = makeTempDir('ade20k-gt-');
    writeFileSync(join(dir, 'short.mat'), writeBoundaryMat([sparseFromMask([1], 1, 1)]));
    try {
      readGroundTruth(join(dir, 'short.mat'));
      expect.unreachable();
    } catch (e) {
      expect(isDevkitError(e) && e.kind).toBe('input');
      expect((e as Error).message).toMatch(/short\.mat \[gt\.bdry\]: expected gt\.bdry: a 150x1 cell/);
    }
    writeFileSync(join(dir, 'junk.mat'), 'not a mat file at all');
    expect(() => readGroundTruth(join(dir, 'junk.mat'))).toThrow(/junk\.mat/);
  });
});
