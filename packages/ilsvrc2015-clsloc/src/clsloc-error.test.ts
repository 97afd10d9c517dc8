import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isDevkitError } from '@cvdevkit/core';
import { computeClsLocErrors } from './clsloc-error.js';
import type { GroundTruthBoxes } from './ground-truth.js';
import { parseBlacklist, parseGroundTruthLabels, parsePredictions } from './inputs.js';

type Box = [number, number, number, number];
interface Obj {
  label: number;
  box: Box;
}
interface Case {
  gt: number[][];
  pred: [number, Box][][];
  objects: Obj[][];
  blacklist: number[];
}

function boxesOf(objects: Obj[][]): GroundTruthBoxes {
  const offsets = new Int32Array(objects.length + 1);
  const labels: number[] = [];
  const boxes: number[] = [];
  objects.forEach((objs, i) => {
    offsets[i] = labels.length;
    for (const o of objs) {
      labels.push(o.label);
      boxes.push(...o.box);
    }
  });
  offsets[objects.length] = labels.length;
  return {
    source: 'mem',
    kind: 'mat',
    images: objects.length,
    offsets,
    labels: Int32Array.from(labels),
    boxes: Float64Array.from(boxes),
    unknown: new Map(),
    describe: (i) => `rec(${i + 1})`,
  };
}

function run(c: Case) {
  const pred = parsePredictions(c.pred.map((row) => row.map(([l, b]) => [l, ...b].join(' ')).join(' ')).join('\n') + '\n', 'pred.txt', 1000);
  const labels = parseGroundTruthLabels(c.gt.map((r) => r.join(' ')).join('\n'), 'gt.txt', 1000);
  const blacklist = c.blacklist.length ? parseBlacklist(c.blacklist.join('\n'), 'bl.txt') : undefined;
  return computeClsLocErrors({ pred, labels, boxes: boxesOf(c.objects), blacklist });
}

/**
 * A literal reading of eval_clsloc.m (written from the spec, loop by loop) for one
 * max_num_pred_per_image, used as the reference: dlmread zero padding, the cut to 5*m columns,
 * the classification double loop, and the localisation loop with `for k = 1:n(1)`.
 * Returns null where the official code fails.
 */
function reference(c: Case, m: number): { cls: number; loc: number } | null {
  const N = c.gt.length;
  const widthPred = Math.max(...c.pred.map((r) => r.length * 5));
  const cols = Math.min(widthPred, m * 5);
  const P = c.pred.map((r) => {
    const flat = r.flatMap(([l, b]) => [l, ...b]);
    const row = new Array<number>(cols).fill(0);
    for (let x = 0; x < cols && x < flat.length; x++) row[x] = flat[x];
    return row;
  });
  const numGuesses = cols / 5;
  const W = Math.max(...c.gt.map((r) => r.length));
  const G = c.gt.map((r) => [...r, ...new Array<number>(W - r.length).fill(0)]);
  const predLabels = P.map((row) => row.filter((_, x) => x % 5 === 0));
  const cVec = new Array<number>(N).fill(0);
  for (let j = 0; j < W; j++) for (let i = 0; i < N; i++) cVec[i] += Math.min(...predLabels[i].map((l) => (G[i][j] !== l ? 1 : 0)));
  const n = G.map((r) => r.filter((x) => x !== 0).length);
  let cls = 0;
  for (let i = 0; i < N; i++) cls += cVec[i] / n[i];
  cls /= N;
  const mask = new Set(c.blacklist);
  let loc = 0;
  for (let i = 0; i < N; i++) {
    let e = 0;
    if (!mask.has(i + 1)) {
      for (let k = 0; k < n[0]; k++) {
        const d: number[] = [];
        for (let j = 0; j < numGuesses; j++) {
          const djk = G[i][k] !== predLabels[i][j] ? 1 : 0;
          let f: number[] = [1];
          if (djk === 0) {
            const bb = P[i].slice(j * 5 + 1, j * 5 + 5);
            const ov: number[] = [];
            for (const o of c.objects[i]) {
              if (G[i][k] !== 1001 && o.label !== G[i][k]) continue;
              const g = o.box;
              const bi = [Math.max(bb[0], g[0]), Math.max(bb[1], g[1]), Math.min(bb[2], g[2]), Math.min(bb[3], g[3])];
              const iw = bi[2] - bi[0] + 1;
              const ih = bi[3] - bi[1] + 1;
              let v = -1;
              if (iw > 0 && ih > 0) v = (iw * ih) / ((bb[2] - bb[0] + 1) * (bb[3] - bb[1] + 1) + (g[2] - g[0] + 1) * (g[3] - g[1] + 1) - iw * ih);
              ov.push(v);
            }
            if (ov.length === 0) return null; // d(i,j) = [] fails
            f = ov.map((v) => (v < 0.5 ? 1 : 0));
          }
          d.push(Math.min(...f.map((x) => Math.max(x, djk))));
        }
        e += Math.min(...d);
      }
    }
    loc += e / n[i];
  }
  loc /= N - c.blacklist.length;
  return { cls, loc };
}

