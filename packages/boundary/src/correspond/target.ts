/**
 * The ground-truth side of correspondPixels, prepared once per (image, class) and reused for every threshold, and
 * the two ways to solve one call: `match` (the official graph from scratch, cold solver: pairs and cost) and
 * `count` (the number of real pairs of the same optimum, warm-started from the previous call). How `count` works,
 * step by step: README.md in this folder. The parts: `real-graph.ts` (nodes and real edges), `outlier-graph.ts`
 * (the random outlier edges), `official-graph.ts` (the whole graph, as a CSR or read from its parts),
 * `relaxed.ts` (step 1), `outlier-completion.ts` (step 2), `../completion.ts` (step 4).
 */
import { AssignmentWorkspace, continueAssignment, solveAssignment } from '../assignment.js';
import { CompletionWorkspace, completeAssignment } from '../completion.js';
import { Erand48 } from '../random.js';
import { checkSize } from '../thin.js';
import { OfficialGraph } from './official-graph.js';
import { CompletionScratch, outliersComplete } from './outlier-completion.js';
import { OutlierGraph } from './outlier-graph.js';
import { MULTIPLIER, RealGraph } from './real-graph.js';
import { RelaxedMatcher } from './relaxed.js';

/**
 * Up to this many free rows after the warm start, the official assignment is completed by `completeAssignment`;
 * beyond, the general solver continues on the official CSR. On the real-size ADE20K case the 3 calls (of 2,319) with
 * 9 – 12 free rows cost 2 – 24 ms of CPU in the completion and 40 – 95 ms in the general solver (which builds the CSR
 * and floods the tight outlier region from every free row); the other calls have at most 8.
 */
const MAX_BACKWARD_FREE = 32;

/** The settings of a target, every one given (`resolveCorrespondOptions` fills in the defaults). */
export interface TargetOptions {
  maxDist: number;
  outlierCost: number;
  seed: number;
}

/** How `count` calls ended (for tests and benchmarks). */
export interface CountStats {
  /** Calls that needed the full solver. */
  fallbacks: number;
  /** Calls whose official count differs from the relaxed one (the random outlier graph mattered). */
  repaired: number;
  /** Calls answered by the relaxed pairs, completed by the outlier edges alone (`outliersComplete`). */
  shortcuts: number;
}

