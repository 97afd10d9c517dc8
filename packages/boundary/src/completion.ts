/**
 * Completion of a nearly perfect assignment whose free rows sit in a large region of tight edges (reduced cost
 * 0): the official correspondPixels graph after the warm start of `CorrespondTarget.count`, where every
 * outlier-outlier edge is tight and a shortest augmenting path searched from a free row would first flood that
 * whole region and then most of the real graph.
 *
 * Per augmentation:
 * 1. a Dijkstra search backwards from all free columns (reduced costs on reversed edges: column -> the rows with an
 *    unassigned edge into it -> the column assigned to that row) up to the first row that is in F, the set of rows
 *    a free row reaches along tight alternating paths (at cost 0); its distance δ is the length of a shortest
 *    augmenting path, and only the few nodes nearer than δ to the free columns are searched;
 * 2. whether a row is in F is decided by a bidirectional search: one row of a forward breadth-first search from the
 *    free rows (grown on demand, shared by the tests of one augmentation) and one row of a backward one from the
 *    row in turn, until they meet or either side runs out (F is most of the graph, but the two sides meet after a
 *    few dozen rows);
 * 3. the duals of the searched nodes are shifted as in the Hungarian method seen from the column side
 *    (v_j += δ − d_j, u_i −= δ − d_i), which keeps every reduced cost >= 0 and makes the path tight, and the
 *    path (the forward tree's part, the backward tree's part, the Dijkstra part) is flipped.
 * The duals stay feasible and the assigned edges tight throughout, so the result is an exact optimum
 * (`certifyAssignment` checks both conditions over all edges, for tests).
 */
import { MinHeap, type AssignmentState, type SparseGraph } from './assignment.js';

/**
 * The edges into a column, on demand (the searches of `completeAssignment` look at a few columns only):
 * `inEdges(j)` returns their number and leaves their rows and costs in rows/costs from `offset`.
 */
export interface ColumnInEdges {
  rows: Int32Array;
  costs: Float64Array;
  offset: number;
  inEdges(j: number): number;
}

/** The edges out of a row, on demand: `outEdges(i)` returns their number, their columns and costs from `offset`. */
export interface RowOutEdges {
  cols: Int32Array;
  costs: Float64Array;
  offset: number;
  outEdges(i: number): number;
}

/** The out-edges of a CSR graph. */
export class ForwardGraph implements RowOutEdges {
  cols: Int32Array;
  costs: Float64Array;
  offset = 0;
  private readonly start: Int32Array;

  constructor(g: SparseGraph) {
    this.start = g.rowStart;
    this.cols = g.col;
    this.costs = g.cost;
  }

  outEdges(i: number): number {
    this.offset = this.start[i];
    return this.start[i + 1] - this.offset;
  }
}

/** The in-edges of any CSR graph, from a reversed copy of it. */
export class ReversedGraph implements ColumnInEdges {
  rows: Int32Array;
  costs: Float64Array;
  offset = 0;
  private readonly start: Int32Array;

  constructor(g: SparseGraph) {
    const { n, rowStart, col, cost } = g;
    const m = rowStart[n];
    const start = new Int32Array(n + 1);
    for (let e = 0; e < m; e++) start[col[e] + 1]++;
    for (let j = 0; j < n; j++) start[j + 1] += start[j];
    const fill = start.slice(0, n);
    this.rows = new Int32Array(m);
    this.costs = new Float64Array(m);
    for (let i = 0; i < n; i++) {
      for (let e = rowStart[i], end = rowStart[i + 1]; e < end; e++) {
        const t = fill[col[e]]++;
        this.rows[t] = i;
        this.costs[t] = cost[e];
      }
    }
    this.start = start;
  }

  inEdges(j: number): number {
    this.offset = this.start[j];
    return this.start[j + 1] - this.start[j];
  }
}

/** Scratch arrays of `completeAssignment`, kept between calls. Stamp arrays are compared with a growing counter. */
export class CompletionWorkspace {
  private capN = 0;
  rowSeen = new Int32Array(0);
  colSeen = new Int32Array(0);
  rowDone = new Int32Array(0);
  rowReached = new Int32Array(0);
  predRow = new Int32Array(0);
  predCost = new Float64Array(0);
  succCol = new Int32Array(0);
  succCost = new Float64Array(0);
  dRow = new Float64Array(0);
  dCol = new Float64Array(0);
  queue = new Int32Array(0);
  settledRows = new Int32Array(0);
  settledCols = new Int32Array(0);
  freeCols = new Int32Array(0);
  bSeen = new Int32Array(0);
  bNextRow = new Int32Array(0);
  bNextCost = new Float64Array(0);
  bQueue = new Int32Array(0);
  readonly heap = new MinHeap(1024);
  stamp = 0;

