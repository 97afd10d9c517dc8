/**
 * The relaxation behind the fast match count of `CorrespondTarget.count` (README.md in this folder):
 *
 *   LB = ow·(n1 + n2) − max over matchings M of the real graph of Σ_{e∈M} (ow − w_e)
 *
 * is a lower bound of the official assignment cost (every perfect matching with real part M and v
 * overlay edges costs Σ_M w + ow·(n1 + n2 − |M| − v) + 100·ow·v). The maximum is a maximum-weight
 * bipartite matching (not necessarily perfect) with profits c_e = ow − w_e > 0, solved by its
 * primal-dual conditions: duals y_k ≥ 0 (map1 nodes) and z_g ≥ 0 (map2 pixels) with y_k + z_g ≥ c_e on
 * every real edge, equality on the matched ones, and y = 0 / z = 0 on every unmatched node. A matching
 * with such duals is optimal (LP duality of the bipartite matching polytope).
 *
 * The map2 side never changes within a unit, so the state (matching and duals, per pixel and per map2
 * pixel) is kept from one call to the next: pixels of the previous map keep their duals and partners,
 * new pixels get the smallest feasible y, map2 pixels whose partner left the map become unmatched. The
 * only violated conditions are then unmatched nodes with a positive dual; each is repaired by one
 * Dijkstra search over alternating paths of the real graph (reduced cost y + z − c ≥ 0), which ends at the
 * cheapest of: an unmatched node of the other side (augment), or any node of the source's side whose dual
 * drops to 0 (it becomes unmatched; the source itself included). The dual shift keeps every condition
 * and repairs the source, and no search reaches beyond the real graph.
 */
import { MinHeap } from '../assignment.js';

export interface RealEdges {
  /** Number of map1 nodes. */
  n1: number;
  /** Node k's edges are [begin[k], end[k]). */
  begin: Int32Array;
  end: Int32Array;
  /** GT ordinal of each edge. */
  to: Int32Array;
  /** Weight rint(100·d) of each edge. */
  w: Float64Array;
}

/**
 * Neighbours of a vertex on demand: `edges(v)` returns their number and leaves them (other side's vertex and
 * edge weight) in to/w from `offset`.
 */
export interface Neighbours {
  to: Int32Array;
  w: Float64Array;
  offset: number;
  edges(v: number): number;
}

/** The nodes' side of `RealEdges`. */
class NodeNeighbours implements Neighbours {
  to: Int32Array = new Int32Array(0);
  w: Float64Array = new Float64Array(0);
  offset = 0;
  private begin: Int32Array = new Int32Array(0);
  private end: Int32Array = new Int32Array(0);

  set(edges: RealEdges): this {
    this.begin = edges.begin;
    this.end = edges.end;
    this.to = edges.to;
    this.w = edges.w;
    return this;
  }

  edges(v: number): number {
    this.offset = this.begin[v];
    return this.end[v] - this.offset;
  }
}

const DROP = 0;
const TAKE = 1;

export class RelaxedMatcher {
  private readonly count2: number;
  private readonly ow: number;
  /** Per pixel id (the caller's compact numbering): the call in which it was last a map1 node, its dual, partner. */
  private readonly stamp: Int32Array;
  private readonly yPix: Float64Array;
  private readonly matePix: Int32Array;
  /** Weight of the pixel's matched edge. */
  private readonly wPix: Float64Array;
  /** Per GT ordinal: dual and partner (a pixel id, -1 = none), kept between calls. */
  private readonly z: Float64Array;
  private readonly mateGPix: Int32Array;
  /** Number of the current call; stamps start at 0, so the first call is 2 and no pixel looks like a previous node. */
  private call = 1;
  /** Node index of each pixel in the current call. */
  private readonly kOfPix: Int32Array;
  // Per call, by node: dual, partner (GT ordinal or -1). Per GT ordinal: partner node (or -1).
  private y = new Float64Array(0);
  private mateK = new Int32Array(0);
  /** Weight of node k's matched edge (when matched). */
  private wK = new Float64Array(0);
  private readonly mateG: Int32Array;
  // Search scratch: distances, stamps (phase numbers, never cleared), predecessors, visit lists.
  private dK = new Float64Array(0);
  private seenK = new Int32Array(0);
  private doneK = new Int32Array(0);
  private predK = new Int32Array(0);
  private predWK = new Float64Array(0);
  private readonly dG: Float64Array;
  private readonly seenG: Int32Array;
  private readonly doneG: Int32Array;
  private readonly predG: Int32Array;
  private readonly predWG: Float64Array;
  private visA = new Int32Array(0);
  private visB = new Int32Array(0);
  private phase = 0;
  private readonly heap = new MinHeap(1024);
  private readonly nodeSide = new NodeNeighbours();
  /** Weight of each node's matched edge after the last call (by node; meaningful where `mate` >= 0). */
  get matchedWeights(): Float64Array {
    return this.wK;
  }

