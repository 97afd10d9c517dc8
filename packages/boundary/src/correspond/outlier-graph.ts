/**
 * The random outlier edges of match.cc, drawn draw for draw from the erand48 stream that correspondPixels reseeds at
 * every call. With n1 map1 nodes, n2 map2 nodes, DEGREE = 6, the official graph has n1 + n2 rows (map1 nodes, then
 * one "map2-outlier" row per map2 node) and n1 + n2 columns (map2 nodes, then one "map1-outlier" column per map1
 * node), and three drawn blocks, in this order of the stream:
 *
 * - block 1: each map1 node i draws d1 = min(6, n1 − 1) distinct map1-outlier columns among the n1 − 1 others
 *   (kOfN over n1 − 1, then shifted past i);
 * - block 2: each map2 node j draws d2 = min(6, n2 − 1) distinct map2-outlier rows among the n2 − 1 others;
 * - block 3 (outlier to outlier): each of the max(n1, n2) outliers of the larger side draws d3 = min(6, n1, n2)
 *   distinct outliers of the smaller side.
 *
 * The draws depend on (seed, n1, n2) only, so the blocks of the last few (n1, n2) are kept (`DRAW_CACHE`;
 * thresholds often repeat an n1), and the map2 block, whose size rarely changes, is copied from the previous
 * call's chain of draws (`FastKofN.drawBlockMemo`); so is block 3 when n1 >= n2 (its draws are then over the n2
 * map2 outliers: only its start and length move with n1).
 *
 * The counting sorts below invert a block (the rows that drew each key). A loop with one read-modify-write of a
 * typed array per entry costs ~10 cycles an entry in V8; a row of DEGREE = 6 entries with distinct keys (kOfN
 * draws a subset) reads its six counters before writing any: 2-2.5x faster, the same result.
 */
import { DrawChain, FastKofN } from './random.js';

/** match.cc: the degree of the random outlier connections. */
const DEGREE = 6;
/** Drawn outlier graphs kept by `OutlierGraph.draw` (by n1, n2). */
const DRAW_CACHE = 8;

/** The drawn outlier blocks of one (n1, n2). */
interface DrawnGraph {
  n1: number;
  n2: number;
  blk1: Int32Array;
  blk2: Int32Array;
  blk3: Int32Array;
}

/**
 * The drawn outlier edges of the current call: blk1 (map1 node -> map1-outlier column, shifted past the node),
 * blk2 (map2 node <- map2-outlier row, shifted), blk3 (outlier to outlier), d1, d2, d3 entries per row.
 */
export class OutlierGraph {
  d1 = 0;
  d2 = 0;
  d3 = 0;
  blk1: Int32Array = new Int32Array(0);
  blk2: Int32Array = new Int32Array(0);
  blk3: Int32Array = new Int32Array(0);
  private readonly rng = new FastKofN();
  /** The chain of block 3 when its kOfN range is n2 (n1 >= n2: then only its length and start move with n1). */
  private readonly chain3 = new DrawChain();
  private readonly cache: DrawnGraph[] = [];

  constructor(private readonly seed: number) {}

  /** Draws (or takes from the cache) the blocks of (n1, n2) from the reseeded stream, in the official order. */
  draw(n1: number, n2: number): void {
    const nmin = Math.min(n1, n2);
    const nmax = Math.max(n1, n2);
    const d1 = Math.max(0, Math.min(DEGREE, n1 - 1));
    const d2 = Math.max(0, Math.min(DEGREE, n2 - 1));
    const d3 = Math.min(DEGREE, nmin);
    this.d1 = d1;
    this.d2 = d2;
    this.d3 = d3;
    // most recent last
    const cache = this.cache;
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
    // with room to grow: the entry that is reused is the oldest, and n1 mostly grows from one call to the next
    if (entry.blk1.length < d1 * n1) entry.blk1 = new Int32Array(withRoom(d1 * n1));
    if (entry.blk2.length < d2 * n2) entry.blk2 = new Int32Array(withRoom(d2 * n2));
    if (entry.blk3.length < d3 * nmax) entry.blk3 = new Int32Array(withRoom(d3 * nmax));
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
    if (n1 >= n2) rng.drawBlockMemo(d3, nmin, nmax, blk3, this.chain3);
    else rng.drawBlock(d3, nmin, nmax, blk3);
  }
}

/** A buffer size for `need` entries with room to grow by half (fewer reallocations as the maps grow). */
export function withRoom(need: number): number {
  return need + (need >> 1);
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

/** Lists of ints by key (a counting sort): count the entries (`countRows`), prefix, put them (`putRows`), read key k's range. */
export class Inverted {
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

/** start[c + 1]++ for every entry c of `blk` (`rows` rows of d distinct entries; only rows r with only[r] >= 0). */
export function countEntries(blk: Int32Array, d: number, rows: number, start: Int32Array, only: Int32Array | null = null): void {
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
export function scatterRows(
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
