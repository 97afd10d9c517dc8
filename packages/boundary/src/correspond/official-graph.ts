/**
 * The official assignment graph of correspondPixels (match.cc), n = n1 + n2 rows and columns:
 *
 * - rows 0..n1−1: map1 nodes; rows n1..n−1: one map2-outlier row per map2 node;
 * - columns 0..n2−1: map2 nodes; columns n2..n−1: one map1-outlier column per map1 node;
 * - edges, in match.cc's order: real edges (weight rint(100·d)), map1 node i → the map1-outlier columns it drew,
 *   the map2-outlier rows drawn by map2 node j → j, outlier → outlier (block 3), all of weight ow; and the
 *   perfect-match overlay, row i → column n2 + i and row n1 + j → column j, of weight 100·ow.
 *
 * Two readings of it. `csr` writes it as a CSR (rows' edges in match.cc's order) for the general solver (`match`,
 * and `count` when the warm start leaves many rows free or the completion fails). `prepare` sets up the on-demand
 * reading used by the completion of `count` (`OfficialOutEdges` by row, `OfficialInEdges` by column): no CSR, no
 * reversed copy; the parts are the real-edge ranges, the drawn blocks, their counting-sort inverses and the window
 * scan around a map2 pixel.
 */
import type { SparseGraph } from '../assignment.js';
import type { ColumnInEdges, RowOutEdges } from '../completion.js';
import type { CompletionScratch } from './outlier-completion.js';
import { Inverted, type OutlierGraph } from './outlier-graph.js';
import type { RealGraph, WindowNeighbours } from './real-graph.js';

/**
 * The parts of the official graph of one `count` call (set by `OfficialGraph.prepare`), and the edge lists read so
 * far in this call: a node's list is written once into a pool and read from there again (the searches of one
 * completion come back to the same few hundred nodes again and again; the lists are the same, in the same order).
 */
class OfficialParts {
  n1 = 0;
  n2 = 0;
  d1 = 0;
  d2 = 0;
  d3 = 0;
  ow = 0;
  over = 0;
  blk1: Int32Array = new Int32Array(0);
  blk2: Int32Array = new Int32Array(0);
  blk3: Int32Array = new Int32Array(0);
  readonly inv = new Inverted();
  /** The pool of the lists read in this call: ids (columns or rows) and costs; a node's list starts at `offset`. */
  ids = new Int32Array(1024);
  costs = new Float64Array(1024);
  offset = 0;
  protected size = 0;
  /** Per node: the call in which its list was written (`call`), its start and length in the pool. */
  private listCall = new Int32Array(0);
  private listStart = new Int32Array(0);
  private listLen = new Int32Array(0);
  private call = 0;

  /** Starts a call with n nodes on this side (every list of the previous call is forgotten). */
  reset(n: number): void {
    if (this.listCall.length < n) {
      const cap = Math.max(n, 2 * this.listCall.length);
      this.listCall = new Int32Array(cap);
      this.listStart = new Int32Array(cap);
      this.listLen = new Int32Array(cap);
      this.call = 0;
    }
    this.call++;
    this.size = 0;
  }

  /** The length of node x's list if it was written in this call (then `offset` is its start), else -1. */
  protected cached(x: number): number {
    if (this.listCall[x] !== this.call) return -1;
    this.offset = this.listStart[x];
    return this.listLen[x];
  }

  /** Makes room for a list of up to `degree` entries at the end of the pool; returns its start. */
  protected begin(degree: number): number {
    const need = this.size + degree;
    if (this.ids.length < need) {
      const cap = Math.max(need, 2 * this.ids.length);
      const ids = new Int32Array(cap);
      ids.set(this.ids.subarray(0, this.size));
      this.ids = ids;
      const costs = new Float64Array(cap);
      costs.set(this.costs.subarray(0, this.size));
      this.costs = costs;
    }
    return this.size;
  }

