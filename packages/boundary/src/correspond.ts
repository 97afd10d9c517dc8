/**
 * `correspondPixels` of the BSDS benchmark (cp_src: correspondPixels.cc + match.cc + kofn.cc + CSA),
 * with the random outlier graph reproduced draw for draw and an exact min-cost perfect assignment.
 */
import { AssignmentWorkspace, continueAssignment, solveAssignment, type SparseGraph } from './assignment.js';
import { CompletionWorkspace, completeAssignment, type ColumnInEdges, type RowOutEdges } from './completion.js';
import { RelaxedMatcher, type Neighbours } from './correspond-relaxed.js';
import { FastKofN } from './correspond-random.js';
import { Erand48 } from './random.js';
import { checkSize } from './thin.js';

export interface CorrespondOptions {
  /** Match tolerance as a fraction of the image diagonal (default 0.0075). */
  maxDist?: number;
  /** Cost of leaving a pixel unmatched, as a multiple of the tolerance in pixels (default 100). */
  outlierCost?: number;
  /** erand48 seed, applied at the start of every call (default 12345). */
  seed?: number;
}

export const DEFAULT_MAX_DIST = 0.0075;
export const DEFAULT_OUTLIER_COST = 100;
export const DEFAULT_SEED = 12345;
/** match.cc: CSA needs integer weights; distances are multiplied by this. */
const MULTIPLIER = 100;
/** match.cc: the degree of the random outlier connections. */
const DEGREE = 6;
/** Drawn outlier graphs kept by `CorrespondTarget.drawOutliers` (by n1, n2). */
const DRAW_CACHE = 8;
/** Up to this many free rows after the warm start, the official assignment is completed by `completeAssignment`. */
const MAX_BACKWARD_FREE = 8;

/** C's rint() under the default rounding mode: round half to even. */
export function rint(x: number): number {
  const f = Math.floor(x);
  const diff = x - f;
  if (diff < 0.5) return f;
  if (diff > 0.5) return f + 1;
  return f % 2 === 0 ? f : f + 1;
}

/** C's `(int)` conversion of a double (x86: out-of-range values become INT_MIN). */
function toInt32(x: number): number {
  const t = Math.trunc(x);
  return t >= -2147483648 && t <= 2147483647 ? t : -2147483648;
}

/**
 * The ground-truth side of the correspondence, prepared once per (image, class) and reused for every
 * threshold: tolerance, window offsets and weights, a padded index map of the map2 pixels, and the
 * mask of pixels within tolerance of some map2 pixel.
 */
export class CorrespondTarget {
  readonly height: number;
  readonly width: number;
  /** Tolerance in pixels (maxDist × diagonal). */
  readonly maxDistPx: number;
  /** Outlier cost `oc` = outlierCost × maxDist × diagonal. */
  readonly outlierCostPx: number;
  /** Weight of the outlier edges, ceil(oc × 100) as a C int. */
  readonly ow: number;
  /** Weight of the perfect-match overlay, `ow * 100` in C int arithmetic. */
  readonly overlayWeight: number;
  readonly radius: number;
  readonly seed: number;
  /** Number of map2 pixels. */
  readonly count2: number;
  /** map2 pixels in MATLAB linear order (x outer, y inner), as row-major indices. */
  readonly pixels2: Int32Array;
  private readonly pstride: number;
  /** Padded map: ordinal+1 of the map2 pixel at each position, 0 if none. */
  private readonly padded: Int32Array;
  private readonly offsets: Int32Array;
  /** The same window as (dx, dy) pairs. */
  private readonly offsetDx: Int32Array;
  private readonly offsetDy: Int32Array;
  private readonly offsetWeights: Float64Array;
  private readonly offsetDist: Float64Array;
  /** 1 where a map1 pixel would be matchable (row-major, unpadded). */
  readonly near: Uint8Array;
  /** The compact id of row-major pixel p if it is within tolerance of the GT (`count`'s `ids`), else -1. */
  nearIdOf(p: number): number {
    return this.nearId[p];
  }

  /** Compact id of each near pixel (-1 elsewhere), and their number. */
  private readonly nearId: Int32Array;
  private readonly nearCount: number;
  /**
   * Per map2 pixel: the number of nodes of the last buildReal within tolerance (> 0 = matchable), kept up to date
   * from the nodes that come and go between calls; per near pixel, the last buildReal that made it a node.
   */
  private readonly gtNear: Int32Array;
  private readonly idRound: Int32Array;
  private buildRound = 1;
  private prevIds = new Int32Array(0);
  private prevCount = 0;
  private readonly rng = new FastKofN();
  /** The current map1 nodes around a map2 pixel (real edges by map2 pixel), and the official graph's in-edges. */
  private readonly byGt: WindowNeighbours;
  private readonly inEdges: OfficialInEdges;
  private readonly outEdges = new OfficialOutEdges();

