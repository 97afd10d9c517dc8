/**
 * Thinning a curve for display without changing its drawn shape.
 *
 * A report keeps every point of a curve (VOC det `large` has ~5 k points per class, ILSVRC real ~100 k);
 * a chart does not need them: points closer to the drawn polyline than a fraction of a pixel are
 * invisible. This is the Ramer–Douglas–Peucker simplification in the chart's unit square (both axes
 * 0–1), with a tolerance far below a pixel at any size a chart is drawn (default 1/4000 of the axis:
 * 0.1 px on a 400 px axis, 0.5 px on a 2000 px one). Points that are not finite (a precision of 0/0
 * before the first detection) are not drawn by a line mark either, so they are left out.
 * When the simplified curve still has more than `maxPoints`, the tolerance is doubled until it fits.
 *
 * A coarser thinning can start from a finer one (`among`): every point the fine pass dropped lies within
 * its tolerance of a fine segment, and every fine segment lies within the coarse tolerance of the coarse
 * segment spanning it (both ends do, and the distance to a segment is convex), so the two tolerances add
 * up. The small multiples of the PR charts are thinned this way from the overlay's points.
 */
export interface ThinOptions {
  /** Maximum distance (in axis units, both axes spanning 1) of a dropped point from the kept polyline. */
  tolerance?: number;
  /** Upper bound on the number of points kept. */
  maxPoints?: number;
  /** The candidate points (indices in ascending order, e.g. a finer thinning of the same curve); default every point. */
  among?: readonly number[];
}

export const DEFAULT_THIN_TOLERANCE = 1 / 4000;
export const DEFAULT_MAX_POINTS = 2000;

/** Indices of the points kept, in order (first and last finite points always kept). */
export function thinCurveIndices(x: ArrayLike<number | null>, y: ArrayLike<number | null>, options: ThinOptions = {}): number[] {
  const finite = candidates(x, y, options.among);
  const maxPoints = Math.max(2, options.maxPoints ?? DEFAULT_MAX_POINTS);
  let tolerance = options.tolerance ?? DEFAULT_THIN_TOLERANCE;
  let kept = simplify(x as ArrayLike<number>, y as ArrayLike<number>, finite, tolerance);
  while (kept.length > maxPoints) {
    tolerance *= 2;
    kept = simplify(x as ArrayLike<number>, y as ArrayLike<number>, kept, tolerance);
  }
  return kept;
}

/**
 * The points the simplification starts from, in order: the finite ones (of `among`, or all), without
 * those that cannot change its result: a repeat of the point before, and a point between its neighbours
 * on a vertical or horizontal run (most points of a PR curve: each false positive lowers the precision at
 * the same recall; exact comparisons). The last finite point is kept even where it is a repeat.
 *
 * Why the result is the same: each dropped point lies on the segment between two consecutive points left
 * (a run dropped in several steps stays on one line, each new end beyond the last; a repeat lies at the
 * start of the segment after it), so the tolerance holds for it. Along a segment, the distance to a chord
 * (a convex function) is largest at an end, so the farthest point of every step is still among the points
 * left; where a dropped point ties with the farthest, it is either inside the segment, and then both ends
 * tie and the first, which is kept, is chosen as before, or at the segment's start, a point before it that
 * is kept and chosen first.
 *
 * One loop over up to millions of points, run once per curve and mostly before V8 optimises it: the tests
 * are written out, with no call per point.
 */
function candidates(x: ArrayLike<number | null>, y: ArrayLike<number | null>, among: readonly number[] | undefined): number[] {
  const out: number[] = [];
  const n = Math.min(x.length, y.length);
  const count = among === undefined ? n : among.length;
  let last = -1;
  // the last two points kept, and their coordinates
  let a = -1;
  let ax = 0;
  let ay = 0;
  let b = -1;
  let bx = 0;
  let by = 0;
  for (let k = 0; k < count; k++) {
    const i = among === undefined ? k : among[k];
    if (i >= n) break;
    const xi = x[i];
    const yi = y[i];
    // finite numbers only (null, NaN and ±Infinity fail `v - v === 0`)
    if (typeof xi !== 'number' || typeof yi !== 'number' || xi - xi !== 0 || yi - yi !== 0) continue;
    last = i;
    if (b >= 0 && xi === bx && yi === by) continue;
    if (a >= 0 && ((ax === bx && bx === xi && ((ay <= by && by <= yi) || (ay >= by && by >= yi))) || (ay === by && by === yi && ((ax <= bx && bx <= xi) || (ax >= bx && bx >= xi))))) {
      // b lies on the segment from a to this point: this point takes its place
      out[out.length - 1] = i;
    } else {
      out.push(i);
      a = b;
      ax = bx;
      ay = by;
    }
    b = i;
    bx = xi;
    by = yi;
  }
  if (last >= 0 && out[out.length - 1] !== last) out.push(last);
  return out;
}

/** The thinned curve as `[x, y]` pairs. */
export function thinCurve(x: ArrayLike<number | null>, y: ArrayLike<number | null>, options: ThinOptions = {}): Array<[number, number]> {
  return thinCurveIndices(x, y, options).map((i) => [x[i] as number, y[i] as number]);
}

/**
 * Ramer–Douglas–Peucker over the points `idx` (an explicit stack, no recursion: a 100 k point curve
 * would overflow the call stack). Hot loop over plain arrays, kept in one function on purpose.
 */
function simplify(x: ArrayLike<number>, y: ArrayLike<number>, idx: number[], tolerance: number): number[] {
  const m = idx.length;
  if (m <= 2) return idx.slice();
  const keep = new Uint8Array(m);
  keep[0] = 1;
  keep[m - 1] = 1;
  const tol2 = tolerance * tolerance;
  const stack: number[] = [0, m - 1];
  while (stack.length > 0) {
    const b = stack.pop()!;
    const a = stack.pop()!;
    if (b - a < 2) continue;
    const ax = x[idx[a]];
    const ay = y[idx[a]];
    const dx = x[idx[b]] - ax;
    const dy = y[idx[b]] - ay;
    const len2 = dx * dx + dy * dy;
    let worst = -1;
    let worstD = tol2;
    for (let k = a + 1; k < b; k++) {
      const px = x[idx[k]] - ax;
      const py = y[idx[k]] - ay;
      let d2: number;
      if (len2 === 0) d2 = px * px + py * py;
      else {
        // distance to the segment (not the infinite line): a curve that turns back keeps its turning point
        const t = Math.max(0, Math.min(1, (px * dx + py * dy) / len2));
        const ex = px - t * dx;
        const ey = py - t * dy;
        d2 = ex * ex + ey * ey;
      }
      if (d2 > worstD) {
        worstD = d2;
        worst = k;
      }
    }
    if (worst >= 0) {
      keep[worst] = 1;
      stack.push(a, worst, worst, b);
    }
  }
  const out: number[] = [];
  for (let k = 0; k < m; k++) if (keep[k]) out.push(idx[k]);
  return out;
}
