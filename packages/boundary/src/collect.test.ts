import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { averagePrecision, collectBoundaryScores, fmeasure, maxF, odsMaxF } from './collect.js';
import type { BoundaryCounts } from './evaluate.js';
import { boundaryThresholds, matlabColon, matlabLinspace, thresholdCutoffs } from './thresholds.js';
import { readFileSync } from 'node:fs';

const spec = JSON.parse(readFileSync(fileURLToPath(new URL('../../../fixtures/specs/ade20k-boundary-thresholds.json', import.meta.url)), 'utf8')) as {
  thresholds_matlab: number[];
  min_uint8_passing: number[];
};

describe('thresholds', () => {
  it('equal MATLAB linspace(0.01, 0.99, 99) bit for bit and the uint8 cut-offs', () => {
    expect(Array.from(boundaryThresholds(99))).toEqual(spec.thresholds_matlab);
    expect(Array.from(thresholdCutoffs(boundaryThresholds(99)))).toEqual(spec.min_uint8_passing);
  });
  it('linspace(0,1) is k/99 and 0:0.01:1 has 101 points ending at 1', () => {
    const d = matlabLinspace(0, 1, 100);
    expect(d[1]).toBe(1 / 99);
    expect(d[99]).toBe(1);
    const c = matlabColon(0, 0.01, 1);
    expect(c.length).toBe(101);
    expect(c[0]).toBe(0);
    expect(c[50]).toBe(0.5);
    expect(c[100]).toBe(1);
  });
});

function counts(rows: [number, number, number, number][]): BoundaryCounts {
  return {
    cntR: Float64Array.from(rows.map((r) => r[0])),
    sumR: Float64Array.from(rows.map((r) => r[1])),
    cntP: Float64Array.from(rows.map((r) => r[2])),
    sumP: Float64Array.from(rows.map((r) => r[3])),
  };
}

describe('collectBoundaryScores', () => {
  it('gives F = 1 and AP = 0 for a constant perfect recall (tiny class 51)', () => {
    const th = boundaryThresholds(99);
    const c = counts(Array.from({ length: 99 }, () => [10, 10, 10, 10] as [number, number, number, number]));
    const s = collectBoundaryScores([c], th);
    expect(s.odsF).toBe(1);
    expect(s.oisF).toBe(1);
    expect(s.ap).toBe(0);
    expect(s.odsThreshold).toBe(th[0]);
  });

  it('images without GT add their sumP at the first threshold to OIS', () => {
    const th = boundaryThresholds(3);
    const withGt = counts([[5, 10, 5, 10], [4, 10, 4, 5], [1, 10, 1, 1]]);
    const noGt = counts([[0, 0, 0, 7], [0, 0, 0, 3], [0, 0, 0, 1]]);
    const s = collectBoundaryScores([withGt, noGt], th);
    // per-image best of withGt: F(0.5,0.5)=0.5, F(0.4,0.8)=0.533.., F(0.1,1)=0.18 → index 1
    expect(s.oisRecall).toBeCloseTo(4 / 10, 15);
    expect(s.oisPrecision).toBeCloseTo(4 / (5 + 7), 15);
  });

  it('scores stay in range and AP <= 1.01', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.tuple(fc.nat(50), fc.nat(50), fc.nat(50), fc.nat(50)), { minLength: 5, maxLength: 5 }), { minLength: 1, maxLength: 4 }),
        (imgs) => {
          const th = boundaryThresholds(5);
          const per = imgs.map((rows) =>
            counts(rows.map(([a, b, _c, d]) => [Math.min(a, b, d), b, Math.min(a, b, d), d] as [number, number, number, number])),
          );
          const s = collectBoundaryScores(per, th);
          for (const v of [s.odsRecall, s.odsPrecision, s.odsF, s.oisRecall, s.oisPrecision, s.oisF]) {
            expect(v).toBeGreaterThanOrEqual(0);
            expect(v).toBeLessThanOrEqual(1);
          }
          expect(s.ap).toBeGreaterThanOrEqual(0);
          expect(s.ap).toBeLessThanOrEqual(1.01 + 1e-12);
          expect(s.odsF).toBeGreaterThanOrEqual(Math.max(...s.curve.f) - 1e-15);
        },
      ),
    );
  });

  it('fmeasure guards 0/0 and maxF keeps the first maximum', () => {
    expect(fmeasure(0, 0)).toBe(0);
    const r = maxF([0.1, 0.2], [0.5, 0.5], [0.5, 0.5]);
    expect(r.t).toBe(0.1);
    expect(averagePrecision([0.2, 0.2], [1, 0.5])).toBe(0);
  });
});

describe('odsMaxF (the bootstrap\'s ODS F)', () => {
  it('equals maxF(...).f bit for bit on random and near-flat curves', () => {
    const ratio = fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(0, 0.5, 1), fc.integer({ min: 0, max: 1000 }).map((v) => v / 1000));
    fc.assert(
      fc.property(fc.array(fc.tuple(ratio, ratio), { minLength: 1, maxLength: 99 }), (points) => {
        const R = points.map((p) => p[0]);
        const P = points.map((p) => p[1]);
        const t = points.map((_, i) => (i + 1) / 100);
        expect(Object.is(odsMaxF(R, P), maxF(t, R, P).f)).toBe(true);
      }),
      { numRuns: 300 },
    );
    // a plateau: many segments tie with the best, none may be skipped wrongly
    const R = Array.from({ length: 99 }, (_, i) => 0.5 + ((i % 3) - 1) * 1e-12);
    const P = Array.from({ length: 99 }, (_, i) => 0.5 - ((i % 3) - 1) * 1e-12);
    expect(Object.is(odsMaxF(R, P), maxF(R.map((_, i) => i), R, P).f)).toBe(true);
  });
});