  constructor(map2: Uint8Array, height: number, width: number, options: CorrespondOptions = {}) {
    checkSize(map2.length, height, width, 'map2');
    const maxDistFrac = options.maxDist ?? DEFAULT_MAX_DIST;
    const outlierCost = options.outlierCost ?? DEFAULT_OUTLIER_COST;
    this.seed = options.seed ?? DEFAULT_SEED;
    if (!(maxDistFrac >= 0)) throw new RangeError(`maxDist must be >= 0, got ${maxDistFrac}`);
    if (!(outlierCost > 1)) throw new RangeError(`outlierCost must be > 1, got ${outlierCost}`);
    new Erand48(this.seed); // validates the seed
    this.height = height;
    this.width = width;
    // correspondPixels.cc: idiag = sqrt(rows*rows + cols*cols) (int arithmetic inside the sqrt).
    const idiag = Math.sqrt(height * height + width * width);
    this.maxDistPx = maxDistFrac * idiag;
    this.outlierCostPx = outlierCost * maxDistFrac * idiag;
    this.ow = toInt32(Math.ceil(this.outlierCostPx * MULTIPLIER));
    this.overlayWeight = Math.imul(this.ow, MULTIPLIER);
    const r = Math.ceil(this.maxDistPx);
    this.radius = r;
    const md2 = this.maxDistPx * this.maxDistPx;
    const pstride = width + 2 * r;
    this.pstride = pstride;
    const offs: number[] = [];
    const dxs: number[] = [];
    const dys: number[] = [];
    const ws: number[] = [];
    const ds: number[] = [];
    for (let u = -r; u <= r; u++) {
      for (let v = -r; v <= r; v++) {
        if (u * u + v * v > md2) continue;
        const d = Math.sqrt(u * u + v * v);
        offs.push(v * pstride + u); // u = dx (column), v = dy (row)
        dxs.push(u);
        dys.push(v);
        ws.push(rint(d * MULTIPLIER));
        ds.push(d);
      }
    }
    this.offsets = Int32Array.from(offs);
    this.offsetDx = Int32Array.from(dxs);
    this.offsetDy = Int32Array.from(dys);
    this.offsetWeights = Float64Array.from(ws);
    this.offsetDist = Float64Array.from(ds);

    let count2 = 0;
    for (let k = 0; k < map2.length; k++) if (map2[k] !== 0) count2++;
    this.count2 = count2;
    const pixels2 = new Int32Array(count2);
    this.padded = new Int32Array(pstride * (height + 2 * r));
    // the tolerance disc around every map2 pixel, marked in a padded copy through the window offsets
    const nearPadded = new Uint8Array(this.padded.length);
    const offsets = this.offsets;
    let ord = 0;
    for (let x = 0; x < width; x++) {
      for (let y = 0; y < height; y++) {
        const p = y * width + x;
        if (map2[p] === 0) continue;
        pixels2[ord] = p;
        const q = (y + r) * pstride + x + r;
        this.padded[q] = ++ord;
        for (let o = 0; o < offsets.length; o++) nearPadded[q + offsets[o]] = 1;
      }
    }
    this.near = new Uint8Array(height * width);
    for (let y = 0; y < height; y++) {
      const q = (y + r) * pstride + r;
      this.near.set(nearPadded.subarray(q, q + width), y * width);
    }
    this.pixels2 = pixels2;
    this.gtNear = new Int32Array(count2);
    // Compact ids of the near pixels: the per-pixel state of `count` is sized by them, not by the image.
    this.nearId = new Int32Array(height * width).fill(-1);
    let nearCount = 0;
    // numbered in MATLAB order, the order of the nodes: their per-pixel state is then read almost in sequence
    for (let x = 0; x < width; x++) {
      for (let p = x; p < height * width; p += width) if (this.near[p] !== 0) this.nearId[p] = nearCount++;
    }
    this.nearCount = nearCount;
    this.idRound = new Int32Array(nearCount);
    this.byGt = new WindowNeighbours(width, height, pixels2, this.nearId, nearCount, this.offsetDx, this.offsetDy, this.offsetWeights);
    this.inEdges = new OfficialInEdges(this.byGt);
  }

  /**
   * Matches map1 against the prepared map2. `pixels1` lists the on pixels of map1 as row-major indices in
   * MATLAB linear order (x outer, y inner). Returns the number of real matches; when `pairs` is given,
   * `pairs[k]` receives the map2 row-major index matched to `pixels1[k]` (or -1).
   */
  match(pixels1: Int32Array, count1: number, pairs?: Int32Array): { matched: number; cost: number } {
    if (pairs) pairs.fill(-1, 0, count1);
    const n1 = this.buildReal(pixels1, count1);
    if (n1 === 0) return { matched: 0, cost: this.unmatchedCost(count1) };
    this.drawOutliers();
    const { n, rowStart, col, cost } = this.buildOfficial();
    const n2 = this.n2;
    const node1ToK = this.node1ToK;
    const node2ToOrd = this.node2ToOrd;
    const { rowToCol } = solveAssignment({ n, rowStart, col, cost });

    let matched = 0;
    let totalCost = 0;
    const width = this.width;
    const oc = this.outlierCostPx;
    for (let i = 0; i < n1; i++) {
      const j = rowToCol[i];
      if (j < n2) {
        matched++;
        const p1 = pixels1[node1ToK[i]];
        const p2 = this.pixels2[node2ToOrd[j]];
        if (pairs) pairs[node1ToK[i]] = p2;
        const dx = (p1 % width) - (p2 % width);
        const dy = ((p1 / width) | 0) - ((p2 / width) | 0);
        totalCost += Math.sqrt(dx * dx + dy * dy); // 0.5 from each side
      }
    }
    totalCost += oc * (count1 - matched) + oc * (this.count2 - matched);
    return { matched, cost: totalCost };
  }