  /** Records node x's list, written at [start, end) of the pool. */
  protected keep(x: number, start: number, end: number): number {
    this.listCall[x] = this.call;
    this.listStart[x] = start;
    this.listLen[x] = end - start;
    this.size = end;
    this.offset = start;
    return end - start;
  }
}

/**
 * `RowOutEdges` of the official graph: out of map1 row i its real edges, its d1 drawn map1-outlier columns, the
 * overlay column n2 + i; out of map2-outlier row n1 + r the map2 nodes that drew r (`inv`), its outlier columns
 * (drawn by r when n1 < n2; else those that drew r, also in `inv`), the overlay column r.
 */
class OfficialOutEdges extends OfficialParts implements RowOutEdges {
  eBegin: Int32Array = new Int32Array(0);
  eEnd: Int32Array = new Int32Array(0);
  eOrd: Int32Array = new Int32Array(0);
  eW: Float64Array = new Float64Array(0);
  ordToNode2: Int32Array = new Int32Array(0);

  get cols(): Int32Array {
    return this.ids;
  }

  outEdges(i: number): number {
    const known = this.cached(i);
    if (known >= 0) return known;
    const { n1, n2, ow } = this;
    if (i < n1) {
      const e0 = this.eBegin[i];
      const e1 = this.eEnd[i];
      const s0 = this.begin(e1 - e0 + this.d1 + 1);
      const cols = this.ids;
      const costs = this.costs;
      let c = s0;
      const { eOrd, eW, ordToNode2 } = this;
      for (let e = e0; e < e1; e++) {
        cols[c] = ordToNode2[eOrd[e]];
        costs[c++] = eW[e];
      }
      const blk1 = this.blk1;
      for (let t = i * this.d1, end = t + this.d1; t < end; t++) {
        cols[c] = n2 + blk1[t];
        costs[c++] = ow;
      }
      cols[c] = n2 + i;
      costs[c++] = this.over;
      return this.keep(i, s0, c);
    }
    const r = i - n1;
    const { start, items } = this.inv;
    const s0 = this.begin(start[r + 1] - start[r] + (n1 < n2 ? this.d3 : 0) + 1);
    const cols = this.ids;
    const costs = this.costs;
    let c = s0;
    for (let t = start[r], end = start[r + 1]; t < end; t++) {
      cols[c] = items[t];
      costs[c++] = ow;
    }
    if (n1 < n2) {
      const blk3 = this.blk3;
      for (let t = r * this.d3, end = t + this.d3; t < end; t++) {
        cols[c] = n2 + blk3[t];
        costs[c++] = ow;
      }
    }
    cols[c] = r;
    costs[c++] = this.over;
    return this.keep(i, s0, c);
  }
}

/**
 * `ColumnInEdges` of the official graph: into map2 column j the map1 nodes in the window around its pixel, its d2
 * drawn map2-outlier rows, the overlay row n1 + j; into map1-outlier column n2 + i the map1 nodes that drew i, its
 * outlier rows (those that drew i when n1 < n2, else drawn by i), the overlay row i.
 */
class OfficialInEdges extends OfficialParts implements ColumnInEdges {
  node2ToOrd: Int32Array = new Int32Array(0);
  /** `outliersComplete`'s column lists (ids = official rows); `inv` holds the paired map1 nodes by drawn column. */
  hStart: Int32Array = new Int32Array(1);
  hAdj: Int32Array = new Int32Array(0);

  constructor(
    private readonly window: WindowNeighbours,
    private readonly windowSize: number,
  ) {
    super();
  }

  get rows(): Int32Array {
    return this.ids;
  }