/** Throws a RangeError for settings that `CorrespondTarget` cannot use (also for callers that end up not needing one). */
export function checkTargetOptions(options: TargetOptions): void {
  if (!(options.maxDist >= 0)) throw new RangeError(`maxDist must be >= 0, got ${options.maxDist}`);
  if (!(options.outlierCost > 1)) throw new RangeError(`outlierCost must be > 1, got ${options.outlierCost}`);
  new Erand48(options.seed); // validates the seed
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
  readonly seed: number;
  private readonly real: RealGraph;
  private readonly drawn: OutlierGraph;
  private readonly official: OfficialGraph;
  private relaxed: RelaxedMatcher | null = null;
  private readonly scratch = new CountScratch();
  private readonly hScratch = new CompletionScratch();
  private fallbacks = 0;
  private repaired = 0;
  private shortcuts = 0;

  constructor(map2: Uint8Array, height: number, width: number, options: TargetOptions) {
    checkSize(map2.length, height, width, 'map2');
    const maxDistFrac = options.maxDist;
    const outlierCost = options.outlierCost;
    this.seed = options.seed;
    checkTargetOptions(options);
    this.height = height;
    this.width = width;
    // correspondPixels.cc: idiag = sqrt(rows*rows + cols*cols) (int arithmetic inside the sqrt).
    const idiag = Math.sqrt(height * height + width * width);
    this.maxDistPx = maxDistFrac * idiag;
    this.outlierCostPx = outlierCost * maxDistFrac * idiag;
    this.ow = toInt32(Math.ceil(this.outlierCostPx * MULTIPLIER));
    this.overlayWeight = Math.imul(this.ow, MULTIPLIER);
    this.real = new RealGraph(map2, height, width, this.maxDistPx);
    this.drawn = new OutlierGraph(this.seed);
    this.official = new OfficialGraph(this.real, this.drawn, this.ow, this.overlayWeight);
  }

  /** Number of map2 pixels. */
  get count2(): number {
    return this.real.count2;
  }

  /** 1 where a map1 pixel would be matchable (row-major). */
  get near(): Uint8Array {
    return this.real.near;
  }

  /** The compact id of row-major pixel p if it is within tolerance of the GT (`count`'s `ids`), else -1. */
  nearIdOf(p: number): number {
    return this.real.nearId[p];
  }

  /** The row-major pixel of compact near-pixel id `id` (the inverse of `nearIdOf`). */
  nearPixelOf(id: number): number {
    return this.real.nearPixel[id];
  }

  /** How the `count` calls of this target ended so far. */
  stats(): CountStats {
    return { fallbacks: this.fallbacks, repaired: this.repaired, shortcuts: this.shortcuts };
  }

  /**
   * Matches map1 against the prepared map2. `pixels1` lists the on pixels of map1 as row-major indices in
   * MATLAB linear order (x outer, y inner). Returns the number of real matches; when `pairs` is given,
   * `pairs[k]` receives the map2 row-major index matched to `pixels1[k]` (or -1).
   */
  match(pixels1: Int32Array, count1: number, pairs?: Int32Array): { matched: number; cost: number } {
    if (pairs) pairs.fill(-1, 0, count1);
    const real = this.real;
    const n1 = real.build(pixels1, count1);
    if (n1 === 0) return { matched: 0, cost: this.outlierCostPx * (count1 + real.count2) };
    this.drawn.draw(n1, real.n2);
    const { rowToCol } = solveAssignment(this.official.csr());
    const { n2, node1ToK, node2ToOrd, pixels2 } = real;

    let matched = 0;
    let totalCost = 0;
    const width = this.width;
    const oc = this.outlierCostPx;
    for (let i = 0; i < n1; i++) {
      const j = rowToCol[i];
      if (j < n2) {
        matched++;
        const p1 = pixels1[node1ToK[i]];
        const p2 = pixels2[node2ToOrd[j]];
        if (pairs) pairs[node1ToK[i]] = p2;
        const dx = (p1 % width) - (p2 % width);
        const dy = ((p1 / width) | 0) - ((p2 / width) | 0);
        totalCost += Math.sqrt(dx * dx + dy * dy); // 0.5 from each side
      }
    }
    totalCost += oc * (count1 - matched) + oc * (real.count2 - matched);
    return { matched, cost: totalCost };
  }

  /**
   * The number of real matches of `match(pixels1, count1)`: an exact optimum of the same official assignment,
   * found from a warm start instead of from scratch (README.md in this folder):
   * 1. the relaxation of `RelaxedMatcher` (real graph only, each unpaired pixel costs ow; a lower bound of the
   *    official cost), warm-started from the previous call of this target;
   * 2. if the drawn outlier edges alone complete the relaxed pairs into a perfect matching (`outliersComplete`),
   *    that matching attains the lower bound: it is an official optimum, with the relaxed number of real pairs;
   * 3. otherwise its optimal pairs and duals, carried over to the official graph so that every outlier edge is
   *    feasible and the outlier completion edges are tight (`warmStart`);
   * 4. the official assignment completed from there (`completeAssignment`: one backward shortest-path search per
   *    free row, the graph read from its parts).
   * If the carried-over duals were ever infeasible or the completion failed, the full solver runs instead
   * (`fallbacks`). `ids` (optional): the compact near-pixel id of each pixel (`nearIdOf`), saving the lookups; with
   * them, `pixels1` may be null (it is not read).
   */
  count(pixels1: Int32Array | null, count1: number, ids?: Int32Array): number {
    const real = this.real;
    const n1 = real.build(pixels1, count1, ids);
    if (n1 === 0) return 0;
    const count2 = real.count2;
    const edges = { n1, begin: real.eBegin, end: real.eEnd, to: real.eOrd, w: real.eW };
    if (this.relaxed === null) this.relaxed = new RelaxedMatcher(count2, real.nearCount, this.ow);
    const sc = this.scratch;
    sc.ensure(n1, count2);
    const { mate, mateOfG } = sc;
    const relaxedPairs = this.relaxed.solve(real.nodePix, edges, real.byGt, mate, sc.U);
    this.drawn.draw(n1, real.n2);
    mateOfG.fill(-1, 0, count2);
    for (let k = 0; k < n1; k++) if (mate[k] >= 0) mateOfG[mate[k]] = k;
    if (outliersComplete(real, this.drawn, mate, mateOfG, this.hScratch)) {
      this.shortcuts++;
      return relaxedPairs;
    }
    const n = n1 + real.n2;
    if (!this.warmStart(this.relaxed)) {
      this.fallbacks++;
      return this.coldCount();
    }
    const { rowToCol, colToRow, rowCost, u, v } = sc;
    const state = { rowToCol, colToRow, rowCost, u, v };
    let nFree = 0;
    for (let r = 0; r < n; r++) if (rowToCol[r] === -1) nFree++;
    if (nFree <= MAX_BACKWARD_FREE) {
      // the usual case: a few free rows inside the tight outlier region (the graph is read from its parts)
      this.official.prepare(mate, this.hScratch);
      if (!completeAssignment(n, state, sc.completion, this.official.outEdges, this.official.inEdges)) {
        this.fallbacks++;
        return this.coldCount();
      }
    } else continueAssignment(this.official.csr(), state, true, sc.work);
    let c = 0;
    for (let i = 0; i < n1; i++) if (rowToCol[i] < real.n2) c++;
    if (c !== relaxedPairs) this.repaired++;
    return c;
  }

  /**
   * Step 3 of `count`: the official assignment state (in `scratch`) from the relaxation's optimum. The relaxation's
   * optimal duals y (map1 nodes) and z (map2 pixels) satisfy y, z >= 0, y_k + z_g >= ow - w on real edges, equality
   * on the relaxed pairs and 0 on unpaired nodes. Official duals: u = -y on map1 rows, v = ow - z on map2 columns,
   * 0 on outlier rows, ow on outlier columns: every outlier edge is feasible and every R2->C1 edge, every unpaired
   * map1 -> C1 and R2 -> unpaired map2 edge is tight; the relaxed pairs are tight real edges. The maximum matching
   * of `outliersComplete` (outlier edges, all tight under these duals) goes on top. Returns whether the duals are
   * feasible (always, by the argument above; checked).
   */
  private warmStart(relaxed: RelaxedMatcher): boolean {
    const { n1, n2, node2ToOrd, ordToNode2 } = this.real;
    const n = n1 + n2;
    const ow = this.ow;
    const sc = this.scratch;
    const { mate, U } = sc;
    const mw = relaxed.matchedWeights;
    sc.ensureOfficial(n);
    const { u, v, rowToCol, colToRow, rowCost } = sc;
    rowToCol.fill(-1, 0, n);
    colToRow.fill(-1, 0, n);
    u.fill(0, 0, n);
    rowCost.fill(0, 0, n);
    for (let i = 0; i < n1; i++) u[i] = U[i];
    const z = relaxed.gtDuals;
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
    for (let i = 0; i < n1; i++) if (!(u[i] <= 0)) return false;
    for (let j = 0; j < n2; j++) if (!(v[j] <= ow)) return false;
    return true;
  }

  /** The count of the current call from the full solver on the official CSR. */
  private coldCount(): number {
    const { n1, n2 } = this.real;
    const { rowToCol } = solveAssignment(this.official.csr());
    let c = 0;
    for (let i = 0; i < n1; i++) if (rowToCol[i] < n2) c++;
    return c;
  }
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
