/**
 * Step 2 of `CorrespondTarget.count` (README.md in this folder): can the relaxed pairs be completed into a perfect
 * matching of the official graph by the drawn outlier edges alone (no overlay)? That is a perfect matching of
 *
 *   rows {unpaired map1 nodes} ∪ {map2-outlier rows}  with  columns {map1-outlier columns} ∪ {unpaired map2 nodes}
 *
 * on the drawn edges. Such a completion costs Σ_M w + ow·(n1 + n2 − |M|), the relaxed lower bound, so with the
 * relaxed pairs it is an official optimum. `listColumns` builds the column-major adjacency of these edges from the
 * drawn blocks; `maximumMatching` runs Kuhn's augmenting paths from the column side (greedy start, then passes of
 * vertex-disjoint DFS searches until a pass augments nothing). The matching left in `rowMate` is a maximum matching
 * of these edges, all tight under the warm-start duals: the start of the official completion when it is not perfect.
 */
import { countEntries, scatterRows, type OutlierGraph } from './outlier-graph.js';
import type { RealGraph } from './real-graph.js';

/** Arrays of `outliersComplete`, kept between calls. Ids: see `listColumns`. */
export class CompletionScratch {
  /** Column c's rows are adj[start[c] .. start[c + 1]). */
  start = new Int32Array(1);
  adj = new Int32Array(0);
  /** Row -> column (-1 = unmatched, -2 = a required row without edges), column -> row. */
  rowMate = new Int32Array(0);
  colMate = new Int32Array(0);
  rowVis = new Int32Array(0);
  stackCol = new Int32Array(0);
  stackEdge = new Int32Array(0);
  free = new Int32Array(0);
  /** Per map2 node: 1 if it is unpaired (a required column of `outliersComplete`). */
  freeJ = new Uint8Array(0);
  /** Last DFS round (rowVis entries of earlier rounds are smaller). */
  round = 0;

  ensure(nodes: number, edges: number): void {
    if (this.rowMate.length < nodes) {
      const cap = Math.max(nodes, 2 * this.rowMate.length);
      this.start = new Int32Array(cap + 1);
      this.rowMate = new Int32Array(cap);
      this.colMate = new Int32Array(cap);
      this.rowVis = new Int32Array(cap);
      this.stackCol = new Int32Array(cap);
      this.stackEdge = new Int32Array(cap);
      this.free = new Int32Array(cap);
      this.freeJ = new Uint8Array(cap);
      this.round = 0;
    }
    if (this.adj.length < edges) this.adj = new Int32Array(Math.max(edges, 2 * this.adj.length));
  }
}

/**
 * Whether the relaxed pairs (`mate`: node -> GT ordinal or -1, `mateOfG` its inverse) can be completed into a
 * perfect matching of the official graph by the drawn outlier edges alone; leaves a maximum matching of those
 * edges in `h.rowMate` (row -> column, < 0 = unmatched).
 */
export function outliersComplete(real: RealGraph, drawn: OutlierGraph, mate: Int32Array, mateOfG: Int32Array, h: CompletionScratch): boolean {
  const n1 = real.n1;
  const n2 = real.n2;
  const nn = n1 + n2;
  h.ensure(nn, drawn.d1 * n1 + drawn.d2 * n2 + drawn.d3 * Math.max(n1, n2));
  listColumns(real, drawn, mate, mateOfG, h);
  return maximumMatching(h, n1, nn);
}

/**
 * The column-major adjacency of the outlier edges that may complete the relaxed pairs. Rows i < n1 (unpaired map1
 * node i), n1 + j (map2-outlier row j); columns i < n1 (map1-outlier column i), n1 + j (unpaired map2 node j).
 * Also sets `rowMate` to -1 on every row with an edge (-2 stays on a required row without edges).
 */