const coord = fc.integer({ min: 0, max: 40 });
const boxArb: fc.Arbitrary<Box> = fc.tuple(coord, coord, fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 30 })).map(([x, y, w, h]) => [x, y, x + w, y + h]);
const caseArb: fc.Arbitrary<Case> = fc
  .integer({ min: 1, max: 8 })
  .chain((N) =>
    fc.record({
      gt: fc.array(fc.uniqueArray(fc.oneof({ weight: 9, arbitrary: fc.integer({ min: 1, max: 4 }) }, { weight: 1, arbitrary: fc.constant(1001) }), { minLength: 1, maxLength: 3 }), { minLength: N, maxLength: N }),
      pred: fc.array(fc.array(fc.tuple(fc.oneof({ weight: 9, arbitrary: fc.integer({ min: 0, max: 5 }) }, { weight: 1, arbitrary: fc.constant(1001) }), boxArb), { minLength: 1, maxLength: 7 }), { minLength: N, maxLength: N }),
      objects: fc.array(fc.array(fc.record({ label: fc.integer({ min: 1, max: 4 }), box: boxArb }), { minLength: 1, maxLength: 4 }), { minLength: N, maxLength: N }),
      blacklist: fc.uniqueArray(fc.integer({ min: 1, max: N }), { maxLength: 2 }),
    }),
  );

