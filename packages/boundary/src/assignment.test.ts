import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { continueAssignment, solveAssignment, solveAssignmentWithDuals } from './assignment.js';

function build(n: number, edges: [number, number, number][]) {
  const sorted = [...edges].sort((a, b) => a[0] - b[0]);
  const rowStart = new Int32Array(n + 1);
  for (const e of sorted) rowStart[e[0] + 1]++;
  for (let i = 0; i < n; i++) rowStart[i + 1] += rowStart[i];
  return { n, rowStart, col: Int32Array.from(sorted.map((e) => e[1])), cost: Float64Array.from(sorted.map((e) => e[2])) };
}

function brute(n: number, edges: [number, number, number][]): number {
  const c: number[][] = Array.from({ length: n }, () => Array<number>(n).fill(Infinity));
  for (const [i, j, w] of edges) c[i][j] = Math.min(c[i][j], w);
  let best = Infinity;
  const used = new Array<boolean>(n).fill(false);
  const rec = (i: number, s: number) => {
    if (s >= best) return;
    if (i === n) {
      best = s;
      return;
    }
    for (let j = 0; j < n; j++) {
      if (!used[j] && c[i][j] < Infinity) {
        used[j] = true;
        rec(i + 1, s + c[i][j]);
        used[j] = false;
      }
    }
  };
  rec(0, 0);
  return best;
}

describe('solveAssignment', () => {
  it('finds the exact optimum (brute force on small graphs)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 7 }),
        fc.array(fc.tuple(fc.nat(6), fc.nat(6), fc.integer({ min: 0, max: 20 })), { maxLength: 30 }),
        (n, extra) => {
          const edges: [number, number, number][] = [];
          for (let i = 0; i < n; i++) edges.push([i, i, 1000]); // a perfect matching always exists
          for (const [i, j, w] of extra) if (i < n && j < n) edges.push([i, j, w]);
          const res = solveAssignment(build(n, edges));
          expect(res.total).toBe(brute(n, edges));
          expect(new Set(res.rowToCol).size).toBe(n);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('continues a partial assignment with feasible duals to an optimum (single-source and phased)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 7 }),
        fc.array(fc.tuple(fc.nat(6), fc.nat(6), fc.integer({ min: 0, max: 20 })), { maxLength: 30 }),
        fc.array(fc.boolean(), { minLength: 7, maxLength: 7 }),
        fc.boolean(),
        (n, extra, drop, single) => {
          const edges: [number, number, number][] = [];
          for (let i = 0; i < n; i++) edges.push([i, i, 1000]);
          for (const [i, j, w] of extra) if (i < n && j < n) edges.push([i, j, w]);
          const g = build(n, edges);
          const cold = solveAssignmentWithDuals(g, single);
          expect(cold.total).toBe(brute(n, edges));
          // drop some pairs (duals stay feasible, the kept pairs stay tight) and lower the duals of freed rows
          const rowToCol = cold.rowToCol.slice();
          const colToRow = new Int32Array(n).fill(-1);
          const u = cold.u.slice();
          for (let i = 0; i < n; i++) {
            if (drop[i]) {
              rowToCol[i] = -1;
              u[i] -= 3;
            } else colToRow[rowToCol[i]] = i;
          }
          const res = continueAssignment(g, { rowToCol, colToRow, rowCost: cold.rowCost.slice(), u, v: cold.v.slice() }, single);
          expect(res.total).toBe(cold.total);
          expect(new Set(res.rowToCol).size).toBe(n);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('throws when no perfect matching exists', () => {
    expect(() => solveAssignment(build(2, [[0, 0, 1], [1, 0, 1], [0, 1, 1]].slice(0, 2) as [number, number, number][]))).toThrow();
  });
});