  /** The duals z of the map2 pixels after the last call, by GT ordinal (0 on every unmatched one). */
  get gtDuals(): Float64Array {
    return this.z;
  }

  constructor(count2: number, pixelCount: number, ow: number) {
    this.count2 = count2;
    this.ow = ow;
    this.stamp = new Int32Array(pixelCount);
    this.yPix = new Float64Array(pixelCount);
    this.matePix = new Int32Array(pixelCount);
    this.wPix = new Float64Array(pixelCount);
    this.kOfPix = new Int32Array(pixelCount);
    this.z = new Float64Array(count2);
    this.mateGPix = new Int32Array(count2).fill(-1);
    this.mateG = new Int32Array(count2);
    this.dG = new Float64Array(count2);
    this.seenG = new Int32Array(count2);
    this.doneG = new Int32Array(count2);
    this.predG = new Int32Array(count2);
    this.predWG = new Float64Array(count2);
    this.visB = new Int32Array(count2 + 1);
    this.visA = new Int32Array(count2 + 1);
  }

  /**
   * Solves the relaxation for the map1 nodes `pixels[0..n1)` (a pixel id < pixelCount for node k) with their real
   * edges. Writes the GT ordinal matched to node k (or -1) into `mate` and, when given, a potential of node k into
   * `uOut` (−y_k: for a matched k and any edge (k', M(k)), w(k', M(k)) − w(k, M(k)) − uOut[k'] + uOut[k] >= 0).
   * Returns the number of pairs. `byGt` gives the same real edges by GT ordinal (node and weight).
   */
  solve(pixels: Int32Array, edges: RealEdges, byGt: Neighbours, mate: Int32Array, uOut?: Float64Array): number {
    const { n1, begin, end: edgeEnd, to, w } = edges;
    const N2 = this.count2;
    const ow = this.ow;
    this.ensure(n1);
    const call = ++this.call;
    const prev = call - 1;
    const { stamp, yPix, matePix, wPix, kOfPix, z, mateGPix, mateG } = this;
    const y = this.y;
    const wK = this.wK;
    const mateK = this.mateK;
    for (let k = 0; k < n1; k++) kOfPix[pixels[k]] = k;
    // Partners of the map2 pixels: kept when the pixel is still a node (its edges never change).
    for (let g = 0; g < N2; g++) {
      const p = mateGPix[g];
      mateG[g] = -1;
      if (p < 0 || stamp[p] !== prev) continue;
      const k = kOfPix[p];
      if (k < n1 && pixels[k] === p) mateG[g] = k;
    }
    // Nodes: previous ones keep dual and partner; new ones get the smallest feasible y and no partner.
    // sources: the unmatched nodes with a positive dual
    let nSrc = 0;
    const srcK = this.srcK(n1);
    for (let k = 0; k < n1; k++) {
      const p = pixels[k];
      if (stamp[p] === prev) {
        y[k] = yPix[p];
        const g = matePix[p];
        mateK[k] = g >= 0 && mateG[g] === k ? g : -1;
        wK[k] = wPix[p];
      } else {
        let yk = 0;
        for (let e = begin[k], end = edgeEnd[k]; e < end; e++) {
          const s = ow - w[e] - z[to[e]];
          if (s > yk) yk = s;
        }
        y[k] = yk;
        mateK[k] = -1;
      }
      if (mateK[k] < 0 && y[k] > 0) srcK[nSrc++] = k;
    }
    const nodeSide = this.nodeSide.set(edges);
    for (let q = 0; q < nSrc; q++) {
      const k = srcK[q];
      if (mateK[k] >= 0 || !(y[k] > 0)) continue; // repaired by an earlier search
      this.search(k, nodeSide, y, z, mateK, mateG, this.dK, this.dG, this.seenG, this.doneG, this.predG, this.predWG, true);
    }
    // Unmatched map2 pixels with a positive dual (their partner left the map): searches from the map2 side.
    for (let g = 0; g < N2; g++) {
      if (mateG[g] >= 0 || !(z[g] > 0)) continue;
      this.search(g, byGt, z, y, mateG, mateK, this.dG, this.dK, this.seenK, this.doneK, this.predK, this.predWK, false);
    }

    let pairs = 0;
    for (let k = 0; k < n1; k++) {
      const p = pixels[k];
      stamp[p] = call;
      yPix[p] = y[k];
      const g = mateK[k];
      matePix[p] = g;
      wPix[p] = wK[k];
      mate[k] = g;
      if (g >= 0) pairs++;
    }
    if (uOut) for (let k = 0; k < n1; k++) uOut[k] = -y[k];
    for (let g = 0; g < N2; g++) {
      const k = mateG[g];
      mateGPix[g] = k < 0 ? -1 : pixels[k];
    }
    return pairs;
  }

