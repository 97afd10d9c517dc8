/**
 * Parity with the official devkit (seeded oracle, CP_SEED = 12345): every per-threshold count of the
 * fixture cases, and the per-class scores (within 1e-9) of the tiny case.
 */
import { describe, expect, it } from 'vitest';
import { collectBoundaryScores, evaluateBoundary, boundaryThresholds, type BoundaryCounts } from '../src/index.js';
import { hasCase, loadExpected, loadGroundTruth, loadPrediction } from './fixtures.js';

const KEYS = ['cntR', 'sumR', 'cntP', 'sumP'] as const;

function evaluateCase(name: string, classes: number[], gtDir = 'annotations_boundary'): Map<number, BoundaryCounts[]> {
  const exp = loadExpected(name);
  const out = new Map<number, BoundaryCounts[]>();
  for (const cls of classes) out.set(cls, []);
  for (const img of exp.images) {
    const gtOf = loadGroundTruth(name, img, gtDir);
    for (const cls of classes) {
      const p = loadPrediction(name, cls, img);
      out.get(cls)!.push(evaluateBoundary(p.data, gtOf(cls), p.height, p.width));
    }
  }
  return out;
}

function expectCounts(name: string, got: Map<number, BoundaryCounts[]>): number {
  const exp = loadExpected(name);
  let compared = 0;
  for (const [cls, perImage] of got) {
    exp.images.forEach((img, k) => {
      const e = exp.counts[String(cls)]?.[img];
      for (const key of KEYS) {
        const want = e ? e[key] : new Array<number>(99).fill(0);
        expect(Array.from(perImage[k][key]), `${name} class ${cls} ${img} ${key}`).toEqual(want);
        compared += 99;
      }
    });
  }
  return compared;
}

describe.runIf(hasCase('tiny'))('tiny case (3 images, all 150 classes)', () => {
  const classes = Array.from({ length: 150 }, (_, i) => i + 1);
  let got: Map<number, BoundaryCounts[]>;

  it('reproduces every count of expected.json', () => {
    got = evaluateCase('tiny', classes);
    expect(expectCounts('tiny', got)).toBe(150 * 3 * 4 * 99);
  });

  it('reproduces the per-class scores and the challenge score within 1e-9', () => {
    const exp = loadExpected('tiny');
    const th = boundaryThresholds(99);
    expect(Array.from(th)).toEqual(exp.thresholds);
    let sumF = 0;
    for (const e of exp.classes) {
      const s = collectBoundaryScores(got.get(e.class)!, th);
      const pairs: [number, number, string][] = [
        [s.odsThreshold, e.T_ODS, 'T_ODS'],
        [s.odsRecall, e.R_ODS, 'R_ODS'],
        [s.odsPrecision, e.P_ODS, 'P_ODS'],
        [s.odsF, e.F_ODS, 'F_ODS'],
        [s.oisRecall, e.R_OIS, 'R_OIS'],
        [s.oisPrecision, e.P_OIS, 'P_OIS'],
        [s.oisF, e.F_OIS, 'F_OIS'],
        [s.ap, e.AP, 'AP'],
      ];
      for (const [a, b, what] of pairs) expect(Math.abs(a - b), `class ${e.class} ${what}: ${a} vs ${b}`).toBeLessThanOrEqual(1e-9);
      sumF += s.odsF;
    }
    expect(Math.abs(sumF / 150 - exp.challenge_score_mean_F_ODS)).toBeLessThanOrEqual(1e-9);
  });

  it('reads the MATLAB-layout (sparse logical) GT copies to the same counts', () => {
    const some = [13, 51, 56, 57];
    expectCounts('tiny', evaluateCase('tiny', some, 'annotations_boundary_matlab'));
  });
});

describe.runIf(hasCase('medium'))('medium case (256x341, a few classes)', () => {
  it('reproduces every count of classes 13, 16, 20, 31, 36, 45, 150', () => {
    expect(expectCounts('medium', evaluateCase('medium', [13, 16, 20, 31, 36, 45, 150]))).toBeGreaterThan(0);
  });
});

// All 150 classes of medium (20 non-trivial units): run by hand with BOUNDARY_FULL_MEDIUM=1 (about 10-20 s).
describe.runIf(hasCase('medium') && process.env.BOUNDARY_FULL_MEDIUM === '1')('medium case, every class (opt-in)', () => {
  it('reproduces every count of expected.json', () => {
    const classes = Array.from({ length: 150 }, (_, i) => i + 1);
    expect(expectCounts('medium', evaluateCase('medium', classes))).toBe(150 * 3 * 4 * 99);
  }, 300_000);
});
