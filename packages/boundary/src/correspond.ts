/**
 * `correspondPixels` of the BSDS benchmark (cp_src: correspondPixels.cc + match.cc + kofn.cc + CSA),
 * with the random outlier graph reproduced draw for draw and an exact min-cost perfect assignment.
 */
import { continueAssignment, MinHeap, solveAssignment } from './assignment.js';
import { RelaxedMatcher } from './correspond-relaxed.js';
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
  private readonly offsetWeights: Float64Array;
  private readonly offsetDist: Float64Array;
  /** 1 where a map1 pixel would be matchable (row-major, unpadded). */
  readonly near: Uint8Array;
  /** Compact id of each near pixel (-1 elsewhere), and their number. */
  private readonly nearId: Int32Array;
  private readonly nearCount: number;
  private readonly mark2: Int32Array;
  private markRound = 0;
  private readonly rng = new FastKofN();

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
    const ws: number[] = [];
    const ds: number[] = [];
    for (let u = -r; u <= r; u++) {
      for (let v = -r; v <= r; v++) {
        if (u * u + v * v > md2) continue;
        const d = Math.sqrt(u * u + v * v);
        offs.push(v * pstride + u); // u = dx (column), v = dy (row)
        ws.push(rint(d * MULTIPLIER));
        ds.push(d);
      }
    }
    this.offsets = Int32Array.from(offs);
    this.offsetWeights = Float64Array.from(ws);
    this.offsetDist = Float64Array.from(ds);

    let count2 = 0;
    for (let k = 0; k < map2.length; k++) if (map2[k] !== 0) count2++;
    this.count2 = count2;
    const pixels2 = new Int32Array(count2);
    this.padded = new Int32Array(pstride * (height + 2 * r));
    this.near = new Uint8Array(height * width);
    let ord = 0;
    for (let x = 0; x < width; x++) {
      for (let y = 0; y < height; y++) {
        const p = y * width + x;
        if (map2[p] === 0) continue;
        pixels2[ord] = p;
        this.padded[(y + r) * pstride + x + r] = ++ord;
        for (let u = -r; u <= r; u++) {
          const xx = x + u;
          if (xx < 0 || xx >= width) continue;
          for (let v = -r; v <= r; v++) {
            const yy = y + v;
            if (yy < 0 || yy >= height || u * u + v * v > md2) continue;
            this.near[yy * width + xx] = 1;
          }
        }
      }
    }
    this.pixels2 = pixels2;
    this.mark2 = new Int32Array(count2);
    // Compact ids of the near pixels: the per-pixel state of `count` is sized by them, not by the image.
    this.nearId = new Int32Array(height * width).fill(-1);
    let nearCount = 0;
    for (let p = 0; p < height * width; p++) if (this.near[p] !== 0) this.nearId[p] = nearCount++;
    this.nearCount = nearCount;
  }

  /**
   * Matches map1 against the prepared map2. `pixels1` lists the on pixels of map1 as row-major indices in
   * MATLAB linear order (x outer, y inner). Returns the number of real matches; when `pairs` is given,
   * `pairs[k]` receives the map2 row-major index matched to `pixels1[k]` (or -1).
   */
  match(pixels1: Int32Array, count1: number, pairs?: Int32Array): { matched: number; cost: number } {
    if (pairs) pairs.fill(-1, 0, count1);
    const gr = this.build(pixels1, count1);
    if (gr === null) return { matched: 0, cost: this.unmatchedCost(count1) };
    const { n1, n2, n, node1ToK, node2ToOrd, rowStart, col, cost } = gr;
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
   * 2. its optimal pairs with duals rewritten so that every outlier edge of the official graph is feasible
   *    and the outlier completion edges are tight (below);
   * 3. the official assignment completed from there by the exact primal-dual solver (usually the random
   *    outlier edges complete the relaxed pairs at once; otherwise a few shortest augmenting paths fix it).
   * If the dual rewrite were ever infeasible, the full solver runs instead (`fallbacks`).
   */
  count(pixels1: Int32Array, count1: number): number {
    const gr = this.build(pixels1, count1);
    if (gr === null) return 0;
    const { n1, n2, n, eToOrd, eW, nodePix, ordToNode2, node2ToOrd, realStart: start } = gr;
    const fullCount = (): number => {
      const { rowToCol } = solveAssignment({ n, rowStart: gr.rowStart, col: gr.col, cost: gr.cost });
      let c = 0;
      for (let i = 0; i < n1; i++) if (rowToCol[i] < n2) c++;
      return c;
    };
    const edges = { n1, start, to: eToOrd, w: eW };
    if (this.relaxed === null) this.relaxed = new RelaxedMatcher(this.count2, this.nearCount, this.ow, 0);
    const mate = new Int32Array(n1);
    const U = new Float64Array(n1);
    const V = new Float64Array(this.count2);
    const relaxedPairs = this.relaxed.solve(nodePix, edges, mate, U, V);
    // Warm start of the official assignment (see README, "Speed"): duals in the form y_k = p_k >= 0 on map1
    // nodes, z_g = q_g >= 0 on map2 nodes with p_k + q_g >= ow - w on real edges, equality on the relaxed pairs,
    // p = 0 / q = 0 on unpaired nodes. The largest such p is a shortest-path distance: p_k <= ow - w(k, M(k)),
    // p_k <= p_k' + w(k', g) - w(k, g) for g = M(k); p = 0 at unpaired k. Dijkstra with the relaxed duals as
    // potentials (reduced lengths w(k', g) - w(k, g) - U_k' + U_k >= 0). Official duals: u = -p on map1 rows,
    // v = ow - q on map2 columns, 0 on outlier rows, ow on outlier columns: every outlier edge is feasible and
    // every R2->C1 edge, every unpaired map1 -> C1 and R2 -> unpaired map2 edge is tight.
    const ow = this.ow;
    const mateOfG = new Int32Array(this.count2).fill(-1);
    const mw = new Float64Array(n1);
    for (let k = 0; k < n1; k++) {
      const g = mate[k];
      if (g < 0) continue;
      mateOfG[g] = k;
      for (let e = start[k], end = start[k + 1]; e < end; e++) {
        if (eToOrd[e] === g) {
          mw[k] = eW[e];
          break;
        }
      }
    }
    const key = new Float64Array(n1);
    const done = new Uint8Array(n1);
    const heap = new MinHeap(n1);
    for (let k = 0; k < n1; k++) {
      key[k] = (mate[k] < 0 ? 0 : ow - mw[k]) + U[k];
      heap.push(key[k], k);
    }
    while (heap.size > 0) {
      const dk = heap.keys[0];
      const k1 = heap.vals[0];
      heap.pop();
      if (done[k1] === 1 || dk !== key[k1]) continue;
      done[k1] = 1;
      const base = dk - U[k1];
      for (let e = start[k1], end = start[k1 + 1]; e < end; e++) {
        const k = mateOfG[eToOrd[e]];
        if (k < 0 || k === k1 || done[k] === 1) continue;
        // length w(k1, g) - w(k, g); key(k) = d(k) + U_k
        const nk = base + eW[e] - mw[k] + U[k];
        if (nk < key[k]) {
          key[k] = nk;
          heap.push(nk, k);
        }
      }
    }
    const u = new Float64Array(n);
    const v = new Float64Array(n);
    const rowToCol = new Int32Array(n).fill(-1);
    const colToRow = new Int32Array(n).fill(-1);
    const rowCost = new Float64Array(n);
    for (let i = 0; i < n1; i++) u[i] = -(key[i] - U[i]);
    for (let j = 0; j < n2; j++) {
      const k = mateOfG[node2ToOrd[j]];
      v[j] = k < 0 ? ow : ow - (ow - mw[k] + u[k]);
    }
    for (let i = 0; i < n1; i++) v[n2 + i] = ow;
    for (let i = 0; i < n1; i++) {
      const g = mate[i];
      if (g < 0) continue;
      const j = ordToNode2[g];
      rowToCol[i] = j;
      colToRow[j] = i;
      rowCost[i] = mw[i];
    }
    const { rowStart, col, cost } = gr;
    for (let i = 0; i < n; i++) {
      for (let e = rowStart[i], end = rowStart[i + 1]; e < end; e++) {
        if (cost[e] - u[i] - v[col[e]] < 0) {
          this.fallbacks++;
          return fullCount();
        }
      }
    }
    const res = continueAssignment({ n, rowStart, col, cost }, { rowToCol, colToRow, rowCost, u, v }, true);
    let c = 0;
    for (let i = 0; i < n1; i++) if (res.rowToCol[i] < n2) c++;
    if (c !== relaxedPairs) this.repaired++;
    return c;
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
  private relaxed: RelaxedMatcher | null = null;

  /**
   * The official graph (match.cc) of map1 = `pixels1[0..count1)`, with the random outlier edges drawn in the
   * official order from the reseeded stream; null when no map1 pixel can match.
   */
  private build(pixels1: Int32Array, count1: number) {
    const rng = this.rng;
    rng.reseed(this.seed);
    const width = this.width;
    const r = this.radius;
    const pstride = this.pstride;
    const padded = this.padded;
    const offsets = this.offsets;
    const weights = this.offsetWeights;
    const nOff = offsets.length;
    const near = this.near;

    // Matchable map1 pixels (node ids in MATLAB order) and the real edges.
    const node1ToK = new Int32Array(count1);
    let n1 = 0;
    let eFrom: Int32Array = new Int32Array(Math.max(16, count1 * 4));
    let eTo: Int32Array = new Int32Array(eFrom.length);
    let eW: Float64Array = new Float64Array(eFrom.length);
    let ne = 0;
    const round = ++this.markRound;
    const mark2 = this.mark2;
    if (this.edgeStart === null || this.edgeLen === null) {
      this.edgeStart = new Int32Array(this.nearCount).fill(-1);
      this.edgeLen = new Int32Array(this.nearCount);
    }
    const edgeStart = this.edgeStart;
    const edgeLen = this.edgeLen;
    const nearId = this.nearId;
    for (let k = 0; k < count1; k++) {
      const p = pixels1[k];
      if (near[p] === 0) continue;
      const i = n1++;
      node1ToK[i] = k;
      // The window scan of pixel p (fixed GT side) is done once and kept.
      const id = nearId[p];
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
      const len = edgeLen[id];
      if (ne + len > eFrom.length) {
        let cap = eFrom.length * 2;
        while (cap < ne + len) cap *= 2;
        const a = new Int32Array(cap);
        a.set(eFrom);
        eFrom = a;
        const b = new Int32Array(cap);
        b.set(eTo);
        eTo = b;
        const c = new Float64Array(cap);
        c.set(eW);
        eW = c;
      }
      const poolG = this.poolG;
      const poolW = this.poolW;
      for (let t = s0, end = s0 + len; t < end; t++) {
        const g = poolG[t];
        eFrom[ne] = i;
        eTo[ne] = g; // map2 ordinal for now
        eW[ne++] = poolW[t];
        mark2[g] = round;
      }
    }
    if (n1 === 0) return null;
    const eToOrd = eTo.slice(0, ne);
    const nodePix = new Int32Array(n1);
    for (let i = 0; i < n1; i++) nodePix[i] = nearId[pixels1[node1ToK[i]]];
    // Matchable map2 pixels: node ids in MATLAB order.
    const ordToNode2 = new Int32Array(this.count2);
    const node2ToOrd: number[] = [];
    let n2 = 0;
    for (let g = 0; g < this.count2; g++) {
      if (mark2[g] === round) {
        ordToNode2[g] = n2++;
        node2ToOrd.push(g);
      }
    }
    for (let e = 0; e < ne; e++) eTo[e] = ordToNode2[eTo[e]];

    // The assignment graph (match.cc): rows = [map1 nodes, map2 outliers], cols = [map2 nodes, map1 outliers].
    const n = n1 + n2;
    const nmin = Math.min(n1, n2);
    const nmax = Math.max(n1, n2);
    const d1 = Math.max(0, Math.min(DEGREE, n1 - 1));
    const d2 = Math.max(0, Math.min(DEGREE, n2 - 1));
    const d3 = Math.min(DEGREE, nmin);
    const m = ne + d1 * n1 + d2 * n2 + d3 * nmax + n;
    const ow = this.ow;
    const over = this.overlayWeight;
    // CSR written in place, each row's edges in the order of match.cc's edge list (real, map1 outliers,
    // map2 outliers, outlier-outlier, overlay).
    const realStart = new Int32Array(n1 + 1);
    for (let e = 0; e < ne; e++) realStart[eFrom[e] + 1]++;
    for (let i = 0; i < n1; i++) realStart[i + 1] += realStart[i];
    // Outlier-outlier edges: row n1 + i (n1 < n2, d3 per row) or row n1 + j for drawn j (n1 >= n2).
    const blk3 = new Int32Array(d3 * nmax);
    const rowStart = new Int32Array(n + 1);
    for (let i = 0; i < n1; i++) rowStart[i + 1] = realStart[i + 1] - realStart[i] + d1 + 1;
    for (let j = 0; j < n2; j++) rowStart[n1 + j + 1] = 1;
    const col = new Int32Array(m);
    const cost = new Float64Array(m).fill(ow);
    // map1 outliers (drawn first, written once the row offsets are known): j >= i is shifted past i
    const blk1 = new Int32Array(d1 * n1);
    rng.drawBlock(d1, n1 - 1, n1, blk1);
    for (let i = 0; i < n1; i++) {
      for (let t = i * d1, end = t + d1; t < end; t++) if (blk1[t] >= i) blk1[t]++;
    }
    const blk2 = new Int32Array(d2 * n2);
    rng.drawBlock(d2, n2 - 1, n2, blk2);
    for (let j = 0; j < n2; j++) {
      for (let t = j * d2, end = t + d2; t < end; t++) if (blk2[t] >= j) blk2[t]++;
    }
    rng.drawBlock(d3, nmin, nmax, blk3);
    for (let t = 0; t < blk2.length; t++) rowStart[n1 + blk2[t] + 1]++;
    if (n1 < n2) {
      for (let i = 0; i < n2; i++) rowStart[n1 + i + 1] += d3;
    } else {
      for (let t = 0; t < blk3.length; t++) rowStart[n1 + blk3[t] + 1]++;
    }
    for (let r2 = 0; r2 < n; r2++) rowStart[r2 + 1] += rowStart[r2];
    const fill = new Int32Array(n);
    for (let i = 0; i < n1; i++) {
      let pos = rowStart[i];
      for (let e = realStart[i], end = realStart[i + 1]; e < end; e++) {
        col[pos] = eTo[e];
        cost[pos++] = eW[e];
      }
      for (let a = 0; a < d1; a++) col[pos++] = n2 + blk1[i * d1 + a];
      fill[i] = pos;
    }
    // map2 outliers: row n1 + i to column j (d2 rows drawn for each column j, in j order)
    for (let r2 = n1; r2 < n; r2++) fill[r2] = rowStart[r2];
    for (let j = 0; j < n2; j++) {
      for (let a = 0; a < d2; a++) col[fill[n1 + blk2[j * d2 + a]]++] = j;
    }
    for (let i = 0; i < nmax; i++) {
      for (let a = 0; a < d3; a++) {
        const j = blk3[i * d3 + a];
        if (n1 < n2) col[fill[n1 + i]++] = n2 + j;
        else col[fill[n1 + j]++] = n2 + i;
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
    return { n1, n2, n, ne, node1ToK, node2ToOrd, ordToNode2, nodePix, realStart, eToOrd, eW, rowStart, col, cost };
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
