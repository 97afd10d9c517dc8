import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { solveAssignment, solveAssignmentWithDuals, type SparseGraph } from './assignment.js';
import { certifyAssignment, completeAssignment, CompletionWorkspace, ForwardGraph, ReversedGraph } from './completion.js';

function build(n: number, edges: [number, number, number][]): SparseGraph {
  const sorted = [...edges].sort((a, b) => a[0] - b[0]);
  const rowStart = new Int32Array(n + 1);
  for (const e of sorted) rowStart[e[0] + 1]++;
  for (let i = 0; i < n; i++) rowStart[i + 1] += rowStart[i];
  return { n, rowStart, col: Int32Array.from(sorted.map((e) => e[1])), cost: Float64Array.from(sorted.map((e) => e[2])) };
}

/**
 * Random graphs with a perfect matching, many equal costs (large tight regions, as in the official
 * correspondPixels graph), solved once; then some assigned edges get dearer and their rows are freed, which
 * keeps the duals feasible: the warm state `completeAssignment` starts from.
 */
const warmCase = fc
  .record({
    n: fc.integer({ min: 1, max: 40 }),
    degree: fc.integer({ min: 1, max: 6 }),
    costs: fc.constantFrom([0], [0, 1], [0, 5, 100], [3, 7, 11, 1000]),
    seed: fc.integer({ min: 1, max: 2 ** 30 }),
    freed: fc.integer({ min: 0, max: 12 }),
    raise: fc.integer({ min: 0, max: 500 }),
  })
  .map(({ n, degree, costs, seed, freed, raise }) => {
    let s = seed;
    const rand = (): number => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296);
    const edges: [number, number, number][] = [];
    const perm = Array.from({ length: n }, (_, i) => i).sort(() => rand() - 0.5);
    for (let i = 0; i < n; i++) {
      edges.push([i, perm[i], 1000 + Math.floor(rand() * 50)]);
      for (let d = 0; d < degree; d++) edges.push([i, Math.floor(rand() * n), costs[Math.floor(rand() * costs.length)]]);
    }
    const picks: number[] = [];
    for (let q = 0; q < freed; q++) picks.push(Math.floor(rand() * n));
    return { n, edges, picks, raise };
  });

describe('completeAssignment (bidirectional tight search + backward Dijkstra)', () => {
  it('completes a warm state into an optimum (cold solver), with feasible duals and tight assigned edges', () => {
    fc.assert(
      fc.property(warmCase, ({ n, edges, picks, raise }) => {
        const first = solveAssignmentWithDuals(build(n, edges));
        const colToRow = new Int32Array(n).fill(-1);
        for (let i = 0; i < n; i++) colToRow[first.rowToCol[i]] = i;
        // the freed rows' assigned edges cost `raise` more (every copy of that (row, column) pair)
        const freed = new Set(picks);
        const changed = edges.map(([i, j, c]): [number, number, number] => (freed.has(i) && first.rowToCol[i] === j ? [i, j, c + raise] : [i, j, c]));
        const g = build(n, changed);
        const rowToCol = Int32Array.from(first.rowToCol);
        const rowCost = Float64Array.from(first.rowCost);
        for (const i of freed) {
          colToRow[rowToCol[i]] = -1;
          rowToCol[i] = -1;
          rowCost[i] = 0;
        }
        const state = { rowToCol, colToRow, rowCost, u: Float64Array.from(first.u), v: Float64Array.from(first.v) };
        expect(completeAssignment(n, state, new CompletionWorkspace(), new ForwardGraph(g), new ReversedGraph(g))).toBe(true);
        expect(certifyAssignment(g, state)).toBe(true);
        let total = 0;
        for (let i = 0; i < n; i++) total += rowCost[i];
        expect(total).toBe(solveAssignment(g).total);
      }),
      { numRuns: 400 },
    );
  });
});
