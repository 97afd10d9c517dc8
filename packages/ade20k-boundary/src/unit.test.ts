import { beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir } from '@cvdevkit/test-utils';

// A stub engine: counts that encode what was passed in, so the plumbing can be checked alone.
vi.mock('@cvdevkit/boundary', async (importOriginal) => ({
  DEFAULT_SEED: (await importOriginal<typeof import('@cvdevkit/boundary')>()).DEFAULT_SEED,
  isAllZero: (await importOriginal<typeof import('@cvdevkit/boundary')>()).isAllZero,
  evaluateBoundary: (pred: Uint8Array, gt: Uint8Array | null, h: number, w: number, o: { seed?: number }) => {
    const n = 99;
    const sum = (a: Uint8Array | null) => (a ? a.reduce((s, v) => s + (v ? 1 : 0), 0) : 0);
    return {
      cntR: new Float64Array(n).fill(gt ? 1 : 0),
      sumR: new Float64Array(n).fill(sum(gt)),
      cntP: new Float64Array(n).fill(h * w),
      sumP: new Float64Array(n).fill(sum(pred) + (o.seed ?? 0)),
    };
  },
}));

const readCalls: string[] = [];
vi.mock('./ground-truth.js', async (importOriginal) => {
  const mod = await importOriginal<typeof import('./ground-truth.js')>();
  return { ...mod, readGroundTruth: (path: string) => (readCalls.push(path), mod.readGroundTruth(path)) };
});

const { UnitEvaluator } = await import('./unit.js');
const { sparseFromMask } = await import('@cvdevkit/matfile');
const { writeBoundaryMat } = await import('./ground-truth.js');
const { greyPng } = await import('./sample.js');

let gtDir = '';
let predDir = '';
beforeAll(() => {
  const root = makeTempDir('ade20k-unit-');
  gtDir = join(root, 'gt');
  predDir = join(root, 'pred');
  mkdirSync(gtDir);
  const h = 2;
  const w = 3;
  const cells = Array.from({ length: 150 }, (_, i) => sparseFromMask(i === 0 ? [1, 1, 0, 0, 0, 1] : [0, 0, 0, 0, 0, 0], h, w));
  for (const im of ['a', 'b']) writeFileSync(join(gtDir, `${im}.mat`), writeBoundaryMat(cells));
  for (const c of ['class_001', 'class_002', 'class_003']) {
    mkdirSync(join(predDir, c), { recursive: true });
    for (const im of ['a', 'b']) writeFileSync(join(predDir, c, `${im}.png`), greyPng(Uint8Array.from([0, 9, 0, 9, 9, 0]), h, w));
  }
  writeFileSync(join(predDir, 'class_003', 'b.png'), greyPng(new Uint8Array(4), 2, 2)); // wrong size
});

describe('UnitEvaluator', () => {
  it('reads each GT once for all its classes and passes masks, predictions and the seed', () => {
    readCalls.length = 0;
    const ev = new UnitEvaluator();
    const r1 = ev.evaluate({ gtDir, predDir, image: 'a', classes: [1], seed: 5 });
    const r2 = ev.evaluate({ gtDir, predDir, image: 'a', classes: [2], seed: 5 });
    expect(readCalls).toHaveLength(1);
    expect(r1.problems).toEqual([]);
    expect(r1.counts[0].cls).toBe(1);
    expect(r1.counts[0].cntR[0]).toBe(1); // class 1 has GT
    expect(r1.counts[0].sumR[0]).toBe(3);
    expect(r1.counts[0].cntP[0]).toBe(6);
    expect(r1.counts[0].sumP[0]).toBe(3 + 5);
    expect(r2.counts[0].cntR[0]).toBe(0); // class 2: no GT → null mask
  });

  it('reports a size mismatch and a missing file as problems, computing nothing for the unit', () => {
    const ev = new UnitEvaluator();
    const r = ev.evaluate({ gtDir, predDir, image: 'b', classes: [3, 4], seed: 1 });
    expect(r.counts).toEqual([]);
    expect(r.problems.map((p) => p.code)).toEqual(['input/size-mismatch', 'input/missing-prediction']);
    expect(r.problems[0].file).toBe(join(predDir, 'class_003', 'b.png'));
    expect(r.problems[0].expected).toMatch(/^2x3/);
  });

  it('turns a bad GT file into a problem of the unit', () => {
    writeFileSync(join(gtDir, 'bad.mat'), 'garbage');
    const r = new UnitEvaluator().evaluate({ gtDir, predDir, image: 'bad', classes: [1], seed: 1 });
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0].file).toBe(join(gtDir, 'bad.mat'));
  });

  it('checks without computing when asked', () => {
    const r = new UnitEvaluator().evaluate({ gtDir, predDir, image: 'a', classes: [1, 2], seed: 1, checkOnly: true });
    expect(r).toEqual({ image: 'a', counts: [], problems: [], notes: [] });
  });
});