describe('computeClsLocErrors', () => {
  it('equals a literal reading of eval_clsloc.m on random cases (or fails where it fails)', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const refs = [1, 2, 3, 4, 5].map((m) => reference(c, m));
        if (refs.some((r) => r === null)) {
          expect(() => run(c)).toThrow();
          return;
        }
        const r = run(c);
        refs.forEach((ref, k) => {
          expect(r.clsError[k]).toBe(ref!.cls);
          expect(Object.is(r.locError![k], ref!.loc) || Math.abs(r.locError![k] - ref!.loc) === 0).toBe(true);
        });
      }),
      { numRuns: 400 },
    );
  });

  it('single-label ground truth: cls error is the top-k error', () => {
    const r = run({
      gt: [[1], [2], [3], [4]],
      pred: [[[1, [0, 0, 9, 9]]], [[9, [0, 0, 9, 9]], [2, [0, 0, 9, 9]]], [[5, [0, 0, 1, 1]]], [[4, [0, 0, 9, 9]]]],
      objects: [[{ label: 1, box: [0, 0, 9, 9] }], [{ label: 2, box: [0, 0, 9, 9] }], [{ label: 3, box: [0, 0, 9, 9] }], [{ label: 4, box: [50, 50, 60, 60] }]],
      blacklist: [],
    });
    expect(r.clsError).toEqual([0.5, 0.25, 0.25, 0.25, 0.25]);
    expect(r.locError).toEqual([0.75, 0.5, 0.5, 0.5, 0.5]);
  });

  it('label 1001 matches a box of any class; IoU exactly 0.5 is a hit', () => {
    const r = run({
      gt: [[1001], [7]],
      pred: [[[1001, [0, 0, 9, 9]]], [[7, [1, 1, 100, 50]]]],
      objects: [[{ label: 3, box: [0, 0, 9, 9] }], [{ label: 7, box: [1, 1, 100, 100] }]],
      blacklist: [],
    });
    expect(r.locError![0]).toBe(0);
  });

  it('blacklisted rows count in the cls error, not in the loc error; length(blacklist) is the denominator', () => {
    const c: Case = {
      gt: [[1], [2], [3]],
      pred: [[[1, [0, 0, 9, 9]]], [[9, [0, 0, 9, 9]]], [[9, [0, 0, 9, 9]]]],
      objects: [[{ label: 1, box: [0, 0, 9, 9] }], [{ label: 2, box: [0, 0, 9, 9] }], [{ label: 3, box: [0, 0, 9, 9] }]],
      blacklist: [3],
    };
    const r = run(c);
    expect(r.clsError[0]).toBeCloseTo(2 / 3, 15);
    expect(r.locError![0]).toBe(0.5);
    // an index beyond N excludes nothing but still counts in length(blacklist)
    const r2 = run({ ...c, blacklist: [3, 10] });
    expect(r2.locError![0]).toBe(1);
    expect(r2.blacklistedRows).toBe(1);
    expect(r2.blacklistSize).toBe(2);
  });

  it('a matching guess without a box of its class is the official crash, reported for every row', () => {
    const c: Case = {
      gt: [[1], [2]],
      pred: [[[1, [0, 0, 9, 9]]], [[2, [0, 0, 9, 9]]]],
      objects: [[{ label: 3, box: [0, 0, 9, 9] }], [{ label: 4, box: [0, 0, 9, 9] }]],
      blacklist: [],
    };
    try {
      run(c);
      expect.unreachable();
    } catch (e) {
      expect(isDevkitError(e)).toBe(true);
      if (!isDevkitError(e)) return;
      expect(e.problems.map((p) => [p.file, p.line, p.code])).toEqual([
        ['pred.txt', 1, 'clsloc/label-without-box'],
        ['pred.txt', 2, 'clsloc/label-without-box'],
      ]);
    }
    // blacklisted rows are never looked at
    expect(() => run({ ...c, blacklist: [1, 2] })).not.toThrow();
  });

  it('an unknown WNID fails only where compute_overlap looks at the image', () => {
    const pred = parsePredictions('1 0 0 9 9\n5 0 0 9 9\n', 'pred.txt', 1000);
    const labels = parseGroundTruthLabels('1\n2\n', 'gt.txt', 1000);
    const boxes = boxesOf([[{ label: 1, box: [0, 0, 9, 9] }], [{ label: -1, box: [0, 0, 9, 9] }]]);
    boxes.unknown.set(1, 'n99999999');
    expect(computeClsLocErrors({ pred, labels, boxes }).locError![0]).toBe(0.5);
    const pred2 = parsePredictions('1 0 0 9 9\n2 0 0 9 9\n', 'pred.txt', 1000);
    expect(() => computeClsLocErrors({ pred: pred2, labels, boxes })).toThrow(/n99999999/);
  });

  it('without boxes only the classification error is computed', () => {
    const pred = parsePredictions('1 0 0 9 9\n', 'pred.txt', 1000);
    const labels = parseGroundTruthLabels('1\n', 'gt.txt', 1000);
    const r = computeClsLocErrors({ pred, labels });
    expect(r.clsError).toEqual([0, 0, 0, 0, 0]);
    expect(r.locError).toBeNull();
  });
});