  /**
   * The number of real matches of `match(pixels1, count1)`: an exact optimum of the same official assignment,
   * found from a warm start instead of from scratch (README, "Speed"):
   * 1. the relaxation of `RelaxedMatcher` (real graph only, each unpaired pixel costs ow; a lower bound of the
   *    official cost), warm-started from the previous call of this target;
   * 2. if the drawn outlier edges alone complete the relaxed pairs into a perfect matching (`outliersComplete`),
   *    that matching attains the lower bound: it is an official optimum, with the relaxed number of real pairs;
   * 3. otherwise its optimal pairs and duals, carried over to the official graph so that every outlier edge is
   *    feasible and the outlier completion edges are tight (below);
   * 4. the official assignment completed from there (`completeAssignment`: one backward shortest-path search per
   *    free row, the graph read from its parts).
   * If the carried-over duals were ever infeasible or the completion failed, the full solver runs instead
   * (`fallbacks`). `ids` (optional): the compact near-pixel id of each pixel (`nearIdOf`), saving the lookups.
   */
  count(pixels1: Int32Array, count1: number, ids?: Int32Array): number {
    const n1 = this.buildReal(pixels1, count1, ids);
    if (n1 === 0) return 0;
    const { nodePix, node2ToOrd, ordToNode2, eBegin, eEnd, eOrd, eW } = this;
    const count2 = this.count2;
    const edges = { n1, begin: eBegin, end: eEnd, to: eOrd, w: eW };
    if (this.relaxed === null) this.relaxed = new RelaxedMatcher(count2, this.nearCount, this.ow);
    const sc = this.scratch;
    sc.ensure(n1, count2);
    const { mate, U, mateOfG } = sc;
    const relaxedPairs = this.relaxed.solve(nodePix, edges, this.byGt, mate, U);
    this.drawOutliers();
    const n2 = this.n2;
    mateOfG.fill(-1, 0, count2);
    for (let k = 0; k < n1; k++) if (mate[k] >= 0) mateOfG[mate[k]] = k;
    if (this.outliersComplete(mate, mateOfG)) {
      this.shortcuts++;
      return relaxedPairs;
    }
    const n = n1 + n2;
    const fullCount = (): number => {
      const { rowToCol } = solveAssignment(this.buildOfficial());
      let c = 0;
      for (let i = 0; i < n1; i++) if (rowToCol[i] < n2) c++;
      return c;
    };
    // Warm start of the official assignment (see README, "Speed"): the relaxation's optimal duals y (map1 nodes)
    // and z (map2 pixels) satisfy y, z >= 0, y_k + z_g >= ow - w on real edges, equality on the relaxed pairs and
    // 0 on unpaired nodes. Official duals: u = -y on map1 rows, v = ow - z on map2 columns, 0 on outlier rows, ow
    // on outlier columns: every outlier edge is feasible and every R2->C1 edge, every unpaired map1 -> C1 and
    // R2 -> unpaired map2 edge is tight; the relaxed pairs are tight real edges.
    const ow = this.ow;
    const mw = this.relaxed.matchedWeights;
    sc.ensureOfficial(n);
    const { u, v, rowToCol, colToRow, rowCost } = sc;
    rowToCol.fill(-1, 0, n);
    colToRow.fill(-1, 0, n);
    u.fill(0, 0, n);
    rowCost.fill(0, 0, n);
    for (let i = 0; i < n1; i++) u[i] = U[i];
    const z = this.relaxed.gtDuals;
    for (let j = 0; j < n2; j++) v[j] = ow - z[node2ToOrd[j]];
    for (let i = 0; i < n1; i++) v[n2 + i] = ow;
    for (let i = 0; i < n1; i++) {
      const g = mate[i];
      if (g < 0) continue;
      const j = ordToNode2[g];
      rowToCol[i] = j;
      colToRow[j] = i;
      rowCost[i] = mw[i];
    }
    // The maximum matching of `outliersComplete` (outlier edges, all tight under these duals) on top.
    const hMate = this.hScratch.rowMate;
    for (let r = 0; r < n; r++) {
      if (r < n1 && mate[r] >= 0) continue;
      const c = hMate[r];
      if (c < 0) continue;
      const j = c < n1 ? n2 + c : c - n1;
      rowToCol[r] = j;
      colToRow[j] = r;
      rowCost[r] = ow;
    }
    // Feasibility of these duals. Outlier and overlay edges have reduced costs -u_i (map1 row i to a map1-outlier
    // column), ow - v_j (map2-outlier row to map2 column j), 0 (outlier to outlier), 99·ow - u_i and 100·ow - v_j
    // (overlay): all >= 0 iff u <= 0 on the map1 rows and v <= ow on the map2 columns, i.e. y, z >= 0. The real
    // edges have reduced cost w + y + z - ow >= 0 by the relaxation's optimality (RelaxedMatcher keeps it).
    let feasible = true;
    for (let i = 0; i < n1 && feasible; i++) if (!(u[i] <= 0)) feasible = false;
    for (let j = 0; j < n2 && feasible; j++) if (!(v[j] <= ow)) feasible = false;
    if (!feasible) {
      this.fallbacks++;
      return fullCount();
    }
    const state = { rowToCol, colToRow, rowCost, u, v };
    let nFree = 0;
    for (let r = 0; r < n; r++) if (rowToCol[r] === -1) nFree++;
    if (nFree <= MAX_BACKWARD_FREE) {
      // the usual case: a few free rows inside the tight outlier region (the graph is read from its parts)
      this.prepareOfficialEdges();
      if (!completeAssignment(n, state, sc.completion, this.outEdges, this.inEdges)) {
        this.fallbacks++;
        return fullCount();
      }
    } else continueAssignment(this.buildOfficial(), state, true, sc.work);
    let c = 0;
    for (let i = 0; i < n1; i++) if (rowToCol[i] < n2) c++;
    if (c !== relaxedPairs) this.repaired++;
    return c;
  }

