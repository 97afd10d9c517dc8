/**
 * Polygons and boxes to RLE: pycocotools `rleFrPoly`, `rleFrBbox`, `frPoly`, `frBbox` (spec: coco.md §7.3).
 * The polygon is scaled ×5, its boundary is walked one step per unit of the longer axis with C's
 * truncating int casts, the steps that cross a pixel column centre become run boundaries, and the
 * even-odd rule turns the sorted boundaries into runs. Only the column crossings matter, so an edge jumps
 * from crossing to crossing instead of visiting every step: in closed form along the major axis x, and by
 * estimating the step from the line and settling it with exact evaluations of the monotone column
 * sequence along the major axis y. The result is the same (the step-by-step walk is kept as a test
 * reference); the time is bounded by the image width, not the coordinates.
 */
import { RleError, show } from './errors.js';
import { checkSize, type Rle } from './rle.js';
import { scratchU32 } from './scratch.js';
import { sortU32 } from './sort.js';
import type { PackedCounts } from './string.js';

const SCALE = 5;
/** Scaled coordinates must stay within ±2^30 so that C's int differences cannot overflow. */
const COORD_LIMIT = 1 << 30;
/** Edges along y with at most this many steps are walked step by step (0: only single points). */
let directSteps = 0;

/** Test hook: walk y-major edges of up to n steps step by step, as pycocotools does (returns the old value). */
export function setDirectSteps(n: number): number {
  const old = directSteps;
  directSteps = n;
  return old;
}

/** C `(int)` of a double on x86-64: truncation toward zero; NaN and out-of-range give −2^31. */
function cInt(v: number): number {
  // within int32 range `| 0` truncates as Math.trunc does (and is no call while the code is interpreted)
  return v > -2147483649 && v < 2147483648 ? v | 0 : -2147483648;
}

// Per-call state of the rasteriser (module level: no closures or allocations per step).
let bnd = scratchU32(1024); // boundary pixel indices
let nb = 0;
let H = 0;
let WM1 = 0; // (double)(siz)(w - 1)
let pu = 0; // previous boundary point
let pv = 0;
let havePrev = false;

/** One pair of consecutive boundary points (u0,v0) → (u1,v1) (stage 2 of rleFrPoly). */
function pair(u0: number, v0: number, u1: number, v1: number): void {
  if (u1 === u0) return;
  let xd = u1 < u0 ? u1 : u1 - 1;
  xd = (xd + 0.5) / SCALE - 0.5;
  if (Math.floor(xd) !== xd || xd < 0 || xd > WM1) return;
  const yd = boundaryRow(v1 < v0 ? v1 : v0);
  if (nb === bnd.length) bnd = scratchU32(2 * nb, bnd);
  bnd[nb++] = (xd * H + yd) >>> 0;
}

/**
 * The row of a boundary at scaled ordinate v (an integer): C's `ceil(min(max((v + .5) / 5 - .5, 0), h))`, computed
 * as `ceil((v − 2) / 5)` clamped to [0, h]: the same integer (where (v − 2) / 5 is an integer both expressions are
 * exact; elsewhere it is at least 0.2 from one, far beyond the rounding), and no double kept across the clamp, which
 * the optimised code boxed on every boundary (a heap number each).
 */
function boundaryRow(v: number): number {
  const y = Math.ceil((v - 2) / SCALE);
  return y > 0 ? (y > H ? H : y) : 0;
}

function point(u: number, v: number): void {
  if (havePrev) pair(pu, pv, u, v);
  pu = u;
  pv = v;
  havePrev = true;
}

// Edge parameters for uAt / vAt (set by edge()).
let eXs = 0;
let eYs = 0;
// the slope in a Float64Array: a double in a module variable is a new heap number at every store (one per edge)
const slope = new Float64Array(1);
let eFlip = false;
let eD = 0;
let eMajorX = true;

function tAt(d: number): number {
  return eFlip ? eD - d : d;
}
function uAt(d: number): number {
  const t = tAt(d);
  return eMajorX ? t + eXs : cInt(eXs + slope[0] * t + 0.5);
}
function vAt(d: number): number {
  const t = tAt(d);
  return eMajorX ? cInt(eYs + slope[0] * t + 0.5) : t + eYs;
}

