/**
 * The relaxation behind the fast match count of `CorrespondTarget.count` (see README, "Speed"):
 *
 *   LB = ow·(n1 + n2) + min over matchings M of the real graph of Σ_{e∈M} (w_e − ow)
 *
 * is a lower bound of the official assignment cost (every perfect matching with real part M and v
 * overlay edges costs Σ_M w + ow·(n1 + n2 − |M| − v) + 100·ow·v). It is solved as an assignment on
 * rows = [map1 nodes, map2 dummies], columns = [map2 nodes, map1 dummies]: real edges (k, g) cost w,
 * (k, dummy k), (dummy g, g) and, for every real edge (k, g), (dummy g, dummy k) cost ow (the transposed
 * real graph is enough: a matched pair (k, g) sends dummy g to dummy k). A matching M costs
 * Σ_M w + ow·|M| + ow·(n1 − |M|) + ow·(n2 − |M|), i.e. LB's objective plus a constant.
 *
 * The GT side never changes within a unit, so the solver state (assignment and duals, per pixel and per
 * GT pixel) is kept from one call to the next: pixels of the previous map keep their duals and partners,
 * new pixels get feasible duals, and only the rows left free are augmented.
 *
 * `tie` perturbs the real edges (cost S·w + tie, S > any number of real pairs), so that among the optima of
 * the relaxation the solver returns one with the most (tie = −1) or the fewest (tie = +1) real pairs.
 */
import { AssignmentWorkspace, continueAssignment, solveAssignmentWithDuals, type AssignmentState } from './assignment.js';

export interface RealEdges {
  /** Number of map1 nodes. */
  n1: number;
  /** Node k's edges are [start[k], start[k+1]). */
  start: Int32Array;
  /** GT ordinal of each edge. */
  to: Int32Array;
  /** Weight rint(100·d) of each edge. */
  w: Float64Array;
}

export class RelaxedMatcher {
  private readonly count2: number;
  private readonly scale: number;
  private readonly tie: number;
  private readonly dummyCost: number;
  /** Per pixel id (the caller's compact numbering): the call in which it was a map1 node, its duals and partner. */
  private readonly stamp: Int32Array;
  private readonly uPix: Float64Array;
  private readonly vPix: Float64Array;
  /** GT ordinal matched to the pixel's row, -1 = its own dummy column. */
  private readonly matePix: Int32Array;
  /** Node index of a pixel in the current call, and the call it was last a node in. */
  private readonly kOfPix: Int32Array;
  private readonly inCall: Int32Array;
  /** Per GT ordinal: duals of its column and of its dummy row; the dummy row's partner (-1 = its own column, else a pixel). */
  private readonly v2: Float64Array;
  private readonly uD2: Float64Array;
  private readonly mateD2: Int32Array;
  private call = 0;
  private warm = false;
  /** Per-call arrays, kept between calls (grown as needed, never assumed zeroed). */
  private rowStart = new Int32Array(0);
  private col = new Int32Array(0);
  private cost = new Float64Array(0);
  private fill: Int32Array;
  private rowToCol = new Int32Array(0);
  private colToRow = new Int32Array(0);
  private rowCost = new Float64Array(0);
  private u = new Float64Array(0);
  private v = new Float64Array(0);
  private readonly work = new AssignmentWorkspace();

  constructor(count2: number, pixelCount: number, ow: number, tie: -1 | 0 | 1) {
    this.count2 = count2;
    this.scale = tie === 0 ? 1 : count2 + 1;
    this.tie = tie;
    this.dummyCost = ow * this.scale;
    this.stamp = new Int32Array(pixelCount);
    this.uPix = new Float64Array(pixelCount);
    this.vPix = new Float64Array(pixelCount);
    this.matePix = new Int32Array(pixelCount);
    this.kOfPix = new Int32Array(pixelCount);
    this.inCall = new Int32Array(pixelCount);
    this.v2 = new Float64Array(count2);
    this.uD2 = new Float64Array(count2);
    this.mateD2 = new Int32Array(count2);
    this.fill = new Int32Array(count2);
  }