  /**
   * Whether the relaxed pairs (`mate`: node -> GT ordinal or -1, `mateOfG` its inverse) can be completed into a
   * perfect matching of the official graph by the drawn outlier edges alone (no overlay): a perfect matching of
   * rows {unpaired map1 nodes} ∪ {map2-outlier rows} with columns {map1-outlier columns} ∪ {unpaired map2 nodes}.
   * Such a completion costs Σ_M w + ow·(n1 + n2 − |M|), the relaxed lower bound, so it is an official optimum.
   * Kuhn's augmenting paths from the column side, greedy start, until a pass finds none: the matching left in
   * `hScratch.rowMate` (row -> column, < 0 = unmatched) is a maximum matching of these tight edges, the start
   * of the official completion when it is not perfect.
   */
  private outliersComplete(mate: Int32Array, mateOfG: Int32Array): boolean {
    const n1 = this.n1;
    const n2 = this.n2;
    const { d1, d2, d3, blk1, blk2, blk3, node2ToOrd } = this;
    const nn = n1 + n2;
    const h = this.hScratch;
    h.ensure(nn, d1 * n1 + d2 * n2 + d3 * Math.max(n1, n2));
    // Ids: rows i < n1 (unpaired map1 node i), n1 + j (map2-outlier row j); columns i < n1 (map1-outlier
    // column i), n1 + j (unpaired map2 node j). Column-major adjacency (rows of each column).
    const { start, adj, rowMate, colMate, rowVis, stackCol, stackEdge } = h;
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

  /** Per pixel: first entry of its real edges in the pools (-1 = not scanned yet), and their number. */
  private edgeStart: Int32Array | null = null;
  private edgeLen: Int32Array | null = null;
  private poolG = new Int32Array(1 << 14);
  private poolW = new Float64Array(1 << 14);
  private poolSize = 0;

  /** Calls of `count` that needed the full solver (for tests and benchmarks). */
  fallbacks = 0;
  /** Calls of `count` whose official count differs from the relaxed one (the random outlier graph mattered). */
  repaired = 0;
  /** Calls of `count` answered by the relaxed pairs, completed by the outlier edges alone (`outliersComplete`). */
  shortcuts = 0;
  private relaxed: RelaxedMatcher | null = null;
  private readonly scratch = new CountScratch();
  private readonly hScratch = new CompletionScratch();

  // The graph of the current call (buildReal, drawOutliers, buildOfficial), in buffers kept between calls.
  private n1 = 0;
  private n2 = 0;
  private ne = 0;
  /** Node i of map1: index into pixels1, and compact pixel id. */
  private node1ToK = new Int32Array(0);
  private nodePix = new Int32Array(0);
  /** Real edges of node i: [eBegin[i], eEnd[i]) in eOrd (GT ordinal) and eW (weight): the kept window scans. */
  private eBegin = new Int32Array(0);
  private eEnd = new Int32Array(0);
  private eOrd = new Int32Array(0);
  private eW = new Float64Array(0);
  private ordToNode2 = new Int32Array(0);
  private node2ToOrd = new Int32Array(0);
  private d1 = 0;
  private d2 = 0;
  private d3 = 0;
  /** Drawn outlier edges: blk1 (map1 node -> map1-outlier, shifted past i), blk2 (map2 node <- map2-outlier row, shifted), blk3. */
  private blk1: Int32Array = new Int32Array(0);
  private blk2: Int32Array = new Int32Array(0);
  private blk3: Int32Array = new Int32Array(0);
  private readonly drawCache: DrawnGraph[] = [];
  private rowStart = new Int32Array(0);
  private col = new Int32Array(0);
  private cost = new Float64Array(0);
  private fill = new Int32Array(0);

  /**
   * The real part of the official graph (match.cc) of map1 = `pixels1[0..count1)`: matchable map1 nodes in
   * MATLAB order, their real edges, the matchable map2 nodes. Returns n1 (0: no map1 pixel can match).
   */
  private buildReal(pixels1: Int32Array, count1: number, ids?: Int32Array): number {
    const width = this.width;
    const r = this.radius;
    const pstride = this.pstride;
    const padded = this.padded;
    const offsets = this.offsets;
    const weights = this.offsetWeights;
    const nOff = offsets.length;

    if (this.node1ToK.length < count1) {
      this.node1ToK = new Int32Array(Math.max(count1, 2 * this.node1ToK.length));
      this.nodePix = new Int32Array(this.node1ToK.length);
      this.eBegin = new Int32Array(this.node1ToK.length);
      this.eEnd = new Int32Array(this.node1ToK.length);
    }
    const node1ToK = this.node1ToK;
    const nodePix = this.nodePix;
    const eBegin = this.eBegin;
    const eEnd = this.eEnd;
    let n1 = 0;
    let ne = 0;
    const round = ++this.buildRound;
    const { idRound, gtNear } = this;
    if (this.edgeStart === null || this.edgeLen === null) {
      this.edgeStart = new Int32Array(this.nearCount).fill(-1);
      this.edgeLen = new Int32Array(this.nearCount);
    }
    const edgeStart = this.edgeStart;
    const edgeLen = this.edgeLen;
    const nearId = this.nearId;
    const nodeRound = ++this.byGt.stamp;
    const { nodeStamp, nodeOf } = this.byGt;
    for (let k = 0; k < count1; k++) {
      const p = pixels1[k];
      const id = ids === undefined ? nearId[p] : ids[k];
      if (id < 0) continue; // not within tolerance of the GT: not a node
      const i = n1++;
      node1ToK[i] = k;
      // The window scan of pixel p (fixed GT side) is done once and kept in the pool; node i's real edges are
      // that pool range.
      nodePix[i] = id;
      nodeStamp[id] = nodeRound;
      nodeOf[id] = i;
      let s0 = edgeStart[id];
      if (s0 < 0) {
        const y = (p / width) | 0;
        const x = p - y * width;
        const q = (y + r) * pstride + x + r;
        s0 = this.poolSize;
        for (let o = 0; o < nOff; o++) {
          const g = padded[q + offsets[o]];
          if (g === 0) continue;
          if (this.poolSize >= this.poolG.length) {
            const a = new Int32Array(this.poolG.length * 2);
            a.set(this.poolG);
            this.poolG = a;
            const b = new Float64Array(this.poolW.length * 2);
            b.set(this.poolW);
            this.poolW = b;
          }
          this.poolG[this.poolSize] = g - 1;
          this.poolW[this.poolSize++] = weights[o];
        }
        edgeStart[id] = s0;
        edgeLen[id] = this.poolSize - s0;
      }
      const end = s0 + edgeLen[id];
      eBegin[i] = s0;
      eEnd[i] = end;
      ne += end - s0;
      if (idRound[id] !== round - 1) {
        // a node that the last call did not have
        const poolG = this.poolG;
        for (let t = s0; t < end; t++) gtNear[poolG[t]]++;
      }
      idRound[id] = round;
    }
    // nodes of the last call that are gone
    const prevIds = this.prevIds;
    for (let q = 0; q < this.prevCount; q++) {
      const id = prevIds[q];
      if (idRound[id] === round) continue;
      const s0 = edgeStart[id];
      const poolG = this.poolG;
      for (let t = s0, end = s0 + edgeLen[id]; t < end; t++) gtNear[poolG[t]]--;
    }
    if (prevIds.length < n1) this.prevIds = new Int32Array(Math.max(n1, 2 * prevIds.length));
    this.prevIds.set(nodePix.subarray(0, n1));
    this.prevCount = n1;
    this.eOrd = this.poolG;
    this.eW = this.poolW;
    this.n1 = n1;
    this.ne = ne;
    if (n1 === 0) {
      this.n2 = 0;
      return 0;
    }
    // Matchable map2 pixels: node ids in MATLAB order.
    if (this.ordToNode2.length < this.count2) {
      this.ordToNode2 = new Int32Array(this.count2);
      this.node2ToOrd = new Int32Array(this.count2);
    }
    const ordToNode2 = this.ordToNode2;
    const node2ToOrd = this.node2ToOrd;
    let n2 = 0;
    for (let g = 0; g < this.count2; g++) {
      if (gtNear[g] > 0) {
        ordToNode2[g] = n2;
        node2ToOrd[n2++] = g;
      } else ordToNode2[g] = -1;
    }
    this.n2 = n2;
    return n1;
  }

  /**
   * The random outlier edges of match.cc for the current n1, n2, drawn in the official order from the reseeded
   * stream (blk1 and blk2 already shifted past the node's own index).
   */
  private drawOutliers(): void {
    const n1 = this.n1;
    const n2 = this.n2;
    const nmin = Math.min(n1, n2);
    const nmax = Math.max(n1, n2);
    const d1 = Math.max(0, Math.min(DEGREE, n1 - 1));
    const d2 = Math.max(0, Math.min(DEGREE, n2 - 1));
    const d3 = Math.min(DEGREE, nmin);
    this.d1 = d1;
    this.d2 = d2;
    this.d3 = d3;
    // The draws depend on (seed, n1, n2) only: the graphs of the last few (n1, n2) are kept (thresholds often
    // repeat an n1), most recent last.
    const cache = this.drawCache;
    for (let q = cache.length - 1; q >= 0; q--) {
      const hit = cache[q];
      if (hit.n1 !== n1 || hit.n2 !== n2) continue;
      cache.splice(q, 1);
      cache.push(hit);
      this.blk1 = hit.blk1;
      this.blk2 = hit.blk2;
      this.blk3 = hit.blk3;
      return;
    }
    const entry = cache.length >= DRAW_CACHE ? (cache.shift() as DrawnGraph) : { n1, n2, blk1: new Int32Array(0), blk2: new Int32Array(0), blk3: new Int32Array(0) };
    entry.n1 = n1;
    entry.n2 = n2;
    if (entry.blk1.length < d1 * n1) entry.blk1 = new Int32Array(d1 * n1);
    if (entry.blk2.length < d2 * n2) entry.blk2 = new Int32Array(d2 * n2);
    if (entry.blk3.length < d3 * nmax) entry.blk3 = new Int32Array(d3 * nmax);
    cache.push(entry);
    const { blk1, blk2, blk3 } = entry;
    this.blk1 = blk1;
    this.blk2 = blk2;
    this.blk3 = blk3;
    const rng = this.rng;
    rng.reseed(this.seed);
    // map1 outliers: j >= i is shifted past i
    rng.drawBlock(d1, n1 - 1, n1, blk1);
    shiftPastOwn(blk1, d1, n1);
    rng.drawBlockMemo(d2, n2 - 1, n2, blk2); // n2 rarely changes between thresholds
    shiftPastOwn(blk2, d2, n2);
    rng.drawBlock(d3, nmin, nmax, blk3);
  }


  /**
   * The official graph of the current call read from its parts, on demand (no CSR, no reversed copy):
   * out of map1 row i: its real edges, its d1 drawn map1-outlier columns, the overlay column n2 + i; out of
   * map2-outlier row n1 + r: the map2 nodes that drew r, its outlier columns (drawn by r when n1 < n2, else those
   * that drew r), the overlay column r. Into map2 column j: the map1 nodes in the window around its pixel, its
   * d2 drawn map2-outlier rows, the overlay row n1 + j; into map1-outlier column n2 + i: the map1 nodes that drew
   * i, its outlier rows (those that drew i when n1 < n2, else drawn by i), the overlay row i. The inverted draws
   * are counting sorts of the blocks (into a map1-outlier column: `outliersComplete`'s lists, which already hold
   * the unpaired nodes and the outlier rows, plus the paired nodes). Call after `outliersComplete`.
   */
  private prepareOfficialEdges(): void {
    const n1 = this.n1;
    const n2 = this.n2;
    const { d1, d2, d3, blk1, blk2, blk3 } = this;
    for (const side of [this.outEdges, this.inEdges]) {
      side.n1 = n1;
      side.n2 = n2;
      side.d1 = d1;
      side.d2 = d2;
      side.d3 = d3;
      side.blk1 = blk1;
      side.blk2 = blk2;
      side.blk3 = blk3;
      side.ow = this.ow;
      side.over = this.overlayWeight;
    }
    this.outEdges.eBegin = this.eBegin;
    this.outEdges.eEnd = this.eEnd;
    this.outEdges.eOrd = this.eOrd;
    this.outEdges.eW = this.eW;
    this.outEdges.ordToNode2 = this.ordToNode2;
    this.inEdges.node2ToOrd = this.node2ToOrd;
    const degree = n1 + n2 + this.offsetDx.length + 8;
    // into map1-outlier column c: `outliersComplete`'s column lists (the unpaired map1 nodes that drew c, and the
    // outlier rows of block 3) and the paired map1 nodes that drew c (inverted here)
    const mate = this.scratch.mate;
    const inv = this.inEdges.inv;
    inv.reset(n1);
    inv.countRows(blk1, d1, n1, mate);
    inv.prefix();
    inv.putRows(blk1, d1, n1, 0, mate);
    this.inEdges.hStart = this.hScratch.start;
    this.inEdges.hAdj = this.hScratch.adj;
    this.inEdges.ensure(degree);
    // out of map2-outlier row r: block 2 (the map2 nodes that drew r), and block 3 when n1 >= n2
    const outInv = this.outEdges.inv;
    outInv.reset(n2);
    outInv.countRows(blk2, d2, n2);
    if (n1 >= n2) outInv.countRows(blk3, d3, n1);
    outInv.prefix();
    outInv.putRows(blk2, d2, n2, 0);
    if (n1 >= n2) outInv.putRows(blk3, d3, n1, n2);
    this.outEdges.ensure(degree);
  }

  /** The official assignment graph (match.cc) from `buildReal` + `drawOutliers`, as a CSR in the kept buffers. */
  private buildOfficial(): SparseGraph {
    const n1 = this.n1;
    const n2 = this.n2;
    const ne = this.ne;
    const { d1, d2, d3, blk1, blk2, blk3, eBegin, eEnd, eOrd, eW, ordToNode2 } = this;
    const n = n1 + n2;
    const nmax = Math.max(n1, n2);
    const m = ne + d1 * n1 + d2 * n2 + d3 * nmax + n;
    const ow = this.ow;
    const over = this.overlayWeight;
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

  private unmatchedCost(count1: number): number {
    return this.outlierCostPx * (count1 + this.count2);
  }

  /** Distance of window offset k (for tests). */
  offsetDistance(k: number): number {
    return this.offsetDist[k];
  }
}

/** Row-major indices of the nonzero pixels of `map` in MATLAB linear order (x outer, y inner). */
export function pixelsInMatlabOrder(map: Uint8Array, height: number, width: number): Int32Array {
  let count = 0;
  for (let k = 0; k < map.length; k++) if (map[k] !== 0) count++;
  const out = new Int32Array(count);
  let c = 0;
  for (let x = 0; x < width; x++) {
    for (let p = x; p < height * width; p += width) if (map[p] !== 0) out[c++] = p;
  }
  return out;
}

/**
 * correspondPixels(map1 = prediction, map2 = ground truth): `match1[p]` (row-major) is the 1-based
 * row-major index of the map2 pixel matched to map1 pixel p through a real edge (0 = unmatched), and
 * `match2` likewise. `matched` = number of matched pairs (= nnz(match1) = nnz(match2)); `cost` = Σ over
 * matched pixels of half their distance (once per map) + oc per unmatched pixel of either map.
 */
export function correspondPixels(
  map1: Uint8Array,
  map2: Uint8Array,
  height: number,
  width: number,
  options: CorrespondOptions = {},
): { match1: Int32Array; match2: Int32Array; matched: number; cost: number } {
  checkSize(map1.length, height, width, 'map1');
  const target = new CorrespondTarget(map2, height, width, options);
  const pixels1 = pixelsInMatlabOrder(map1, height, width);
  const pairs = new Int32Array(pixels1.length);
  const { matched, cost } = target.match(pixels1, pixels1.length, pairs);
  const match1 = new Int32Array(height * width);
  const match2 = new Int32Array(height * width);
  for (let k = 0; k < pixels1.length; k++) {
    const p2 = pairs[k];
    if (p2 < 0) continue;
    match1[pixels1[k]] = p2 + 1;
    match2[p2] = pixels1[k] + 1;
  }
  return { match1, match2, matched, cost };
}

/**
 * Block entries drawn from 0..count−2 by node i (d per node) shifted past i (j >= i becomes j + 1), a row of six at
 * a time or in one flat loop (a loop of d per node costs about 3x); the comparison is a coin flip (no branch).
 */
function shiftPastOwn(blk: Int32Array, d: number, count: number): void {
  if (d === 6) {
    for (let t = 0, i = 0, end = 6 * count; t < end; t += 6, i++) {
      const v0 = blk[t];
      const v1 = blk[t + 1];
      const v2 = blk[t + 2];
      const v3 = blk[t + 3];
      const v4 = blk[t + 4];
      const v5 = blk[t + 5];
      blk[t] = v0 + (((v0 >= i) as unknown as number) | 0);
      blk[t + 1] = v1 + (((v1 >= i) as unknown as number) | 0);
      blk[t + 2] = v2 + (((v2 >= i) as unknown as number) | 0);
      blk[t + 3] = v3 + (((v3 >= i) as unknown as number) | 0);
      blk[t + 4] = v4 + (((v4 >= i) as unknown as number) | 0);
      blk[t + 5] = v5 + (((v5 >= i) as unknown as number) | 0);
    }
    return;
  }
  for (let t = 0, i = 0, k = 0, end = d * count; t < end; t++) {
    blk[t] += ((blk[t] >= i) as unknown as number) | 0;
    if (++k === d) {
      k = 0;
      i++;
    }
  }
}

/** The drawn outlier blocks of one (n1, n2) (`CorrespondTarget.drawOutliers`). */
interface DrawnGraph {
  n1: number;
  n2: number;
  blk1: Int32Array;
  blk2: Int32Array;
  blk3: Int32Array;
}

/** Per-call arrays of `CorrespondTarget.count`, kept between calls (grown as needed, never assumed zeroed). */
class CountScratch {
  mate = new Int32Array(0);
  U = new Float64Array(0);
  mateOfG = new Int32Array(0);
  u = new Float64Array(0);
  v = new Float64Array(0);
  rowCost = new Float64Array(0);
  rowToCol = new Int32Array(0);
  colToRow = new Int32Array(0);
  readonly work = new AssignmentWorkspace();
  readonly completion = new CompletionWorkspace();

  ensure(n1: number, count2: number): void {
    if (this.mate.length < n1) {
      const cap = Math.max(n1, 2 * this.mate.length);
      this.mate = new Int32Array(cap);
      this.U = new Float64Array(cap);
    }
    if (this.mateOfG.length < count2) this.mateOfG = new Int32Array(count2);
  }

  ensureOfficial(n: number): void {
    if (this.u.length >= n) return;
    const cap = Math.max(n, 2 * this.u.length);
    this.u = new Float64Array(cap);
    this.v = new Float64Array(cap);
    this.rowCost = new Float64Array(cap);
    this.rowToCol = new Int32Array(cap);
    this.colToRow = new Int32Array(cap);
  }
}

/** Arrays of `CorrespondTarget.outliersComplete`, kept between calls. */
class CompletionScratch {
  start = new Int32Array(1);
  adj = new Int32Array(0);
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
 * The map1 nodes of the current call within the window around a map2 pixel (the real edges into it), found by
 * scanning the window: `edges(g)` for GT ordinal g (`Neighbours` of the relaxed matcher), `scanInto` for others.
 */
class WindowNeighbours implements Neighbours {
  to: Int32Array;
  w: Float64Array;
  offset = 0;
  /** Per near pixel id: the buildReal call that made it a node, and its node index. */
  readonly nodeStamp: Int32Array;
  readonly nodeOf: Int32Array;
  stamp = 0;

  constructor(
    private readonly width: number,
    private readonly height: number,
    private readonly pixels2: Int32Array,
    private readonly nearId: Int32Array,
    nearCount: number,
    private readonly dx: Int32Array,
    private readonly dy: Int32Array,
    private readonly wt: Float64Array,
  ) {
    this.to = new Int32Array(dx.length);
    this.w = new Float64Array(dx.length);
    this.nodeStamp = new Int32Array(nearCount);
    this.nodeOf = new Int32Array(nearCount);
  }

  edges(g: number): number {
    return this.scanInto(g, this.to, this.w, 0);
  }

  /** Writes the nodes and weights of GT ordinal g's real edges to rows/costs from c; returns the new end. */
  scanInto(g: number, rows: Int32Array, costs: Float64Array, c: number): number {
    const width = this.width;
    const height = this.height;
    const p = this.pixels2[g];
    const y = (p / width) | 0;
    const x = p - y * width;
    const { dx, dy, wt, nearId, nodeStamp, nodeOf } = this;
    const stamp = this.stamp;
    for (let o = 0; o < dx.length; o++) {
      const xx = x - dx[o];
      const yy = y - dy[o];
      if (xx < 0 || xx >= width || yy < 0 || yy >= height) continue;
      const id = nearId[yy * width + xx];
      if (id < 0 || nodeStamp[id] !== stamp) continue;
      rows[c] = nodeOf[id];
      costs[c++] = wt[o];
    }
    return c;
  }
}

/** Lists of ints by key (a counting sort): count the entries (`countRows`), prefix, put them (`putRows`), read key k's range. */
class Inverted {
  start = new Int32Array(1);
  items = new Int32Array(0);
  private fill = new Int32Array(0);
  private keys = 0;

  reset(keys: number): void {
    if (this.start.length < keys + 1) {
      this.start = new Int32Array(Math.max(keys + 1, 2 * this.start.length));
      this.fill = new Int32Array(this.start.length);
    }
    this.start.fill(0, 0, keys + 1);
    this.keys = keys;
  }

  prefix(): void {
    const { start, fill } = this;
    for (let k = 0; k < this.keys; k++) start[k + 1] += start[k];
    fill.set(start.subarray(0, this.keys));
    if (this.items.length < start[this.keys]) this.items = new Int32Array(Math.max(start[this.keys], 2 * this.items.length));
  }

  /** Counts every key of a drawn block (`rows` rows of d distinct keys; only the rows r with only[r] >= 0). */
  countRows(blk: Int32Array, d: number, rows: number, only: Int32Array | null = null): void {
    countEntries(blk, d, rows, this.start, only);
  }

  /** Lists itemBase + r under every key of row r of a drawn block, rows in order (after `countRows` and `prefix`). */
  putRows(blk: Int32Array, d: number, rows: number, itemBase: number, only: Int32Array | null = null): void {
    scatterRows(blk, d, rows, itemBase, this.fill, this.items, only);
  }
}

/*
 * Counting sorts of the drawn blocks. A loop with one read-modify-write of a typed array per entry costs ~10 cycles
 * an entry in V8; a row of DEGREE = 6 entries with distinct keys (kOfN draws a subset) reads its six counters before
 * writing any: 2-2.5x faster, the same result.
 */

/** start[c + 1]++ for every entry c of `blk` (`rows` rows of d distinct entries; only rows r with only[r] >= 0). */
function countEntries(blk: Int32Array, d: number, rows: number, start: Int32Array, only: Int32Array | null = null): void {
  if (d !== 6) {
    for (let r = 0; r < rows; r++) {
      if (only !== null && only[r] < 0) continue;
      for (let t = r * d, end = t + d; t < end; t++) start[blk[t] + 1]++;
    }
    return;
  }
  for (let r = 0, t = 0; r < rows; r++, t += 6) {
    if (only !== null && only[r] < 0) continue;
    const c0 = blk[t] + 1;
    const c1 = blk[t + 1] + 1;
    const c2 = blk[t + 2] + 1;
    const c3 = blk[t + 3] + 1;
    const c4 = blk[t + 4] + 1;
    const c5 = blk[t + 5] + 1;
    const s0 = start[c0];
    const s1 = start[c1];
    const s2 = start[c2];
    const s3 = start[c3];
    const s4 = start[c4];
    const s5 = start[c5];
    start[c0] = s0 + 1;
    start[c1] = s1 + 1;
    start[c2] = s2 + 1;
    start[c3] = s3 + 1;
    start[c4] = s4 + 1;
    start[c5] = s5 + 1;
  }
}

/**
 * items[fill[c]++] = itemBase + r for every entry c of row r of `blk` (rows of d distinct entries; only rows r with
 * only[r] >= 0), rows in order.
 */
function scatterRows(
  blk: Int32Array,
  d: number,
  rows: number,
  itemBase: number,
  fill: Int32Array,
  items: Int32Array,
  only: Int32Array | null = null,
): void {
  if (d !== 6) {
    for (let r = 0; r < rows; r++) {
      if (only !== null && only[r] < 0) continue;
      for (let t = r * d, end = t + d; t < end; t++) items[fill[blk[t]]++] = itemBase + r;
    }
    return;
  }
  for (let r = 0, t = 0; r < rows; r++, t += 6) {
    if (only !== null && only[r] < 0) continue;
    const item = itemBase + r;
    const c0 = blk[t];
    const c1 = blk[t + 1];
    const c2 = blk[t + 2];
    const c3 = blk[t + 3];
    const c4 = blk[t + 4];
    const c5 = blk[t + 5];
    const f0 = fill[c0];
    const f1 = fill[c1];
    const f2 = fill[c2];
    const f3 = fill[c3];
    const f4 = fill[c4];
    const f5 = fill[c5];
    fill[c0] = f0 + 1;
    fill[c1] = f1 + 1;
    fill[c2] = f2 + 1;
    fill[c3] = f3 + 1;
    fill[c4] = f4 + 1;
    fill[c5] = f5 + 1;
    items[f0] = item;
    items[f1] = item;
    items[f2] = item;
    items[f3] = item;
    items[f4] = item;
    items[f5] = item;
  }
}

/** The parts of the official graph of one `count` call (set by `CorrespondTarget.prepareOfficialEdges`). */
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
  costs = new Float64Array(0);
  offset = 0;
  protected ids = new Int32Array(0);

  ensure(maxDegree: number): void {
    if (this.ids.length < maxDegree) {
      this.ids = new Int32Array(maxDegree);
      this.costs = new Float64Array(maxDegree);
    }
  }
}

/** `RowOutEdges` of the official graph (match.cc's edges, by row). */
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
    const cols = this.ids;
    const costs = this.costs;
    const { n1, n2, ow } = this;
    let c = 0;
    if (i < n1) {
      const { eOrd, eW, ordToNode2 } = this;
      for (let e = this.eBegin[i], end = this.eEnd[i]; e < end; e++) {
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
      return c;
    }
    const r = i - n1;
    const { start, items } = this.inv;
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
    return c;
  }
}

/** `ColumnInEdges` of the official graph. */
class OfficialInEdges extends OfficialParts implements ColumnInEdges {
  node2ToOrd: Int32Array = new Int32Array(0);
  /** `outliersComplete`'s column lists (ids = official rows); `inv` holds the paired map1 nodes by drawn column. */
  hStart: Int32Array = new Int32Array(1);
  hAdj: Int32Array = new Int32Array(0);

