import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { solveAssignment } from '../assignment.js';
import { RelaxedMatcher, type Neighbours } from './relaxed.js';

/** Fixed real edges of every pixel (the GT side never changes): [GT ordinal, weight] lists. */
type PixelEdges = [number, number][][];

/**
 * The relaxation's optimum max Σ_M (ow − w) from scratch: an assignment with a dummy column per node and a dummy
 * row per GT pixel.
 */
function coldOptimum(pe: PixelEdges, pixels: number[], count2: number, ow: number): number {
  const n1 = pixels.length;
  const n = n1 + count2;
  const rows: [number, number][][] = [];
  for (let k = 0; k < n1; k++) rows.push([...pe[pixels[k]], [count2 + k, ow]]);
  for (let g = 0; g < count2; g++) {
    const r: [number, number][] = [[g, ow]];
    for (let k = 0; k < n1; k++) if (pe[pixels[k]].some(([g2]) => g2 === g)) r.push([count2 + k, ow]);
    rows.push(r);
  }
  const rowStart = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) rowStart[i + 1] = rowStart[i] + rows[i].length;
  const col = new Int32Array(rowStart[n]);
  const cost = new Float64Array(rowStart[n]);
  let t = 0;
  for (const r of rows) {
    for (const [c, w] of r) {
      col[t] = c;
      cost[t++] = w;
    }
  }
  // cost = Σ_M w + ow·(n1 + count2 − |M|) = ow·(n1 + count2) − Σ_M (ow − w)
  return ow * (n1 + count2) - solveAssignment({ n, rowStart, col, cost }).total;
}

/** The GT side of the real edges (what CorrespondTarget finds by scanning the window around a GT pixel). */
function gtNeighbours(byGt: [number, number][][]): Neighbours {
  const size = Math.max(1, ...byGt.map((l) => l.length));
  const nb: Neighbours = {
    to: new Int32Array(size),
    w: new Float64Array(size),
    offset: 0,
    edges(g: number): number {
      byGt[g].forEach(([k, wt], t) => {
        nb.to[t] = k;
        nb.w[t] = wt;
      });
      return byGt[g].length;
    },
  };
  return nb;
}

const instance = fc
  .record({
    count2: fc.integer({ min: 1, max: 14 }),
    pixels: fc.integer({ min: 1, max: 18 }),
    ow: fc.constantFrom(100, 1000, 63350),
    density: fc.double({ min: 0.05, max: 0.6, noNaN: true }),
    seed: fc.integer({ min: 1, max: 2 ** 30 }),
    calls: fc.integer({ min: 1, max: 12 }),
  })
  .map(({ count2, pixels, ow, density, seed, calls }) => {
    let s = seed;
    const rand = (): number => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296);
    const pe: PixelEdges = [];
    for (let p = 0; p < pixels; p++) {
      const es: [number, number][] = [];
      for (let g = 0; g < count2; g++) if (rand() < density) es.push([g, Math.floor(rand() * Math.min(ow, 640))]);
      pe.push(es);
    }
    const maps: number[][] = [];
    for (let c = 0; c < calls; c++) {
      const keep = rand();
      const m: number[] = [];
      for (let p = 0; p < pixels; p++) if (rand() < keep) m.push(p);
      maps.push(m);
    }
    return { count2, pe, ow, maps };
  });

describe('RelaxedMatcher (maximum-weight matching, warm-started across calls)', () => {
  it('reaches the optimum of a cold solve on every call, with a valid matching and valid potentials', () => {
    fc.assert(
      fc.property(instance, ({ count2, pe, ow, maps }) => {
        const rm = new RelaxedMatcher(count2, pe.length, ow);
        for (const pixels of maps) {
          const n1 = pixels.length;
          const begin = new Int32Array(n1);
          const end = new Int32Array(n1);
          const to: number[] = [];
          const w: number[] = [];
          const byGt: [number, number][][] = Array.from({ length: count2 }, () => []);
          for (let k = 0; k < n1; k++) {
            begin[k] = to.length;
            for (const [g, wt] of pe[pixels[k]]) {
              to.push(g);
              w.push(wt);
              byGt[g].push([k, wt]);
            }
            end[k] = to.length;
          }
          const mate = new Int32Array(n1);
          const u = new Float64Array(n1);
          const edges = { n1, begin, end, to: Int32Array.from(to), w: Float64Array.from(w) };
          const pairs = rm.solve(Int32Array.from(pixels), edges, gtNeighbours(byGt), mate, u);
          const weightOf = (k: number, g: number): number | undefined => pe[pixels[k]].find(([g2]) => g2 === g)?.[1];
          let value = 0;
          const owner = new Map<number, number>();
          for (let k = 0; k < n1; k++) {
            if (mate[k] < 0) continue;
            expect(owner.has(mate[k])).toBe(false);
            owner.set(mate[k], k);
            const wk = weightOf(k, mate[k]);
            expect(wk).toBeDefined();
            expect(rm.matchedWeights[k]).toBe(wk);
            value += ow - (wk as number);
          }
          expect(owner.size).toBe(pairs);
          expect(value).toBe(coldOptimum(pe, pixels, count2, ow));
          // potentials of CorrespondTarget.count's Dijkstra: w(k', g) − w(k, g) − u[k'] + u[k] >= 0 for g = M(k)
          for (const [g, k] of owner) {
            for (let k2 = 0; k2 < n1; k2++) {
              const w2 = weightOf(k2, g);
              if (w2 === undefined) continue;
              expect(w2 - (weightOf(k, g) as number) - u[k2] + u[k]).toBeGreaterThanOrEqual(0);
            }
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