  /**
   * Solves the relaxation for the map1 nodes `pixels[0..n1)` (a pixel id < pixelCount for node k) with their real
   * edges. Writes the GT ordinal matched to node k (or -1) into `mate` (and its row dual into `uOut`) and returns
   * the number of pairs.
   */
  solve(pixels: Int32Array, edges: RealEdges, mate: Int32Array, uOut?: Float64Array): number {
    const { n1, start, to, w } = edges;
    const N2 = this.count2;
    const n = n1 + N2;
    const S = this.scale;
    const tie = this.tie;
    const big = this.dummyCost;
    const ne = start[n1];
    // CSR: rows k < n1: real edges then the own dummy; rows n1 + g: own column g then the transposes.
    if (this.rowStart.length < n + 1) {
      const cap = Math.max(n + 1, 2 * this.rowStart.length);
      this.rowStart = new Int32Array(cap);
      this.rowToCol = new Int32Array(cap);
      this.colToRow = new Int32Array(cap);
      this.rowCost = new Float64Array(cap);
      this.u = new Float64Array(cap);
      this.v = new Float64Array(cap);
    }
    const rowStart = this.rowStart;
    rowStart.fill(0, 0, n + 1);
    for (let k = 0; k < n1; k++) rowStart[k + 1] = start[k + 1] - start[k] + 1;
    for (let e = 0; e < ne; e++) rowStart[n1 + to[e] + 1]++;
    for (let g = 0; g < N2; g++) rowStart[n1 + g + 1]++;
    for (let r = 0; r < n; r++) rowStart[r + 1] += rowStart[r];
    const m = rowStart[n];
    if (this.col.length < m) {
      this.col = new Int32Array(Math.max(m, 2 * this.col.length));
      this.cost = new Float64Array(this.col.length);
    }
    const col = this.col;
    const cost = this.cost;
    const fill = this.fill;
    for (let g = 0; g < N2; g++) {
      const pos = rowStart[n1 + g];
      col[pos] = g;
      cost[pos] = big;
      fill[g] = pos + 1;
    }
    for (let k = 0; k < n1; k++) {
      let pos = rowStart[k];
      for (let e = start[k], end = start[k + 1]; e < end; e++) {
        const g = to[e];
        col[pos] = g;
        cost[pos++] = S * w[e] + tie;
        const t = fill[g]++;
        col[t] = N2 + k;
        cost[t] = big;
      }
      col[pos] = N2 + k;
      cost[pos] = big;
    }
    const graph = { n, rowStart, col, cost };

    const call = ++this.call;
    const kOfPix = this.kOfPix;
    const inCall = this.inCall;
    for (let k = 0; k < n1; k++) {
      kOfPix[pixels[k]] = k;
      inCall[pixels[k]] = call;
    }
    let result;
    if (!this.warm) {
      result = solveAssignmentWithDuals(graph, true);
    } else {
      const rowToCol = this.rowToCol.fill(-1, 0, n);
      const colToRow = this.colToRow.fill(-1, 0, n);
      const rowCost = this.rowCost.fill(0, 0, n);
      const u = this.u.fill(0, 0, n);
      const v = this.v.fill(0, 0, n);
      const prev = call - 1;
      const stamp = this.stamp;
      // GT side: always present.
      for (let g = 0; g < N2; g++) {
        v[g] = this.v2[g];
        u[n1 + g] = this.uD2[g];
      }
      // Pixels of the previous map: duals and partners kept; new pixels: duals set after.
      for (let k = 0; k < n1; k++) {
        const p = pixels[k];
        if (stamp[p] !== prev) continue;
        u[k] = this.uPix[p];
        v[N2 + k] = this.vPix[p];
        const g = this.matePix[p];
        if (g < 0) {
          rowToCol[k] = N2 + k;
          colToRow[N2 + k] = k;
          rowCost[k] = big;
        } else {
          let c = NaN;
          for (let e = rowStart[k], end = rowStart[k + 1]; e < end; e++) {
            if (col[e] === g) {
              c = cost[e];
              break;
            }
          }
          rowToCol[k] = g;
          colToRow[g] = k;
          rowCost[k] = c;
        }
      }
      for (let g = 0; g < N2; g++) {
        const q = this.mateD2[g];
        if (q < 0) {
          if (colToRow[g] === -1) {
            rowToCol[n1 + g] = g;
            colToRow[g] = n1 + g;
            rowCost[n1 + g] = big;
          }
        } else if (stamp[q] === prev && inCall[q] === call) {
          const c = N2 + kOfPix[q];
          if (colToRow[c] === -1) {
            rowToCol[n1 + g] = c;
            colToRow[c] = n1 + g;
            rowCost[n1 + g] = big;
          }
        }
      }
      for (let k = 0; k < n1; k++) {
        if (stamp[pixels[k]] === prev) continue;
        // New dummy column: min over its incoming edges (dummy rows, cost S·ow) of c - u.
        let vc = Infinity;
        for (let e = start[k], end = start[k + 1]; e < end; e++) {
          const x = big - u[n1 + to[e]];
          if (x < vc) vc = x;
        }
        v[N2 + k] = vc;
        // New row: min over its edges of c - v.
        let uk = Infinity;
        for (let e = rowStart[k], end = rowStart[k + 1]; e < end; e++) {
          const x = cost[e] - v[col[e]];
          if (x < uk) uk = x;
        }
        u[k] = uk;
      }
      const state: AssignmentState = { rowToCol, colToRow, rowCost, u, v };
      result = continueAssignment(graph, state, true, this.work);
    }

    const { rowToCol, u, v } = result;
    let pairs = 0;
    for (let k = 0; k < n1; k++) {
      const p = pixels[k];
      this.stamp[p] = call;
      this.uPix[p] = u[k];
      this.vPix[p] = v[N2 + k];
      const c = rowToCol[k];
      if (c < N2) {
        mate[k] = c;
        this.matePix[p] = c;
        pairs++;
      } else {
        mate[k] = -1;
        this.matePix[p] = -1;
      }
    }
    if (uOut) for (let k = 0; k < n1; k++) uOut[k] = u[k];
    for (let g = 0; g < N2; g++) {
      this.v2[g] = v[g];
      this.uD2[g] = u[n1 + g];
      const c = rowToCol[n1 + g];
      this.mateD2[g] = c === g ? -1 : pixels[c - N2];
    }
    this.warm = true;
    return pairs;
  }
}
