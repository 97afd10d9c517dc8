/**
 * The real part of the official correspondPixels graph (match.cc): the edges between map1 pixels (a thresholded,
 * thinned prediction) and map2 pixels (the ground truth) closer than the tolerance, weighted rint(100 × distance).
 *
 * The map2 side is fixed for a whole (image, class) unit, so everything that depends on it alone is prepared once:
 * the disc of window offsets, a padded map of the map2 pixels, the mask of pixels within tolerance of the ground
 * truth ("near" pixels, the only ones that can become nodes) and their compact ids. Per call, `build` lists the map1
 * nodes in MATLAB order; the window scan of a near pixel is done the first time it becomes a node and kept in a
 * pool, so a node's real edges are a range of that pool. The number of nodes around each map2 pixel is kept up to
 * date from the nodes that come and go between calls, so the matchable map2 nodes are read off without a scan.
 * `WindowNeighbours` gives the other direction (the map1 nodes around a map2 pixel) by scanning its window.
 */
import type { Neighbours } from './relaxed.js';

/** match.cc: CSA needs integer weights; distances are multiplied by this. */
export const MULTIPLIER = 100;

/** C's rint() under the default rounding mode: round half to even. */
export function rint(x: number): number {
  const f = Math.floor(x);
  const diff = x - f;
  if (diff < 0.5) return f;
  if (diff > 0.5) return f + 1;
  return f % 2 === 0 ? f : f + 1;
}

/** Scratch of the `RealGraph` constructor (pixels in row-major order before they are sorted by column), kept. */
let pixelScratch = new Int32Array(0);
/** Scratch of the `RealGraph` constructor: the padded mask of pixels within tolerance (all 0 between uses), kept. */
let nearScratch = new Uint8Array(0);

/** The window of a tolerance: the offsets (u, v) with u² + v² ≤ maxDist² and their weights. */
interface Window {
  radius: number;
  /** Offsets in the padded map (v * pstride + u). */
  offsets: Int32Array;
  dx: Int32Array;
  dy: Int32Array;
  weights: Float64Array;
}

function windowOf(maxDistPx: number, pstride: number): Window {
  const r = Math.ceil(maxDistPx);
  const md2 = maxDistPx * maxDistPx;
  const offs: number[] = [];
  const dxs: number[] = [];
  const dys: number[] = [];
  const ws: number[] = [];
  for (let u = -r; u <= r; u++) {
    for (let v = -r; v <= r; v++) {
      if (u * u + v * v > md2) continue;
      const d = Math.sqrt(u * u + v * v);
      offs.push(v * pstride + u); // u = dx (column), v = dy (row)
      dxs.push(u);
      dys.push(v);
      ws.push(rint(d * MULTIPLIER));
    }
  }
  return {
    radius: r,
    offsets: Int32Array.from(offs),
    dx: Int32Array.from(dxs),
    dy: Int32Array.from(dys),
    weights: Float64Array.from(ws),
  };
}

/**
 * The real graph of the current call of a `CorrespondTarget` (nodes, real edges, matchable map2 nodes), in buffers
 * kept between calls, and the map2 side it is built against.
 */
export class RealGraph {
  readonly height: number;
  readonly width: number;
  readonly radius: number;
  /** Number of map2 pixels. */
  readonly count2: number;
  /** map2 pixels in MATLAB linear order (x outer, y inner), as row-major indices. */
  readonly pixels2: Int32Array;
  /** Compact id of each near pixel (-1 elsewhere), and their number; the row-major pixel of each id. */
  readonly nearId: Int32Array;
  readonly nearCount: number;
  readonly nearPixel: Int32Array;
  /** The current map1 nodes around a map2 pixel (real edges by map2 pixel). */
  readonly byGt: WindowNeighbours;
  private readonly pstride: number;
  /** Padded map: ordinal+1 of the map2 pixel at each position, 0 if none. */
  private readonly padded: Int32Array;
  private readonly window: Window;
  /**
   * Per map2 pixel: the number of nodes of the last build within tolerance (> 0 = matchable), kept up to date
   * from the nodes that come and go between calls; per near pixel, the last build that made it a node.
   */
  private readonly gtNear: Int32Array;
  private readonly idRound: Int32Array;
  private buildRound = 1;
  private prevIds = new Int32Array(0);
  private prevCount = 0;
  /** Per near pixel: first entry of its real edges in the pools (-1 = not scanned yet), and their number. */
  private edgeStart: Int32Array | null = null;
  private edgeLen: Int32Array | null = null;
  private poolG = new Int32Array(1 << 14);
  private poolW = new Float64Array(1 << 14);
  private poolSize = 0;

