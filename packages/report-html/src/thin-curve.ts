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
  const finite: number[] = [];
  const n = Math.min(x.length, y.length);
  const among = options.among;
  const count = among === undefined ? n : among.length;
  let last = -1;
  for (let k = 0; k < count; k++) {
    const i = among === undefined ? k : among[k];
    if (i >= n) break;
    const xi = x[i];
    const yi = y[i];
    if (typeof xi !== 'number' || typeof yi !== 'number' || !Number.isFinite(xi) || !Number.isFinite(yi)) continue;
    last = i;
    // Points that cannot change the result are dropped here at once (see `onAxisRun`): a repeat of the
    // point before, and a point between its neighbours on a vertical or horizontal run (most points of a
    // PR curve: each false positive lowers the precision at the same recall).
    const m = finite.length;
    if (m >= 1 && x[finite[m - 1]] === xi && y[finite[m - 1]] === yi) continue;
    if (m >= 2 && onAxisRun(x as ArrayLike<number>, y as ArrayLike<number>, finite[m - 2], finite[m - 1], i)) finite[m - 1] = i;
    else finite.push(i);
  }
  // the last point is always kept, even where it repeats the one before
  if (last >= 0 && finite[finite.length - 1] !== last) finite.push(last);
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
 * Whether point `b` lies on the segment from `a` to `c` with the three on one vertical or horizontal line
 * (exact comparisons; `b` is not at `c`, whose repeats are dropped first). Dropping such points, and
 * repeats of the point before, changes nothing in the simplification's result. Each dropped point lies
 * on the segment between two consecutive points left (a run dropped in several steps stays on one line,
 * each new end beyond the last; a repeat lies at the start of the segment after it), so the tolerance
 * holds for it. Along a segment, the distance to a chord (a convex function) is largest at an end, so the
 * farthest point of every step is still among the points left; where a dropped point ties with the
 * farthest, it is either inside the segment, and then both ends tie and the first, which is kept, is
 * chosen as before, or at the segment's start, a point before it that is kept and chosen first.
 */
function onAxisRun(x: ArrayLike<number>, y: ArrayLike<number>, a: number, b: number, c: number): boolean {
  const between = (u: number, v: number, w: number) => (u <= v && v <= w) || (u >= v && v >= w);
  if (x[a] === x[b] && x[b] === x[c]) return between(y[a], y[b], y[c]);
  if (y[a] === y[b] && y[b] === y[c]) return between(x[a], x[b], x[c]);
  return false;
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
