/**
 * Exact minimum-cost perfect assignment on a sparse bipartite graph (n rows, n columns, integer costs
 * held in doubles, |costs| and path sums < 2^53).
 *
 * Primal-dual (Hungarian) method: column reduction gives an initial partial assignment with feasible
 * duals; then phases of (1) vertex-disjoint augmenting paths along tight edges (reduced cost 0) and
 * (2) a multi-source Dijkstra on reduced costs from all free rows up to the nearest free column, followed
 * by a dual shift that makes those shortest paths tight. Duals stay feasible throughout, so the final
 * assignment is an exact optimum (the same optimum value CSA reaches).
 */

export interface SparseGraph {
  /** Number of rows (= number of columns). */
  n: number;
  /** CSR row offsets, length n + 1. */
  rowStart: Int32Array;
  /** Column of each edge. */
  col: Int32Array;
  /** Cost of each edge (integer-valued). */
  cost: Float64Array;
}

export interface Assignment {
  /** Column assigned to each row. */
  rowToCol: Int32Array;
  /** Cost of the edge used by each row. */
  rowCost: Float64Array;
  /** Total cost. */
  total: number;
}

/** A binary min-heap of (key, value) with lazy deletion, on typed arrays. */
export class MinHeap {
  keys: Float64Array;
  vals: Int32Array;
  size = 0;
  constructor(capacity: number) {
    this.keys = new Float64Array(Math.max(16, capacity));
    this.vals = new Int32Array(Math.max(16, capacity));
  }
  clear(): void {
    this.size = 0;
  }
  push(key: number, val: number): void {
    if (this.size >= this.keys.length) {
      const k = new Float64Array(this.keys.length * 2);
      k.set(this.keys);
      this.keys = k;
      const v = new Int32Array(this.vals.length * 2);
      v.set(this.vals);
      this.vals = v;
    }
    const keys = this.keys;
    const vals = this.vals;
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const pk = keys[parent];
      if (pk <= key) break;
      keys[i] = pk;
      vals[i] = vals[parent];
      i = parent;
    }
    keys[i] = key;
    vals[i] = val;
  }
  /** Removes the minimum; read `topKey`/`topVal` first. */
  pop(): void {
    const keys = this.keys;
    const vals = this.vals;
    const n = --this.size;
    if (n === 0) return;
    const key = keys[n];
    const val = vals[n];
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && keys[c + 1] < keys[c]) c++;
      if (keys[c] >= key) break;
      keys[i] = keys[c];
      vals[i] = vals[c];
      i = c;
    }
    keys[i] = key;
    vals[i] = val;
  }
}

/** Solves the assignment; throws if the graph has no perfect matching. */
export function solveAssignment(g: SparseGraph): Assignment {
  const { rowToCol, rowCost, total } = solveAssignmentWithDuals(g);
  return { rowToCol, rowCost, total };
}

/** An optimal assignment with optimal duals: cost(i, j) - u[i] - v[j] >= 0 on every edge, = 0 on the assigned ones. */
export interface DualAssignment extends Assignment {
  u: Float64Array;
  v: Float64Array;
}

/** `solveAssignment`, also returning the final (optimal) duals. */
export function solveAssignmentWithDuals(g: SparseGraph, singleSource = false): DualAssignment {
  const { n, rowStart, col, cost } = g;
  const rowToCol = new Int32Array(n).fill(-1);
  const colToRow = new Int32Array(n).fill(-1);
  const rowCost = new Float64Array(n);
  const v = new Float64Array(n).fill(Infinity);
  const vRow = new Int32Array(n).fill(-1);

  // Column reduction: v[j] = min_i c(i,j), with the last row attaining it (outlier rows come last, so
  // outlier columns go to outlier rows and the real rows stay free for their real columns).
  for (let i = 0; i < n; i++) {
    for (let e = rowStart[i], end = rowStart[i + 1]; e < end; e++) {
      const j = col[e];
      if (cost[e] <= v[j]) {
        v[j] = cost[e];
        vRow[j] = i;
      }
    }
  }
  for (let j = 0; j < n; j++) {
    if (v[j] === Infinity) throw new Error(`assignment: column ${j} has no edge`);
  }
  // Assign each column to its minimising row when that row is still free (duals: u = 0).
  for (let j = n - 1; j >= 0; j--) {
    const i = vRow[j];
    if (rowToCol[i] === -1) {
      rowToCol[i] = j;
      colToRow[j] = i;
      rowCost[i] = v[j];
    }
  }

  const u = new Float64Array(n);
  return continueAssignment(g, { rowToCol, colToRow, rowCost, u, v }, singleSource);
}