  // The graph of the current call.
  n1 = 0;
  n2 = 0;
  /** Number of real edges. */
  ne = 0;
  /** Node i of map1: index into pixels1, and compact pixel id. */
  node1ToK = new Int32Array(0);
  nodePix = new Int32Array(0);
  /** Real edges of node i: [eBegin[i], eEnd[i]) in eOrd (GT ordinal) and eW (weight): the kept window scans. */
  eBegin = new Int32Array(0);
  eEnd = new Int32Array(0);
  eOrd = new Int32Array(0);
  eW = new Float64Array(0);
  /** GT ordinal -> map2 node (-1 = not matchable), and back. */
  ordToNode2 = new Int32Array(0);
  node2ToOrd = new Int32Array(0);

  constructor(map2: Uint8Array, height: number, width: number, maxDistPx: number) {
    this.height = height;
    this.width = width;
    const r = Math.ceil(maxDistPx);
    const pstride = width + 2 * r;
    this.pstride = pstride;
    this.window = windowOf(maxDistPx, pstride);
    this.radius = r;

    // The map2 pixels in MATLAB order (x outer, y inner), from a row-major pass (their columns counted, then each
    // put in its column's range: a stable counting sort, so y stays increasing within a column).
    const area = height * width;
    if (pixelScratch.length < area) pixelScratch = new Int32Array(area);
    const rowMajor = pixelScratch;
    const colStart = new Int32Array(width + 1);
    let count2 = 0;
    for (let p = 0, y = 0; y < height; y++) {
      for (let x = 0; x < width; x++, p++) {
        if (map2[p] === 0) continue;
        rowMajor[count2++] = p;
        colStart[x + 1]++;
      }
    }
    this.count2 = count2;
    const pixels2 = new Int32Array(count2);
    for (let x = 0; x < width; x++) colStart[x + 1] += colStart[x];
    for (let k = 0; k < count2; k++) {
      const p = rowMajor[k];
      pixels2[colStart[p % width]++] = p;
    }
    this.padded = new Int32Array(pstride * (height + 2 * r));
    // the tolerance disc around every map2 pixel, marked in a padded copy through the window offsets (a scratch
    // kept between targets, cleared after use)
    const paddedSize = this.padded.length;
    if (nearScratch.length < paddedSize) nearScratch = new Uint8Array(paddedSize);
    const nearPadded = nearScratch;
    const offsets = this.window.offsets;
    for (let ord = 0; ord < count2; ) {
      const p = pixels2[ord];
      const y = (p / width) | 0;
      const q = (y + r) * pstride + (p - y * width) + r;
      this.padded[q] = ++ord;
      for (let o = 0; o < offsets.length; o++) nearPadded[q + offsets[o]] = 1;
    }
    this.pixels2 = pixels2;
    this.gtNear = new Int32Array(count2);
    // Compact ids of the near pixels, numbered in MATLAB order, the order of the nodes (their per-pixel state is then
    // read almost in sequence): the per-pixel state of `count` is sized by them, not by the image. Listed from a
    // row-major pass over the marked disc and sorted by column as above.
    this.nearId = new Int32Array(area).fill(-1);
    colStart.fill(0);
    let nearCount = 0;
    for (let y = 0; y < height; y++) {
      const q = (y + r) * pstride + r;
      for (let x = 0; x < width; x++) {
        if (nearPadded[q + x] === 0) continue;
        rowMajor[nearCount++] = y * width + x;
        colStart[x + 1]++;
      }
    }
    nearPadded.fill(0, 0, paddedSize);
    for (let x = 0; x < width; x++) colStart[x + 1] += colStart[x];
    const pixelOf = new Int32Array(nearCount);
    for (let k = 0; k < nearCount; k++) {
      const p = rowMajor[k];
      const id = colStart[p % width]++;
      pixelOf[id] = p;
      this.nearId[p] = id;
    }
    this.nearCount = nearCount;
    this.nearPixel = pixelOf;
    this.idRound = new Int32Array(nearCount);
    const w = this.window;
    this.byGt = new WindowNeighbours(width, height, pixels2, this.nearId, nearCount, w.dx, w.dy, w.weights);
  }