/** Stage 1 of rleFrPoly for the edge (x0,y0) → (x1,y1), feeding the points to stage 2. */
function edge(x0: number, y0: number, x1: number, y1: number): void {
  let xs = x0;
  let xe = x1;
  let ys = y0;
  let ye = y1;
  const dx = Math.abs(xe - xs);
  const dy = Math.abs(ys - ye);
  const flip = (dx >= dy && xs > xe) || (dx < dy && ys > ye);
  if (flip) {
    let t = xs;
    xs = xe;
    xe = t;
    t = ys;
    ys = ye;
    ye = t;
  }
  eMajorX = dx >= dy;
  slope[0] = eMajorX ? (ye - ys) / dx : (xe - xs) / dy; // 0/0 = NaN for a repeated vertex, as in C
  eXs = xs;
  eYs = ys;
  eFlip = flip;
  const D = (eD = eMajorX ? dx : dy);
  if (eMajorX) {
    // u = xs + t rises by 1 per step of t: the pairs that matter are (c, c+1) with c = 5n+2, in closed form
    point(uAt(0), vAt(0));
    const s = slope[0];
    const nMin = Math.max(0, Math.ceil((xs - 2) / SCALE));
    const nMax = Math.min(Math.floor((xe - 3) / SCALE), WM1);
    // pair(c, v0, c + 1, v1) (or, flipped, pair(c + 1, v1, c, v0)) written out: its column is n exactly
    // ((5n + 2.5) / 5 − 0.5, within [0, w − 1]) and its row the lower of v0, v1 either way
    for (let n = nMin; n <= nMax; n++) {
      const t = SCALE * n + 2 - xs;
      const a0 = ys + s * t + 0.5;
      const a1 = ys + s * (t + 1) + 0.5;
      // cInt inline
      const v0 = a0 > -2147483649 && a0 < 2147483648 ? a0 | 0 : -2147483648;
      const v1 = a1 > -2147483649 && a1 < 2147483648 ? a1 | 0 : -2147483648;
      const yd = boundaryRow(v1 < v0 ? v1 : v0);
      if (nb === bnd.length) bnd = scratchU32(2 * nb, bnd);
      bnd[nb++] = (n * H + yd) >>> 0;
    }
    pu = uAt(D);
    pv = vAt(D);
    return;
  }
  if (D <= directSteps) {
    // u changes by at most 1 per step: walk, and look closer only where it changes at a column centre
    let u0 = pu;
    let v0 = pv;
    let hp = havePrev;
    const s = slope[0];
    for (let d = 0; d <= D; d++) {
      const t = flip ? D - d : d;
      const u = cInt(xs + s * t + 0.5);
      const v = t + ys;
      if (hp && u !== u0) {
        const x = u < u0 ? u : u - 1;
        if ((((x - 2) % SCALE) + SCALE) % SCALE === 0) pair(u0, v0, u, v);
      }
      u0 = u;
      v0 = v;
      hp = true;
    }
    pu = u0;
    pv = v0;
    havePrev = hp;
    return;
  }
  // Long edge: the first point, the pair around each crossing of a column centre (5n+2 | 5n+3), the last
  // point. u(t) is monotone in t; the crossing is estimated from the line and settled by evaluating u exactly.
  point(uAt(0), vAt(0));
  const s = slope[0];
  const uA = cInt(xs + 0.5); // u at t = 0 and t = D, in t order
  const uB = cInt(xs + s * D + 0.5);
  if (uA !== uB) {
    const up = uB > uA;
    const lo = up ? uA : uB;
    const hi = up ? uB : uA;
    const nMin = Math.max(0, Math.ceil((lo - 3) / SCALE));
    const nMax = Math.min(Math.floor((hi - 2) / SCALE), WM1);
    let last = 0;
    for (let i = 0; i <= nMax - nMin; i++) {
      const c = SCALE * (up ? nMin + i : nMax - i) + 2;
      // first t in [1, D] with u(t) >= c+1 (rising) or u(t) <= c (falling)
      let t = Math.round((c + 0.5 - xs) / s);
      t = t < 1 ? 1 : t > D ? D : t;
      while (t > 1 && reached(xs, s, t - 1, c, up)) t--;
      while (t < D && !reached(xs, s, t, c, up)) t++;
      if (t <= last) continue; // visited already (a jump over two columns)
      last = t;
      const u0 = cInt(xs + s * (t - 1) + 0.5);
      const u1 = cInt(xs + s * t + 0.5);
      if (flip) pair(u1, t + ys, u0, t - 1 + ys);
      else pair(u0, t - 1 + ys, u1, t + ys);
    }
  }
  pu = uAt(D);
  pv = vAt(D);
}