  ensure(n: number): void {
    if (n > this.capN) {
      const cap = Math.max(n, 2 * this.capN, 64);
      this.capN = cap;
      this.rowSeen = new Int32Array(cap);
      this.colSeen = new Int32Array(cap);
      this.rowDone = new Int32Array(cap);
      this.rowReached = new Int32Array(cap);
      this.predRow = new Int32Array(cap);
      this.predCost = new Float64Array(cap);
      this.succCol = new Int32Array(cap);
      this.succCost = new Float64Array(cap);
      this.dRow = new Float64Array(cap);
      this.dCol = new Float64Array(cap);
      this.queue = new Int32Array(cap);
      this.settledRows = new Int32Array(cap);
      this.settledCols = new Int32Array(cap);
      this.freeCols = new Int32Array(cap);
      this.bSeen = new Int32Array(cap);
      this.bNextRow = new Int32Array(cap);
      this.bNextCost = new Float64Array(cap);
      this.bQueue = new Int32Array(cap);
      this.stamp = 0;
    }
  }
}

/**
 * Completes `s` (duals feasible, assigned edges tight) into an optimal perfect assignment of a graph with n rows
 * and n columns, in place; `from` and `into` give the edges out of a row and into a column. Returns false if the
 * graph has no perfect matching. Hot kernel, kept whole (> 80 lines): the backward search, the membership test and
 * the path flip share their frontier arrays.
 */