  /** 1 where a map1 pixel would be matchable (row-major, unpadded; made on demand, for tests). */
  get near(): Uint8Array {
    const near = new Uint8Array(this.height * this.width);
    for (let id = 0; id < this.nearCount; id++) near[this.nearPixel[id]] = 1;
    return near;
  }

  /** Number of window offsets (the most real edges of one node). */
  get windowSize(): number {
    return this.window.dx.length;
  }

  /**
   * The real part of the official graph (match.cc) of map1 = `pixels1[0..count1)`: matchable map1 nodes in
   * MATLAB order, their real edges, the matchable map2 nodes. Returns n1 (0: no map1 pixel can match).
   * `ids` (optional): the compact near-pixel id of each pixel; with them, `pixels1` may be null (not read).
   */
  build(pixels1: Int32Array | null, count1: number, ids?: Int32Array): number {
    const n1 = this.buildNodes(pixels1, count1, ids);
    if (n1 === 0) {
      this.n2 = 0;
      return 0;
    }
    this.listMap2Nodes();
    return n1;
  }

  /**
   * The map1 nodes and their real edges (window scans from the pool, scanned on first use). Hot kernel (every
   * call, every node), kept whole.
   */
  private buildNodes(pixels1: Int32Array | null, count1: number, ids?: Int32Array): number {
    const width = this.width;
    const r = this.radius;
    const pstride = this.pstride;
    const padded = this.padded;
    const offsets = this.window.offsets;
    const weights = this.window.weights;
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
      const id = ids === undefined ? nearId[(pixels1 as Int32Array)[k]] : ids[k];
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
        const p = this.nearPixel[id];
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
    return n1;
  }

  /** Matchable map2 pixels (some node within tolerance): node ids in MATLAB order. */
  private listMap2Nodes(): void {
    if (this.ordToNode2.length < this.count2) {
      this.ordToNode2 = new Int32Array(this.count2);
      this.node2ToOrd = new Int32Array(this.count2);
    }
    const ordToNode2 = this.ordToNode2;
    const node2ToOrd = this.node2ToOrd;
    const gtNear = this.gtNear;
    let n2 = 0;
    for (let g = 0; g < this.count2; g++) {
      if (gtNear[g] > 0) {
        ordToNode2[g] = n2;
        node2ToOrd[n2++] = g;
      } else ordToNode2[g] = -1;
    }
    this.n2 = n2;
  }
}

/**
 * The map1 nodes of the current call within the window around a map2 pixel (the real edges into it), found by
 * scanning the window: `edges(g)` for GT ordinal g (`Neighbours` of the relaxed matcher), `scanInto` for others.
 */
