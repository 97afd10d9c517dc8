/** Test helpers: load the ADE20K fixture cases (PNG predictions, .mat ground truth, expected.json). */
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';
import { readMatFileSync, type MatValue } from '@cvdevkit/matfile';

export const FIXTURES = fileURLToPath(new URL('../../../fixtures/ade20k', import.meta.url));

export interface ExpectedCounts {
  cntR: number[];
  sumR: number[];
  cntP: number[];
  sumP: number[];
}

export interface ExpectedClass {
  class: number;
  T_ODS: number;
  R_ODS: number;
  P_ODS: number;
  F_ODS: number;
  R_OIS: number;
  P_OIS: number;
  F_OIS: number;
  AP: number;
}

export interface Expected {
  images: string[];
  thresholds: number[];
  classes: ExpectedClass[];
  counts: Record<string, Record<string, ExpectedCounts>>;
  challenge_score_mean_F_ODS: number;
}

export function caseDir(name: string): string {
  return join(FIXTURES, name);
}

export function hasCase(name: string): boolean {
  return existsSync(join(caseDir(name), 'expected.json'));
}

export function loadExpected(name: string): Expected {
  return JSON.parse(readFileSync(join(caseDir(name), 'expected.json'), 'utf8')) as Expected;
}

/** 8-bit grey PNG → uint8 row-major values. */
export function loadPrediction(name: string, cls: number, image: string): { data: Uint8Array; height: number; width: number } {
  const file = join(caseDir(name), 'predictions_boundary', 'validation', `class_${String(cls).padStart(3, '0')}`, `${image}.png`);
  const png = PNG.sync.read(readFileSync(file));
  const data = new Uint8Array(png.width * png.height);
  for (let i = 0; i < data.length; i++) data[i] = png.data[4 * i];
  return { data, height: png.height, width: png.width };
}

/** gt.bdry{cls} of an image as a row-major 0/1 mask (150 masks). */
export function loadGroundTruth(name: string, image: string, dir = 'annotations_boundary'): (cls: number) => Uint8Array {
  const vars = readMatFileSync(join(caseDir(name), dir, 'validation', `${image}.mat`));
  const gt = vars.gt;
  if (gt.kind !== 'struct') throw new Error('gt is not a struct');
  const bdry = gt.get(0, 'bdry');
  if (bdry.kind !== 'cell') throw new Error('gt.bdry is not a cell');
  return (cls: number) => sparseMask(bdry.cells[cls - 1]);
}

export function sparseMask(v: MatValue): Uint8Array {
  if (v.kind !== 'sparse') throw new Error(`expected a sparse matrix, found ${v.kind}`);
  const [h, w] = v.dims;
  const mask = new Uint8Array(h * w);
  for (let c = 0; c < w; c++) {
    for (let k = v.jc[c]; k < v.jc[c + 1]; k++) {
      if (v.data[k] !== 0) mask[v.ir[k] * w + c] = 1;
    }
  }
  return mask;
}