/** A partial assignment with duals; `rowToCol`/`colToRow` are -1 where free. */
export interface AssignmentState {
  rowToCol: Int32Array;
  colToRow: Int32Array;
  /** Cost of the edge used by each assigned row. */
  rowCost: Float64Array;
  u: Float64Array;
  v: Float64Array;
}

/**
 * Scratch arrays of `continueAssignment`, kept between calls (grown as needed). The stamp arrays are compared
 * with counters that only grow, so they never need clearing.
 */
export class AssignmentWorkspace {
  capacity = 0;
  dRow = new Float64Array(0);
  dCol = new Float64Array(0);
  colStamp = new Int32Array(0);
  rowStamp = new Int32Array(0);
  colDone = new Int32Array(0);
  visit = new Int32Array(0);
  touchedRows = new Int32Array(0);
  touchedCols = new Int32Array(0);
  stackRow = new Int32Array(0);
  stackEdge = new Int32Array(0);
  freeList = new Int32Array(0);
  predEdge = new Int32Array(0);
  predRow = new Int32Array(0);
  zeroStack = new Int32Array(0);
  readonly heap = new MinHeap(1024);
  /** Last phase / DFS round used (the stamps of earlier calls are all smaller). */
  phase = 0;
  visitRound = 0;

  ensure(n: number): void {
    if (n <= this.capacity) return;
    const cap = Math.max(n, this.capacity * 2, 64);
    this.capacity = cap;
    this.dRow = new Float64Array(cap);
    this.dCol = new Float64Array(cap);
    this.colStamp = new Int32Array(cap);
    this.rowStamp = new Int32Array(cap);
    this.colDone = new Int32Array(cap);
    this.visit = new Int32Array(cap);
    this.touchedRows = new Int32Array(cap);
    this.touchedCols = new Int32Array(cap);
    this.stackRow = new Int32Array(cap);
    this.stackEdge = new Int32Array(cap);
    this.freeList = new Int32Array(cap);
    this.predEdge = new Int32Array(cap);
    this.predRow = new Int32Array(cap);
    this.zeroStack = new Int32Array(cap);
    // fresh stamp arrays are all 0: the counters may restart
    this.phase = 0;
    this.visitRound = 0;
  }
}

/**
 * Completes a partial assignment whose duals are feasible (reduced cost c - u - v >= 0 on every edge,
 * = 0 on the assigned edges) into an optimal one; the state arrays are updated in place.
 * `singleSource`: after the tight-path passes, one shortest augmenting path per free row (cheaper when
 * few rows are free and the searches stay local) instead of multi-source phases.
 * Hot kernel, kept whole (> 80 lines): its phases share the state arrays and counters held in locals.
 */