export function completeAssignment(n: number, s: AssignmentState, ws: CompletionWorkspace, from: RowOutEdges, into: ColumnInEdges): boolean {
  const { rowToCol, colToRow, rowCost, u, v } = s;
  ws.ensure(n);
  let nFree = 0;
  for (let i = 0; i < n; i++) if (rowToCol[i] === -1) nFree++;
  const { rowSeen, colSeen, rowDone, rowReached, predRow, predCost, succCol, succCost, dRow, dCol, queue, settledRows, settledCols, freeCols, heap } = ws;
  const { bSeen, bNextRow, bNextCost, bQueue } = ws;
  let fHead = 0;
  let fTail = 0;

  while (nFree > 0) {
    // The forward search (rows reached from the free rows along tight alternating paths: the set F) grows on
    // demand, shared by the membership tests of this round; nothing changes until the path is flipped.
    const fr = ++ws.stamp;
    fHead = 0;
    fTail = 0;
    for (let i = 0; i < n; i++) {
      if (rowToCol[i] === -1) {
        rowSeen[i] = fr;
        queue[fTail++] = i;
      }
    }
    // Backward Dijkstra from the free columns up to the first row that is in F.
    const bh = ++ws.stamp;
    heap.clear();
    let nFc = 0;
    for (let j = 0; j < n; j++) if (colToRow[j] === -1) freeCols[nFc++] = j;
    let nSR = 0;
    let nSC = 0;
    for (let q = 0; q < nFc; q++) {
      const j = freeCols[q];
      dCol[j] = 0;
      settledCols[nSC++] = j;
      scanColumn(j, 0, bh);
    }
    let delta = Infinity;
    let endRow = -1;
    let meet = -1;
    while (heap.size > 0) {
      const d = heap.keys[0];
      const i = heap.vals[0];
      heap.pop();
      if (rowDone[i] === bh || d !== dRow[i]) continue;
      rowDone[i] = bh;
      meet = inF(i, fr);
      if (meet >= 0) {
        delta = d;
        endRow = i;
        break;
      }
      settledRows[nSR++] = i;
      const j = rowToCol[i]; // matched: every free row is in F
      dCol[j] = d;
      settledCols[nSC++] = j;
      scanColumn(j, d, bh);
    }
    if (endRow < 0) return false; // no perfect matching
    // Dual shift of the nodes nearer than delta (none of them is in F), then the flips: F's part from a free row
    // to the meeting row, the tight part from there to endRow, the backward part from endRow to a free column.
    for (let q = 0; q < nSC; q++) {
      const j = settledCols[q];
      v[j] += delta - dCol[j];
    }
    for (let q = 0; q < nSR; q++) {
      const i = settledRows[q];
      u[i] -= delta - dRow[i];
    }
    if (rowToCol[meet] !== -1) flipForward(rowToCol[meet], meet);
    for (let x = meet; x !== endRow; ) {
      const y = bNextRow[x];
      const j = rowToCol[y];
      rowToCol[x] = j;
      colToRow[j] = x;
      rowCost[x] = bNextCost[x];
      x = y;
    }
    let i = endRow;
    for (;;) {
      const j = succCol[i];
      const next = colToRow[j];
      rowToCol[i] = j;
      colToRow[j] = i;
      rowCost[i] = succCost[i];
      if (next === -1) break;
      i = next;
    }
    nFree--;
  }
  return true;

  /**
   * Whether row r is in F (reached from a free row along tight alternating paths): a bidirectional search, one
   * row of the shared forward search and one row of a backward search from r (rows with a tight unassigned edge
   * into the column of a row already known to reach r) in turn, until they meet or either side runs out. Returns
   * the meeting row (the forward tree reaches it; bNextRow/bNextCost lead from it to r) or -1.
   */
  function inF(r: number, fr: number): number {
    if (rowSeen[r] === fr) return r;
    const bt = ++ws.stamp;
    bSeen[r] = bt;
    let bHead = 0;
    let bTail = 0;
    bQueue[bTail++] = r;
    for (;;) {
      // one forward row
      if (fHead >= fTail) return -1; // F is complete and r is not in it
      const i = queue[fHead++];
      const ui = u[i];
      const nOut = from.outEdges(i);
      const outCols = from.cols;
      const outCosts = from.costs;
      for (let e = from.offset, end = e + nOut; e < end; e++) {
        const j = outCols[e];
        const c = outCosts[e];
        if (colSeen[j] === fr || c - ui - v[j] !== 0) continue;
        colSeen[j] = fr;
        predRow[j] = i;
        predCost[j] = c;
        const i2 = colToRow[j];
        if (i2 === -1 || rowSeen[i2] === fr) continue;
        rowSeen[i2] = fr;
        queue[fTail++] = i2;
        if (bSeen[i2] === bt) return i2;
      }
      // one backward row
      if (bHead >= bTail) return -1; // nothing else reaches r
      const y = bQueue[bHead++];
      const j = rowToCol[y]; // y is matched (a free row is in F)
      const vj = v[j];
      const nIn = into.inEdges(j);
      const inRows = into.rows;
      const inCosts = into.costs;
      for (let t = into.offset, end = t + nIn; t < end; t++) {
        const x = inRows[t];
        if (x === y || bSeen[x] === bt) continue;
        const c = inCosts[t];
        if (c - u[x] - vj !== 0) continue;
        bSeen[x] = bt;
        bNextRow[x] = y;
        bNextCost[x] = c;
        if (rowSeen[x] === fr) return x;
        bQueue[bTail++] = x;
      }
    }
  }

  /** Relaxes the rows with an unassigned edge into column j (settled at distance d) of the backward search. */
  function scanColumn(j: number, d: number, bh: number): void {
    const vj = v[j];
    const cnt = into.inEdges(j);
    const inRows = into.rows;
    const inCosts = into.costs;
    for (let t = into.offset, end = t + cnt; t < end; t++) {
      const i = inRows[t];
      if (rowToCol[i] === j || rowDone[i] === bh) continue;
      const c = inCosts[t];
      const nd = d + c - u[i] - vj;
      if (rowReached[i] === bh && nd >= dRow[i]) continue;
      rowReached[i] = bh;
      dRow[i] = nd;
      succCol[i] = j;
      succCost[i] = c;
      heap.push(nd, i);
    }
  }

  /**
   * Flips the BFS tree path that ends at column j: j goes to the row that reached it, that row's column to the
   * row that reached it, and so on up to a free row. `release` is the row giving j up (-1: j was free).
   */
  function flipForward(j: number, release: number): void {
    if (release >= 0) rowToCol[release] = -1;
    for (;;) {
      const r = predRow[j];
      const next = rowToCol[r];
      rowToCol[r] = j;
      colToRow[j] = r;
      rowCost[r] = predCost[j];
      if (next === -1) break;
      j = next;
    }
  }
}

/** Whether `s` is a perfect assignment with feasible duals and tight assigned edges (then it is optimal). */
export function certifyAssignment(g: SparseGraph, s: AssignmentState): boolean {
  const { n, rowStart, col, cost } = g;
  const { rowToCol, colToRow, rowCost, u, v } = s;
  for (let i = 0; i < n; i++) {
    const j = rowToCol[i];
    if (j < 0 || colToRow[j] !== i || rowCost[i] - u[i] - v[j] !== 0) return false;
    const ui = u[i];
    for (let e = rowStart[i], end = rowStart[i + 1]; e < end; e++) if (cost[e] - ui - v[col[e]] < 0) return false;
  }
  return true;
}
