/**
 * Exact minimum-cost perfect assignment on a sparse bipartite graph (n rows, n columns, integer costs
 * held in doubles, |costs| and path sums < 2^53).
 *
 * Jonker–Volgenant style: column reduction for an initial partial assignment with feasible duals, then
 * one shortest augmenting path (Dijkstra on reduced costs with column potentials) per free row, stopping
 * at the first free column reached. Each augmentation keeps the duals feasible, so the final assignment
 * is an exact optimum (the same optimum value CSA reaches).
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
class MinHeap {
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
  const { n, rowStart, col, cost } = g;
  const rowToCol = new Int32Array(n).fill(-1);
  const colToRow = new Int32Array(n).fill(-1);
  const rowCost = new Float64Array(n);
  const v = new Float64Array(n).fill(Infinity);
  const vRow = new Int32Array(n).fill(-1);

  // Column reduction: v[j] = min_i c(i,j), with the first row attaining it.
  for (let i = 0; i < n; i++) {
    for (let e = rowStart[i], end = rowStart[i + 1]; e < end; e++) {
      const j = col[e];
      if (cost[e] < v[j]) {
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

  // Shortest augmenting paths for the free rows.
  const dist = new Float64Array(n);
  const stamp = new Int32Array(n); // dist valid iff stamp[j] === round
  const done = new Int32Array(n); // settled iff done[j] === round
  const pred = new Int32Array(n);
  const predCost = new Float64Array(n);
  const settled = new Int32Array(n);
  const heap = new MinHeap(1024);
  let round = 0;

  for (let f = 0; f < n; f++) {
    if (rowToCol[f] !== -1) continue;
    round++;
    heap.clear();
    let nSettled = 0;
    let found = -1;
    let dmin = 0;
    for (let e = rowStart[f], end = rowStart[f + 1]; e < end; e++) {
      const j = col[e];
      const d = cost[e] - v[j];
      if (stamp[j] !== round || d < dist[j]) {
        stamp[j] = round;
        dist[j] = d;
        pred[j] = f;
        predCost[j] = cost[e];
        heap.push(d, j);
      }
    }
    while (heap.size > 0) {
      const dj = heap.keys[0];
      const j = heap.vals[0];
      heap.pop();
      if (done[j] === round || dj !== dist[j]) continue;
      if (colToRow[j] === -1) {
        found = j;
        dmin = dj;
        break;
      }
      done[j] = round;
      settled[nSettled++] = j;
      const i = colToRow[j];
      const ui = rowCost[i] - v[j];
      const base = dj - ui;
      let shortcut = -1;
      for (let e = rowStart[i], end = rowStart[i + 1]; e < end; e++) {
        const j2 = col[e];
        if (done[j2] === round) continue;
        const d = base + cost[e] - v[j2];
        if (stamp[j2] !== round || d < dist[j2]) {
          stamp[j2] = round;
          dist[j2] = d;
          pred[j2] = i;
          predCost[j2] = cost[e];
          if (d === dj && colToRow[j2] === -1) {
            shortcut = j2;
            break;
          }
          heap.push(d, j2);
        }
      }
      if (shortcut >= 0) {
        found = shortcut;
        dmin = dj;
        break;
      }
    }
    if (found < 0) throw new Error('assignment: the graph has no perfect matching');
    // Dual update for the settled columns.
    for (let k = 0; k < nSettled; k++) {
      const j = settled[k];
      v[j] += dist[j] - dmin;
    }
    // Augment along the path.
    let j = found;
    for (;;) {
      const i = pred[j];
      const prev = rowToCol[i];
      rowToCol[i] = j;
      colToRow[j] = i;
      rowCost[i] = predCost[j];
      if (i === f) break;
      j = prev;
    }
  }

  let total = 0;
  for (let i = 0; i < n; i++) total += rowCost[i];
  return { rowToCol, rowCost, total };
}