export function continueAssignment(g: SparseGraph, s: AssignmentState, singleSource = false, ws: AssignmentWorkspace = new AssignmentWorkspace()): DualAssignment {
  // Hungarian phases with explicit duals u (rows) and v (columns): reduced cost r = c - u - v >= 0 on
  // every edge and 0 on matched edges.
  //  1. augment as much as possible along tight edges (r = 0), vertex-disjoint paths by DFS;
  //  2. multi-source Dijkstra from all free rows on reduced costs up to the nearest free column
  //     (distance delta), then shift the duals so that the shortest paths become tight.
  const { n, rowStart, col, cost } = g;
  const { rowToCol, colToRow, rowCost, u, v } = s;
  ws.ensure(n);
  const { dRow, dCol, colStamp, rowStamp, colDone, visit, touchedRows, touchedCols, stackRow, stackEdge, freeList, heap, predEdge, predRow, zeroStack } = ws;
  let phase = ws.phase;
  let visitRound = ws.visitRound;
  let nFree = 0;
  for (let i = 0; i < n; i++) if (rowToCol[i] === -1) freeList[nFree++] = i;

  while (nFree > 0) {
    // 1. Tight augmenting paths (Kuhn's DFS, each column visited at most once per pass).
    for (;;) {
      if (singleSource && nFree <= 4) break; // see below
      visitRound++;
      let augmented = 0;
      let w = 0;
      for (let q = 0; q < nFree; q++) {
        const f = freeList[q];
        // iterative DFS: stackRow[k] = row at depth k, stackEdge[k] = next edge to try
        let depth = 0;
        stackRow[0] = f;
        stackEdge[0] = rowStart[f];
        let success = false;
        while (depth >= 0) {
          const i = stackRow[depth];
          const end = rowStart[i + 1];
          let e = stackEdge[depth];
          let descended = false;
          const ui = u[i];
          if (e === rowStart[i]) {
            // lookahead: a free column on a tight edge of this row ends the path at once
            for (let e2 = e; e2 < end; e2++) {
              const j = col[e2];
              if (colToRow[j] !== -1 || visit[j] === visitRound || cost[e2] - ui - v[j] !== 0) continue;
              visit[j] = visitRound;
              stackEdge[depth] = e2 + 1;
              for (let k = depth; k >= 0; k--) {
                const ek = stackEdge[k] - 1;
                const rk = stackRow[k];
                const jk = col[ek];
                rowToCol[rk] = jk;
                colToRow[jk] = rk;
                rowCost[rk] = cost[ek];
              }
              success = true;
              break;
            }
            if (success) break;
          }
          for (; e < end; e++) {
            const j = col[e];
            if (visit[j] === visitRound || cost[e] - ui - v[j] !== 0) continue;
            visit[j] = visitRound;
            const i2 = colToRow[j];
            if (i2 === -1) {
              // augment along the stack
              // stackEdge[k] is one past the edge taken at every shallower level
              stackEdge[depth] = e + 1;
              for (let k = depth; k >= 0; k--) {
                const ek = stackEdge[k] - 1;
                const rk = stackRow[k];
                const jk = col[ek];
                rowToCol[rk] = jk;
                colToRow[jk] = rk;
                rowCost[rk] = cost[ek];
              }
              success = true;
              break;
            }
            stackEdge[depth] = e + 1;
            depth++;
            stackRow[depth] = i2;
            stackEdge[depth] = rowStart[i2];
            descended = true;
            break;
          }
          if (success) break;
          if (!descended) depth--;
        }
        if (success) augmented++;
        else freeList[w++] = f;
      }
      nFree = w;
      // single-source mode: a last few free rows go straight to the shortest-path search (which also finds
      // tight paths) instead of one more pass that mostly proves that they have none
      if (augmented === 0 || nFree === 0 || (singleSource && nFree <= 4)) break;
    }
    if (nFree === 0) break;
    if (singleSource) {
      for (let q = 0; q < nFree; q++) phase = augmentFrom(freeList[q], phase);
      break;
    }

    // 2. Multi-source Dijkstra up to the nearest free column.
    phase++;
    heap.clear();
    let nTR = 0;
    let nTC = 0;
    for (let q = 0; q < nFree; q++) {
      const f = freeList[q];
      rowStamp[f] = phase;
      dRow[f] = 0;
      touchedRows[nTR++] = f;
      const uf = u[f];
      for (let e = rowStart[f], end = rowStart[f + 1]; e < end; e++) {
        const j = col[e];
        const d = cost[e] - uf - v[j];
        if (colStamp[j] !== phase || d < dCol[j]) {
          if (colStamp[j] !== phase) touchedCols[nTC++] = j;
          colStamp[j] = phase;
          dCol[j] = d;
          heap.push(d, j);
        }
      }
    }
    let delta = Infinity;
    while (heap.size > 0) {
      const dj = heap.keys[0];
      const j = heap.vals[0];
      heap.pop();
      if (colDone[j] === phase || dj !== dCol[j]) continue;
      const i = colToRow[j];
      if (i === -1) {
        delta = dj;
        break;
      }
      colDone[j] = phase;
      rowStamp[i] = phase;
      dRow[i] = dj;
      touchedRows[nTR++] = i;
      const base = dj - u[i];
      for (let e = rowStart[i], end = rowStart[i + 1]; e < end; e++) {
        const j2 = col[e];
        if (colDone[j2] === phase) continue;
        const d = base + cost[e] - v[j2];
        if (colStamp[j2] !== phase || d < dCol[j2]) {
          if (colStamp[j2] !== phase) touchedCols[nTC++] = j2;
          colStamp[j2] = phase;
          dCol[j2] = d;
          heap.push(d, j2);
        }
      }
    }
    if (delta === Infinity) throw new Error('assignment: the graph has no perfect matching');
    // Dual shift: rows and columns with distance < delta.
    for (let k = 0; k < nTR; k++) {
      const i = touchedRows[k];
      if (dRow[i] < delta) u[i] += delta - dRow[i];
    }
    for (let k = 0; k < nTC; k++) {
      const j = touchedCols[k];
      if (colDone[j] === phase && dCol[j] < delta) v[j] -= delta - dCol[j];
    }
  }

  ws.phase = phase;
  ws.visitRound = visitRound;
  let total = 0;
  for (let i = 0; i < n; i++) total += rowCost[i];
  return { rowToCol, rowCost, total, u, v };

  /**
   * One shortest augmenting path from the free row f (Dijkstra on reduced costs), duals shifted, path flipped.
   * Hot kernel (the inner loop of the solver), kept whole.
   */
  function augmentFrom(f: number, ph: number): number {
    // Dijkstra on reduced costs from f up to the nearest free column. Columns reached at the current
    // distance (reduced cost 0) go to a stack instead of the heap; a free column reached at the current
    // distance ends the search at once (no column can be nearer).
    ph++;
    heap.clear();
    let nTR = 0;
    let nTC = 0;
    let zs = 0;
    let curD = 0;
    let delta = Infinity;
    let endCol = -1;
    rowStamp[f] = ph;
    dRow[f] = 0;
    touchedRows[nTR++] = f;
    const uf = u[f];
    for (let e = rowStart[f], end = rowStart[f + 1]; e < end; e++) {
      const j = col[e];
      const d = cost[e] - uf - v[j];
      if (colStamp[j] !== ph || d < dCol[j]) {
        if (colStamp[j] !== ph) touchedCols[nTC++] = j;
        colStamp[j] = ph;
        dCol[j] = d;
        predEdge[j] = e;
        predRow[j] = f;
        if (d === 0) {
          if (colToRow[j] === -1) {
            delta = 0;
            endCol = j;
            break;
          }
          zeroStack[zs++] = j;
        } else heap.push(d, j);
      }
    }
    while (endCol < 0) {
      let j: number;
      let dj: number;
      if (zs > 0) {
        j = zeroStack[--zs];
        dj = curD;
        if (colDone[j] === ph) continue;
      } else {
        if (heap.size === 0) break;
        dj = heap.keys[0];
        j = heap.vals[0];
        heap.pop();
        if (colDone[j] === ph || dj !== dCol[j]) continue;
        curD = dj;
      }
      const i = colToRow[j];
      if (i === -1) {
        delta = dj;
        endCol = j;
        break;
      }
      colDone[j] = ph;
      dRow[i] = dj;
      touchedRows[nTR++] = i;
      const base = dj - u[i];
      for (let e = rowStart[i], end = rowStart[i + 1]; e < end; e++) {
        const j2 = col[e];
        if (colDone[j2] === ph) continue;
        const d = base + cost[e] - v[j2];
        if (colStamp[j2] !== ph || d < dCol[j2]) {
          if (colStamp[j2] !== ph) touchedCols[nTC++] = j2;
          colStamp[j2] = ph;
          dCol[j2] = d;
          predEdge[j2] = e;
          predRow[j2] = i;
          if (d === dj) {
            if (colToRow[j2] === -1) {
              delta = d;
              endCol = j2;
              break;
            }
            zeroStack[zs++] = j2;
          } else heap.push(d, j2);
        }
      }
    }
    if (endCol < 0) throw new Error('assignment: the graph has no perfect matching');
    for (let k = 0; k < nTR; k++) {
      const i = touchedRows[k];
      u[i] += delta - dRow[i];
    }
    for (let k = 0; k < nTC; k++) {
      const j = touchedCols[k];
      if (colDone[j] === ph) v[j] -= delta - dCol[j];
    }
    let j = endCol;
    for (;;) {
      const i = predRow[j];
      const e = predEdge[j];
      const next = rowToCol[i];
      rowToCol[i] = j;
      colToRow[j] = i;
      rowCost[i] = cost[e];
      if (i === f) break;
      j = next;
    }
    return ph;
  }
}
