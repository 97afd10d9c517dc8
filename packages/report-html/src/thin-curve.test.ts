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

/** Ramer–Douglas–Peucker over every finite point, recursively: the plain algorithm, without dropping axis runs first. */
function plainDouglasPeucker(xs: Array<number | null>, ys: Array<number | null>, tolerance: number): number[] {
  const finite = xs.map((_, i) => i).filter((i) => Number.isFinite(xs[i]) && Number.isFinite(ys[i]));
  const x = finite.map((i) => xs[i] as number);
  const y = finite.map((i) => ys[i] as number);
  if (x.length === 0) return [];
  const keep = new Set<number>([0, x.length - 1]);
  const tol2 = tolerance * tolerance;
  const split = (a: number, b: number): void => {
    if (b - a < 2) return;
    const dx = x[b] - x[a];
    const dy = y[b] - y[a];
    const len2 = dx * dx + dy * dy;
    let worst = -1;
    let worstD = tol2;
    for (let k = a + 1; k < b; k++) {
      const px = x[k] - x[a];
      const py = y[k] - y[a];
      const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, (px * dx + py * dy) / len2));
      const d2 = len2 === 0 ? px * px + py * py : (px - t * dx) ** 2 + (py - t * dy) ** 2;
      if (d2 > worstD) {
        worstD = d2;
        worst = k;
      }
    }
    if (worst < 0) return;
    keep.add(worst);
    split(a, worst);
    split(worst, b);
  };
  if (x.length > 0) split(0, x.length - 1);
  return [...keep].sort((a, b) => a - b).map((k) => finite[k]);
}

/** A PR curve of a ranked list (true for a true positive): long vertical runs where precision falls at one recall. */
function prCurve(hits: boolean[], positives: number): { recall: number[]; precision: number[] } {
  let tp = 0;
  const recall: number[] = [];
  const precision: number[] = [];
  hits.forEach((hit, i) => {
    if (hit) tp++;
    recall.push(tp / positives);
    precision.push(tp / (i + 1));
  });
  return { recall, precision };
}

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

  it('keeps exactly the points of the plain algorithm over the finite points (repeats and axis runs dropped first change nothing)', () => {
    const grid = fc.integer({ min: 0, max: 6 }).map((v) => v / 6);
    fc.assert(
      fc.property(
        fc.oneof(
          fc.array(fc.boolean(), { minLength: 1, maxLength: 400 }).map((hits) => prCurve(hits, Math.max(1, hits.filter(Boolean).length))),
          fc.array(fc.tuple(grid, grid), { minLength: 1, maxLength: 200 }).map((pts) => ({ recall: pts.map((p) => p[0]), precision: pts.map((p) => p[1]) })),
        ),
        fc.double({ min: 1e-4, max: 0.05, noNaN: true }),
        fc.array(fc.tuple(fc.nat(), fc.constantFrom(null, NaN, Infinity)), { maxLength: 5 }),
        ({ recall, precision }, tolerance, holes) => {
          // a few points not drawn (a precision of 0/0 before the first detection, for example)
          const r: Array<number | null> = [...recall];
          const p: Array<number | null> = [...precision];
          for (const [at, v] of holes) (at % 2 ? r : p)[at % r.length] = v;
          expect(thinCurveIndices(r, p, { tolerance, maxPoints: 1e9 })).toEqual(plainDouglasPeucker(r, p, tolerance));
        },
      ),
      { numRuns: 300 },
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