function reached(xs: number, s: number, t: number, c: number, up: boolean): boolean {
  const u = cInt(xs + s * t + 0.5);
  return up ? u >= c + 1 : u <= c;
}

/** Fills `bnd` with the boundary indices of polygon xy (k points) and returns the runs (stage 3). */
function rasterise(xy: ArrayLike<number>, k: number, h: number, w: number, what: string): Rle {
  const m = rasteriseCounts(xy, k, h, w, what);
  return { h, w, counts: counted.slice(0, m) };
}

/** The array holding the counts of the last `rasteriseCounts`, at [0, m). */
let counted = bnd;

/** rasterise's counts, left at counted[0 … m); returns m. */
function rasteriseCounts(xy: ArrayLike<number>, k: number, h: number, w: number, what: string): number {
  H = h;
  WM1 = w - 1;
  nb = 0;
  havePrev = false;
  bnd = scratchU32(1024);
  let fx = 0;
  let fy = 0;
  let lx = 0;
  let ly = 0;
  for (let j = 0; j < k; j++) {
    const x = scaled(xy[2 * j], what, 2 * j);
    const y = scaled(xy[2 * j + 1], what, 2 * j + 1);
    if (j === 0) {
      fx = x;
      fy = y;
    } else edge(lx, ly, x, y);
    lx = x;
    ly = y;
  }
  if (k > 0) edge(lx, ly, fx, fy);
  if (nb === bnd.length) bnd = scratchU32(nb + 1, bnd);
  bnd[nb++] = (h * w) >>> 0;
  const a = sortBoundaries(bnd, nb, h, w);
  // differences of the sorted indices, then the even-odd rule: a zero difference merges the next run into
  // the previous one (duplicate boundaries cancel in pairs)
  let p = 0;
  for (let j = 0; j < nb; j++) {
    const t = a[j];
    a[j] = t - p;
    p = t;
  }
  let m = 0;
  let j = 0;
  a[m++] = a[j++];
  while (j < nb) {
    if (a[j] > 0) a[m++] = a[j++];
    else {
      j++;
      if (j < nb) a[m - 1] += a[j++];
    }
  }
  counted = a;
  return m;
}

// Buffers of the bucket sort (grown when needed).
let bucket = new Uint32Array(1024);
let sorted = new Uint32Array(4096);

/**
 * The boundary indices in ascending order. They are column-major pixel indices, so they are bucketed by
 * column first (key floor(a / h), monotone in a) and the nearly sorted result is finished by insertion sort;
 * only few boundaries on an image wider than 4096 columns (where the buckets would cost more than the sort)
 * go to the general sort. One path for every polygon of a usual image: the JIT compiles it once (two paths
 * taken in turn were each compiled, then the function again when the other one was first taken).
 */
function sortBoundaries(a: Uint32Array, n: number, h: number, w: number): Uint32Array {
  if (w > 4096 && w > 4 * n) {
    sortU32(a, 0, n);
    return a;
  }
  // (ternaries, not Math.max: a growth first met in optimised code is then no property load without feedback)
  if (bucket.length < w + 2) bucket = new Uint32Array(w + 2 > 2 * bucket.length ? w + 2 : 2 * bucket.length);
  if (sorted.length < n) sorted = new Uint32Array(n > 2 * sorted.length ? n : 2 * sorted.length);
  const b = bucket;
  const out = sorted;
  // the last index is the end h·w, the largest: it stays last; the others are bucketed over the columns they
  // span (a polygon's, not the image's: the buckets cost what the boundaries do)
  const last = n - 1;
  // the column floor(a / h) as `>>> 0` (a and a / h are below 2^32 and not negative: the same integer, and no call)
  let lo = w;
  let hi = 0;
  for (let i = 0; i < last; i++) {
    const c = (a[i] / h) >>> 0;
    if (c < lo) lo = c;
    if (c > hi) hi = c;
  }
  const span = hi >= lo ? hi - lo + 1 : 0;
  b.fill(0, 0, span + 1);
  for (let i = 0; i < last; i++) b[((a[i] / h) >>> 0) - lo + 1]++;
  for (let k = 1; k <= span; k++) b[k] += b[k - 1];
  for (let i = 0; i < last; i++) out[b[((a[i] / h) >>> 0) - lo]++] = a[i];
  out[last] = a[last];
  for (let i = 1; i < n; i++) {
    const v = out[i];
    let j = i - 1;
    while (j >= 0 && out[j] > v) {
      out[j + 1] = out[j];
      j--;
    }
    out[j + 1] = v;
  }
  return out;
}

