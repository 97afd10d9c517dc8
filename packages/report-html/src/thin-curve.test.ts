import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { thinCurve, thinCurveIndices } from './thin-curve.js';

/** Distance from (px, py) to the segment a–b. */
function segmentDistance(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / len2));
  return Math.hypot(px - ax - t * dx, py - ay - t * dy);
}

const unit = fc.double({ min: 0, max: 1, noNaN: true });

describe('thinCurveIndices', () => {
  it('every dropped point lies within the tolerance of the kept polyline piece that spans it (the drawn shape)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(unit, unit), { minLength: 0, maxLength: 300 }), fc.double({ min: 1e-4, max: 0.05, noNaN: true }), (pts, tolerance) => {
        const x = pts.map((p) => p[0]);
        const y = pts.map((p) => p[1]);
        const kept = thinCurveIndices(x, y, { tolerance, maxPoints: 1e9 });
        if (pts.length > 0) {
          expect(kept[0]).toBe(0);
          expect(kept[kept.length - 1]).toBe(pts.length - 1);
        }
        for (let k = 0; k + 1 < kept.length; k++) {
          const a = kept[k];
          const b = kept[k + 1];
          expect(b).toBeGreaterThan(a);
          for (let i = a + 1; i < b; i++) expect(segmentDistance(x[i], y[i], x[a], y[a], x[b], y[b])).toBeLessThanOrEqual(tolerance * (1 + 1e-9));
        }
      }),
    );
  });

  it('a coarse thinning of a fine one keeps every original point within the sum of the two tolerances', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(unit, unit), { minLength: 2, maxLength: 300 }), fc.double({ min: 1e-4, max: 0.02, noNaN: true }), fc.double({ min: 1e-4, max: 0.05, noNaN: true }), (pts, fine, coarse) => {
        const x = pts.map((p) => p[0]);
        const y = pts.map((p) => p[1]);
        const first = thinCurveIndices(x, y, { tolerance: fine, maxPoints: 1e9 });
        const kept = thinCurveIndices(x, y, { tolerance: coarse, maxPoints: 1e9, among: first });
        expect(kept.every((i) => first.includes(i))).toBe(true);
        expect(kept[0]).toBe(0);
        expect(kept[kept.length - 1]).toBe(pts.length - 1);
        for (let k = 0; k + 1 < kept.length; k++) {
          const a = kept[k];
          const b = kept[k + 1];
          for (let i = a + 1; i < b; i++) expect(segmentDistance(x[i], y[i], x[a], y[a], x[b], y[b])).toBeLessThanOrEqual((fine + coarse) * (1 + 1e-9));
        }
      }),
    );
  });

  it('leaves out non-finite points (a precision of 0/0 is not drawn) and keeps the order', () => {
    expect(thinCurveIndices([0, 0.1, 0.2, 0.3], [NaN, 1, null, 0.5])).toEqual([1, 3]);
  });

  it('keeps the corners of a step curve and drops collinear points', () => {
    const x = [0, 0.1, 0.2, 0.3, 0.3, 0.4, 0.5];
    const y = [1, 1, 1, 1, 0.5, 0.5, 0.5];
    expect(thinCurve(x, y)).toEqual([
      [0, 1],
      [0.3, 1],
      [0.3, 0.5],
      [0.5, 0.5],
    ]);
  });

  it('a 20 000-point noisy curve fits in maxPoints', () => {
    const n = 20_000;
    const x = Array.from({ length: n }, (_, i) => (i + 1) / n);
    const y = x.map((r, i) => 0.5 + 0.4 * Math.sin(r * 40) * ((i * 7919) % 13) / 13);
    const kept = thinCurveIndices(x, y, { maxPoints: 2000 });
    expect(kept.length).toBeLessThanOrEqual(2000);
    expect(kept[0]).toBe(0);
    expect(kept[kept.length - 1]).toBe(n - 1);
  });
});