function listColumns(real: RealGraph, drawn: OutlierGraph, mate: Int32Array, mateOfG: Int32Array, h: CompletionScratch): void {
  const { n1, n2, node2ToOrd } = real;
  const { d1, d2, d3, blk1, blk2, blk3 } = drawn;
  const nn = n1 + n2;
  const { start, adj, rowMate, colMate, stackEdge } = h;
  start.fill(0, 0, nn + 1);
  rowMate.fill(-1, 0, n1);
  colMate.fill(-1, 0, nn);
  // rowMate doubles as a degree flag below: -2 = required row without edges yet
  for (let i = 0; i < n1; i++) if (mate[i] < 0) rowMate[i] = -2;
  rowMate.fill(-2, n1, nn);
  // the unpaired map2 nodes (required columns)
  const freeJ = h.freeJ;
  for (let j = 0; j < n2; j++) freeJ[j] = ((mateOfG[node2ToOrd[j]] < 0) as unknown as number) | 0;
  for (let i = 0; i < n1; i++) {
    if (mate[i] >= 0) continue;
    for (let t = i * d1, end = t + d1; t < end; t++) start[blk1[t] + 1]++;
  }
  if (n1 < n2) {
    countEntries(blk3, d3, n2, start);
  } else {
    for (let i = 0; i < n1; i++) start[i + 1] += d3;
  }
  for (let j = 0; j < n2; j++) start[n1 + j + 1] += d2 * freeJ[j];
  for (let c = 0; c < nn; c++) start[c + 1] += start[c];
  const fill = stackEdge; // scratch: next slot of each column
  fill.set(start.subarray(0, nn));
  for (let i = 0; i < n1; i++) {
    if (mate[i] >= 0) continue;
    for (let t = i * d1, end = t + d1; t < end; t++) adj[fill[blk1[t]]++] = i;
    if (d1 > 0) rowMate[i] = -1;
  }
  if (n1 < n2) {
    scatterRows(blk3, d3, n2, n1, fill, adj);
    if (d3 > 0) rowMate.fill(-1, n1, n1 + n2);
  } else {
    for (let i = 0; i < n1; i++) {
      for (let t = i * d3, end = t + d3; t < end; t++) {
        const r = n1 + blk3[t];
        adj[fill[i]++] = r;
        rowMate[r] = -1;
      }
    }
  }
  // an unpaired map2 node's rows are its d2 draws (distinct), in a range of its own
  for (let j = 0; j < n2; j++) {
    if (freeJ[j] === 0) continue;
    for (let t = j * d2, end = t + d2, f = start[n1 + j]; t < end; t++, f++) {
      const r = n1 + blk2[t];
      adj[f] = r;
      rowMate[r] = -1;
    }
  }
  // (a required row without edges keeps rowMate -2: some required column then stays unmatched)
}

/**
 * A maximum matching of the columns listed by `listColumns` (greedy start, then augmenting paths from the
 * unmatched required columns); true if every required column is matched.
 * Hot kernel (every completion), kept whole: the greedy start and the DFS passes share the stacks held in locals.
 */
function maximumMatching(h: CompletionScratch, n1: number, nn: number): boolean {
  const { start, adj, rowMate, colMate, rowVis, stackCol, stackEdge, freeJ } = h;
  // greedy start
  for (let c = 0; c < nn; c++) {
    for (let e = start[c], end = start[c + 1]; e < end; e++) {
      const r = adj[e];
      if (rowMate[r] === -1) {
        rowMate[r] = c;
        colMate[c] = r;
        break;
      }
    }
  }
  // augmenting paths from the unmatched required columns: passes of vertex-disjoint DFS searches (one visit
  // round per pass, a free row among a column's edges ends the path at once) until a pass augments nothing
  const free = h.free;
  let nFree = 0;
  for (let c = 0; c < nn; c++) if (colMate[c] === -1 && (c < n1 || freeJ[c - n1] !== 0)) free[nFree++] = c;
  while (nFree > 0) {
    const round = ++h.round;
    let w = 0;
    for (let q = 0; q < nFree; q++) {
      const c0 = free[q];
      let depth = 0;
      stackCol[0] = c0;
      stackEdge[0] = start[c0];
      let found = false;
      while (depth >= 0) {
        const c = stackCol[depth];
        const end = start[c + 1];
        if (stackEdge[depth] === start[c]) {
          for (let e = start[c]; e < end; e++) {
            const r = adj[e];
            if (rowMate[r] === -1 && rowVis[r] !== round) {
              rowVis[r] = round;
              stackEdge[depth] = e + 1;
              found = true;
              break;
            }
          }
          if (found) break;
        }
        let descended = false;
        for (let e = stackEdge[depth]; e < end; e++) {
          const r = adj[e];
          if (rowVis[r] === round) continue;
          rowVis[r] = round;
          stackEdge[depth] = e + 1;
          const c2 = rowMate[r];
          if (c2 === -1) {
            found = true;
            break;
          }
          depth++;
          stackCol[depth] = c2;
          stackEdge[depth] = start[c2];
          descended = true;
          break;
        }
        if (found) break;
        if (!descended) depth--;
      }
      if (!found) {
        free[w++] = c0;
        continue;
      }
      for (let k = depth; k >= 0; k--) {
        const c = stackCol[k];
        const r = adj[stackEdge[k] - 1];
        rowMate[r] = c;
        colMate[c] = r;
      }
    }
    if (w === nFree) break;
    nFree = w;
  }
  return nFree === 0;
}