  /**
   * One repair from the unmatched source a0 of side A (dualA[a0] > 0). Side A's edges come from `adj` (B vertex
   * and weight); the profit of an edge is ow − w. Dijkstra over alternating paths: A -> B along
   * unmatched edges (reduced cost dualA + dualB − profit), B -> its partner in A at no cost. It ends at the
   * cheapest of: an unmatched B vertex (augment, cost = its distance) or an A vertex reached (its dual drops to
   * 0 and it becomes unmatched, cost = distance + dual; a0 itself at cost dualA[a0]).
   * Hot kernel (one call per repair), kept whole.
   */
  private search(
    a0: number,
    adj: Neighbours,
    dualA: Float64Array,
    dualB: Float64Array,
    mateA: Int32Array,
    mateB: Int32Array,
    dA: Float64Array,
    dB: Float64Array,
    seenB: Int32Array,
    doneB: Int32Array,
    predB: Int32Array,
    predW: Float64Array,
    nodesAreA: boolean,
  ): void {
    const ph = ++this.phase;
    const ow = this.ow;
    const heap = this.heap;
    const visA = this.visA;
    const visB = this.visB;
    heap.clear();
    let nA = 0;
    let nB = 0;
    let best = dualA[a0];
    let bestKind = DROP;
    let bestV = a0;
    dA[a0] = 0;
    visA[nA++] = a0;
    let a = a0;
    let da = 0;
    for (;;) {
      // scan a's unmatched edges
      const base = da + dualA[a] - ow;
      const ma = mateA[a];
      const cnt = adj.edges(a);
      const adjTo = adj.to;
      const adjW = adj.w;
      for (let e = adj.offset, end = e + cnt; e < end; e++) {
        const b = adjTo[e];
        if (b === ma) continue;
        const nd = base + dualB[b] + adjW[e];
        if (seenB[b] === ph && nd >= dB[b]) continue;
        seenB[b] = ph;
        dB[b] = nd;
        predB[b] = a;
        predW[b] = adjW[e];
        if (mateB[b] < 0) {
          if (nd < best) {
            best = nd;
            bestKind = TAKE;
            bestV = b;
          }
        } else if (nd < best) heap.push(nd, b);
      }
      // next B vertex (a matched one) below the best end found so far
      let b = -1;
      let db = 0;
      while (heap.size > 0) {
        db = heap.keys[0];
        if (db >= best) break;
        const v = heap.vals[0];
        heap.pop();
        if (doneB[v] === ph || db !== dB[v]) continue;
        b = v;
        break;
      }
      if (b < 0) break;
      doneB[b] = ph;
      visB[nB++] = b;
      a = mateB[b];
      da = db;
      dA[a] = da;
      visA[nA++] = a;
      if (da + dualA[a] < best) {
        best = da + dualA[a];
        bestKind = DROP;
        bestV = a;
      }
    }
    // Dual shift (every visited distance is <= best), then flip the path.
    for (let q = 0; q < nA; q++) {
      const v = visA[q];
      dualA[v] -= best - dA[v];
    }
    for (let q = 0; q < nB; q++) {
      const v = visB[q];
      dualB[v] += best - dB[v];
    }
    let b: number;
    if (bestKind === DROP) {
      if (bestV === a0) return;
      b = mateA[bestV];
      mateA[bestV] = -1;
    } else b = bestV;
    const wK = this.wK;
    for (;;) {
      const v = predB[b];
      const next = mateA[v];
      mateA[v] = b;
      mateB[b] = v;
      wK[nodesAreA ? v : b] = predW[b];
      if (v === a0) break;
      b = next;
    }
  }

  private srcBuf = new Int32Array(0);
  private srcK(n: number): Int32Array {
    if (this.srcBuf.length < n) this.srcBuf = new Int32Array(Math.max(n, 2 * this.srcBuf.length));
    return this.srcBuf;
  }

  private ensure(n1: number): void {
    if (this.y.length >= n1) return;
    const cap = Math.max(n1, 2 * this.y.length, 64);
    this.y = new Float64Array(cap);
    this.mateK = new Int32Array(cap);
    this.wK = new Float64Array(cap);
    this.dK = new Float64Array(cap);
    this.seenK = new Int32Array(cap);
    this.doneK = new Int32Array(cap);
    this.predK = new Int32Array(cap);
    this.predWK = new Float64Array(cap);
    // visit lists hold vertices of either side
    const vis = Math.max(cap, this.count2) + 1;
    this.visA = new Int32Array(vis);
    this.visB = new Int32Array(vis);
    // fresh stamp arrays are all 0, the phase counter continues
  }
}