  inEdges(j: number): number {
    const known = this.cached(j);
    if (known >= 0) return known;
    const { n1, n2, ow } = this;
    if (j < n2) {
      // real edges, then the d2 drawn map2-outlier rows, then the overlay row
      const s0 = this.begin(this.windowSize + this.d2 + 1);
      const rows = this.ids;
      const costs = this.costs;
      let c = this.window.scanInto(this.node2ToOrd[j], rows, costs, s0);
      const blk2 = this.blk2;
      for (let t = j * this.d2, end = t + this.d2; t < end; t++) {
        rows[c] = n1 + blk2[t];
        costs[c++] = ow;
      }
      rows[c] = n1 + j;
      costs[c++] = this.over;
      return this.keep(j, s0, c);
    }
    const i = j - n2;
    const { start, items } = this.inv;
    const s0 = this.begin(this.hStart[i + 1] - this.hStart[i] + start[i + 1] - start[i] + 1);
    const rows = this.ids;
    const costs = this.costs;
    let c = s0;
    // unpaired map1 nodes that drew i and the outlier rows of block 3 (the completion's column list)
    const hAdj = this.hAdj;
    for (let t = this.hStart[i], end = this.hStart[i + 1]; t < end; t++) {
      rows[c] = hAdj[t];
      costs[c++] = ow;
    }
    for (let t = start[i], end = start[i + 1]; t < end; t++) {
      rows[c] = items[t];
      costs[c++] = ow;
    }
    rows[c] = i;
    costs[c++] = this.over;
    return this.keep(j, s0, c);
  }
}

/** The official graph of the current call of a `CorrespondTarget`, read from its parts or written as a CSR. */
export class OfficialGraph {
  readonly outEdges = new OfficialOutEdges();
  readonly inEdges: OfficialInEdges;
  private rowStart = new Int32Array(0);
  private col = new Int32Array(0);
  private cost = new Float64Array(0);
  private fill = new Int32Array(0);

  /**
   * @param ow weight of the outlier edges
   * @param over weight of the perfect-match overlay edges
   */
  constructor(
    private readonly real: RealGraph,
    private readonly drawn: OutlierGraph,
    private readonly ow: number,
    private readonly over: number,
  ) {
    this.inEdges = new OfficialInEdges(real.byGt, real.windowSize);
  }

  /**
   * Sets up `outEdges` and `inEdges` for the current call. The inverted draws are counting sorts of the blocks
   * (into a map1-outlier column: `outliersComplete`'s lists in `h`, which already hold the unpaired nodes and the
   * outlier rows, plus the paired nodes, `mate[i] >= 0`). Call after `outliersComplete`.
   */
  prepare(mate: Int32Array, h: CompletionScratch): void {
    const real = this.real;
    const { n1, n2 } = real;
    const { d1, d2, d3, blk1, blk2, blk3 } = this.drawn;
    const outEdges = this.outEdges;
    const inEdges = this.inEdges;
    for (const side of [outEdges, inEdges]) {
      side.n1 = n1;
      side.n2 = n2;
      side.d1 = d1;
      side.d2 = d2;
      side.d3 = d3;
      side.blk1 = blk1;
      side.blk2 = blk2;
      side.blk3 = blk3;
      side.ow = this.ow;
      side.over = this.over;
    }
    outEdges.eBegin = real.eBegin;
    outEdges.eEnd = real.eEnd;
    outEdges.eOrd = real.eOrd;
    outEdges.eW = real.eW;
    outEdges.ordToNode2 = real.ordToNode2;
    inEdges.node2ToOrd = real.node2ToOrd;
    // into map1-outlier column c: `outliersComplete`'s column lists (the unpaired map1 nodes that drew c, and the
    // outlier rows of block 3) and the paired map1 nodes that drew c (inverted here)
    const inv = inEdges.inv;
    inv.reset(n1);
    inv.countRows(blk1, d1, n1, mate);
    inv.prefix();
    inv.putRows(blk1, d1, n1, 0, mate);
    inEdges.hStart = h.start;
    inEdges.hAdj = h.adj;
    inEdges.reset(n1 + n2);
    // out of map2-outlier row r: block 2 (the map2 nodes that drew r), and block 3 when n1 >= n2
    const outInv = outEdges.inv;
    outInv.reset(n2);
    outInv.countRows(blk2, d2, n2);
    if (n1 >= n2) outInv.countRows(blk3, d3, n1);
    outInv.prefix();
    outInv.putRows(blk2, d2, n2, 0);
    if (n1 >= n2) outInv.putRows(blk3, d3, n1, n2);
    outEdges.reset(n1 + n2);
  }