/** Polygons need an image of at least 1×1: on an empty one pycocotools makes counts that do not sum to h·w. */
function checkImage(h: number, w: number): void {
  checkSize(h, w);
  if (h === 0 || w === 0) {
    throw new RleError('size', 'cannot rasterise a polygon or box in an empty image', { expected: 'h >= 1 and w >= 1', found: `h=${h}, w=${w}` });
  }
}

function scaled(v: number, what: string, i: number): number {
  const s = SCALE * v + 0.5;
  if (!(s > -COORD_LIMIT && s < COORD_LIMIT)) {
    throw new RleError('polygon-coordinate', `${what} coordinate ${i} is out of range`, {
      expected: `a finite number within ±${(COORD_LIMIT - 1) / SCALE}`,
      found: show(v),
      position: i,
    });
  }
  return cInt(s);
}

/**
 * The RLE of one polygon [x0, y0, x1, y1, …] (pixel coordinates, pixel centres at integers) in an h×w
 * mask: pycocotools `rleFrPoly` with k = floor(length / 2) points (an odd last number is ignored).
 * Fewer than 2 points give an empty mask. Throws RleError 'size' for an image with h or w = 0, and RleError 'polygon-coordinate' for a coordinate that is
 * not finite or beyond ±2^30/5 (where pycocotools' int arithmetic overflows).
 */
export function fromPolygon(xy: ArrayLike<number>, h: number, w: number): Rle {
  checkImage(h, w);
  return rasterise(xy, Math.floor(xy.length / 2), h, w, 'polygon');
}

/**
 * `fromPolygon` of the polygon xy[0 … n) (k = floor(n / 2) points; xy may be longer), its counts appended to
 * `packed`: returns how many (no RLE object, no array of its own). The same counts and errors.
 */
export function fromPolygonPacked(xy: ArrayLike<number>, n: number, h: number, w: number, packed: PackedCounts): number {
  checkImage(h, w);
  const m = rasteriseCounts(xy, Math.floor(n / 2), h, w, 'polygon');
  const base = packed.length;
  const to = packed.room(m);
  const from = counted;
  for (let j = 0; j < m; j++) to[base + j] = from[j];
  packed.length = base + m;
  return m;
}

/**
 * One RLE per polygon, as pycocotools `frPyObjects(polygons, h, w)`: the list must not be empty and its
 * first polygon must have more than 4 numbers (pycocotools raises otherwise: 4 numbers are taken for a
 * box); later polygons may have any length. The object's mask is `merge(fromPolygons(…))` (union).
 */
export function fromPolygons(polys: readonly ArrayLike<number>[], h: number, w: number): Rle[] {
  checkImage(h, w);
  if (polys.length === 0) throw new RleError('polygon-list-empty', 'empty polygon list', { expected: 'at least one polygon', found: '[]' });
  if (polys[0].length <= 4) {
    throw new RleError('polygon-too-short', 'first polygon has 4 numbers or fewer', {
      expected: 'a polygon of at least 3 points (6 numbers)',
      found: show(polys[0]),
      position: 0,
    });
  }
  const out: Rle[] = new Array(polys.length);
  for (let i = 0; i < polys.length; i++) out[i] = rasterise(polys[i], Math.floor(polys[i].length / 2), h, w, `polygon ${i}`);
  return out;
}

/** The RLE of box [x, y, w, h] (pycocotools `rleFrBbox`: the polygon (x,y) (x,y+h) (x+w,y+h) (x+w,y)). */
export function fromBox(box: ArrayLike<number>, h: number, w: number): Rle {
  checkImage(h, w);
  if (box.length !== 4) throw new RleError('box', 'a box is not 4 numbers', { expected: '[x, y, width, height]', found: show(box) });
  const xs = box[0];
  const xe = xs + box[2];
  const ys = box[1];
  const ye = ys + box[3];
  return rasterise([xs, ys, xs, ye, xe, ye, xe, ys], 4, h, w, 'box');
}

/** One RLE per box (pycocotools `frBbox`). */
export function fromBoxes(boxes: readonly ArrayLike<number>[], h: number, w: number): Rle[] {
  return boxes.map((b) => fromBox(b, h, w));
}