export class WindowNeighbours implements Neighbours {
  to: Int32Array;
  w: Float64Array;
  offset = 0;
  /** Per near pixel id: the build that made it a node, and its node index. */
  readonly nodeStamp: Int32Array;
  readonly nodeOf: Int32Array;
  stamp = 0;
  /** Per GT ordinal: first entry of its window list in the pools (-1 = not listed yet), and its length. */
  private readonly gStart: Int32Array;
  private readonly gLen: Int32Array;
  private poolId = new Int32Array(1 << 12);
  private poolO = new Int32Array(1 << 12);
  private poolSize = 0;
  /** Per GT ordinal: the build whose list of nodes is kept (in `to`, `w`), its start and length; the pool's size. */
  private readonly listCall: Int32Array;
  private readonly listStart: Int32Array;
  private readonly listLen: Int32Array;
  private listStamp = -1;
  private size = 0;

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
    this.to = new Int32Array(Math.max(1024, dx.length));
    this.w = new Float64Array(this.to.length);
    this.listCall = new Int32Array(pixels2.length).fill(-1);
    this.listStart = new Int32Array(pixels2.length);
    this.listLen = new Int32Array(pixels2.length);
    this.nodeStamp = new Int32Array(nearCount);
    this.nodeOf = new Int32Array(nearCount);
    this.gStart = new Int32Array(pixels2.length).fill(-1);
    this.gLen = new Int32Array(pixels2.length);
  }

  /**
   * The map1 nodes of the current build around GT ordinal g (`Neighbours`): scanned once per build and kept in a
   * pool (`to`, `w` from `offset`), so that the searches that come back to g read the same list again.
   */
  edges(g: number): number {
    const stamp = this.stamp;
    if (this.listStamp !== stamp) {
      this.listStamp = stamp;
      this.size = 0;
    }
    if (this.listCall[g] === stamp) {
      this.offset = this.listStart[g];
      return this.listLen[g];
    }
    let s = this.gStart[g];
    if (s < 0) s = this.listWindow(g);
    const len = this.gLen[g];
    const start = this.size;
    if (this.to.length < start + len) {
      const cap = Math.max(start + len, 2 * this.to.length);
      const to = new Int32Array(cap);
      to.set(this.to.subarray(0, start));
      this.to = to;
      const w = new Float64Array(cap);
      w.set(this.w.subarray(0, start));
      this.w = w;
    }
    const { poolId, poolO, wt, nodeStamp, nodeOf, to, w } = this;
    let c = start;
    for (let t = s, end = s + len; t < end; t++) {
      const id = poolId[t];
      if (nodeStamp[id] !== stamp) continue;
      to[c] = nodeOf[id];
      w[c++] = wt[poolO[t]];
    }
    this.listCall[g] = stamp;
    this.listStart[g] = start;
    this.listLen[g] = c - start;
    this.size = c;
    this.offset = start;
    return c - start;
  }

  /** Writes the nodes and weights of GT ordinal g's real edges (`edges(g)`) to rows/costs from c; returns the new end. */
  scanInto(g: number, rows: Int32Array, costs: Float64Array, c: number): number {
    const len = this.edges(g);
    const { to, w } = this;
    for (let t = this.offset, end = t + len; t < end; t++) {
      rows[c] = to[t];
      costs[c++] = w[t];
    }
    return c;
  }

  /** Lists the near pixels in GT ordinal g's window (id and window offset index) in the pool; returns the start. */
  private listWindow(g: number): number {
    const width = this.width;
    const height = this.height;
    const p = this.pixels2[g];
    const y = (p / width) | 0;
    const x = p - y * width;
    const { dx, dy, nearId } = this;
    if (this.poolSize + dx.length > this.poolId.length) {
      const cap = Math.max(2 * this.poolId.length, this.poolSize + dx.length);
      const a = new Int32Array(cap);
      a.set(this.poolId.subarray(0, this.poolSize));
      this.poolId = a;
      const b = new Int32Array(cap);
      b.set(this.poolO.subarray(0, this.poolSize));
      this.poolO = b;
    }
    const { poolId, poolO } = this;
    const s = this.poolSize;
    let t = s;
    for (let o = 0; o < dx.length; o++) {
      const xx = x - dx[o];
      const yy = y - dy[o];
      if (xx < 0 || xx >= width || yy < 0 || yy >= height) continue;
      const id = nearId[yy * width + xx];
      if (id < 0) continue;
      poolId[t] = id;
      poolO[t++] = o;
    }
    this.poolSize = t;
    this.gStart[g] = s;
    this.gLen[g] = t - s;
    return s;
  }
}