  /** The official graph of the current call as a CSR in the kept buffers, each row's edges in match.cc's order. */
  csr(): SparseGraph {
    const { n1, n2, ne, eBegin, eEnd, eOrd, eW, ordToNode2 } = this.real;
    const { d1, d2, d3, blk1, blk2, blk3 } = this.drawn;
    const n = n1 + n2;
    const nmax = Math.max(n1, n2);
    const m = ne + d1 * n1 + d2 * n2 + d3 * nmax + n;
    const ow = this.ow;
    const over = this.over;
    if (this.rowStart.length < n + 1) {
      this.rowStart = new Int32Array(Math.max(n + 1, 2 * this.rowStart.length));
      this.fill = new Int32Array(this.rowStart.length);
    }
    if (this.col.length < m) {
      this.col = new Int32Array(Math.max(m, 2 * this.col.length));
      this.cost = new Float64Array(this.col.length);
    }
    const rowStart = this.rowStart;
    const col = this.col;
    const cost = this.cost;
    const fill = this.fill;
    // CSR written in place, each row's edges in the order of match.cc's edge list (real, map1 outliers,
    // map2 outliers, outlier-outlier, overlay).
    rowStart[0] = 0;
    for (let i = 0; i < n1; i++) rowStart[i + 1] = eEnd[i] - eBegin[i] + d1 + 1;
    for (let j = 0; j < n2; j++) rowStart[n1 + j + 1] = 1;
    // Outlier-outlier edges: row n1 + i (n1 < n2, d3 per row) or row n1 + j for drawn j (n1 >= n2).
    for (let t = 0, end = d2 * n2; t < end; t++) rowStart[n1 + blk2[t] + 1]++;
    if (n1 < n2) {
      for (let i = 0; i < n2; i++) rowStart[n1 + i + 1] += d3;
    } else {
      for (let t = 0, end = d3 * nmax; t < end; t++) rowStart[n1 + blk3[t] + 1]++;
    }
    for (let r2 = 0; r2 < n; r2++) rowStart[r2 + 1] += rowStart[r2];
    for (let i = 0; i < n1; i++) {
      let pos = rowStart[i];
      for (let e = eBegin[i], end = eEnd[i]; e < end; e++) {
        col[pos] = ordToNode2[eOrd[e]];
        cost[pos++] = eW[e];
      }
      for (let t = i * d1, end = t + d1; t < end; t++) {
        col[pos] = n2 + blk1[t];
        cost[pos++] = ow;
      }
      fill[i] = pos;
    }
    // map2 outliers: row n1 + i to column j (d2 rows drawn for each column j, in j order)
    for (let r2 = n1; r2 < n; r2++) fill[r2] = rowStart[r2];
    for (let j = 0; j < n2; j++) {
      for (let t = j * d2, end = t + d2; t < end; t++) {
        const pos = fill[n1 + blk2[t]]++;
        col[pos] = j;
        cost[pos] = ow;
      }
    }
    for (let i = 0; i < nmax; i++) {
      for (let t = i * d3, end = t + d3; t < end; t++) {
        const j = blk3[t];
        const pos = n1 < n2 ? fill[n1 + i]++ : fill[n1 + j]++;
        col[pos] = n1 < n2 ? n2 + j : n2 + i;
        cost[pos] = ow;
      }
    }
    for (let i = 0; i < n1; i++) {
      const pos = fill[i]++;
      col[pos] = n2 + i;
      cost[pos] = over;
    }
    for (let j = 0; j < n2; j++) {
      const pos = fill[n1 + j]++;
      col[pos] = j;
      cost[pos] = over;
    }
    return { n, rowStart, col, cost };
  }
}