  constructor(private readonly window: WindowNeighbours) {
    super();
  }

  get rows(): Int32Array {
    return this.ids;
  }

  inEdges(j: number): number {
    const rows = this.ids;
    const costs = this.costs;
    const { n1, n2, ow } = this;
    if (j < n2) {
      // real edges, then the d2 drawn map2-outlier rows, then the overlay row
      let c = this.window.scanInto(this.node2ToOrd[j], rows, costs, 0);
      const blk2 = this.blk2;
      for (let t = j * this.d2, end = t + this.d2; t < end; t++) {
        rows[c] = n1 + blk2[t];
        costs[c++] = ow;
      }
      rows[c] = n1 + j;
      costs[c++] = this.over;
      return c;
    }
    const i = j - n2;
    let c = 0;
    // unpaired map1 nodes that drew i and the outlier rows of block 3 (the completion's column list)
    const hAdj = this.hAdj;
    for (let t = this.hStart[i], end = this.hStart[i + 1]; t < end; t++) {
      rows[c] = hAdj[t];
      costs[c++] = ow;
    }
    const { start, items } = this.inv;
    for (let t = start[i], end = start[i + 1]; t < end; t++) {
      rows[c] = items[t];
      costs[c++] = ow;
    }
    rows[c] = i;
    costs[c++] = this.over;
    return c;
  }
}
