import { pairwiseSum } from './pairwise-sum.js';

const SPACING_1 = 2 ** -52;

/** `(sigmas * 2) ** 2` elementwise, as computeOks builds `vars`. */
export function oksVars(sigmas: Float64Array): Float64Array {
  return sigmas.map((s) => {
    const t = s * 2;
    return t * t;
  });
}

/**
 * pycocotools' `computeOks` for one (detection, GT) pair (E:192-233): float64 arithmetic in numpy's
 * order, `e = (dx² + dy²) / vars / (area + 2^-52) / 2`, over the visible GT keypoints, or over all of
 * them measured to the GT box enlarged by its size on each side when none is visible; the mean of
 * `exp(-e)` through numpy's pairwise sum. `gtBox` is `[x, y, w, h]` at offset `b`.
 */
export function oks(dt: ArrayLike<number>, gt: ArrayLike<number>, gtBox: ArrayLike<number>, b: number, gtArea: number, vars: Float64Array, scratch: Float64Array): number {
  const k = vars.length;
  let k1 = 0;
  for (let j = 0; j < k; j++) if (gt[3 * j + 2] > 0) k1++;
  const denom = gtArea + SPACING_1;
  let n = 0;
  if (k1 > 0) {
    for (let j = 0; j < k; j++) {
      if (!(gt[3 * j + 2] > 0)) continue;
      const dx = dt[3 * j] - gt[3 * j];
      const dy = dt[3 * j + 1] - gt[3 * j + 1];
      scratch[n++] = Math.exp(-((dx * dx + dy * dy) / vars[j] / denom / 2));
    }
  } else {
    const bx = gtBox[b], by = gtBox[b + 1], bw = gtBox[b + 2], bh = gtBox[b + 3];
    const x0 = bx - bw, x1 = bx + bw * 2, y0 = by - bh, y1 = by + bh * 2;
    for (let j = 0; j < k; j++) {
      const xd = dt[3 * j];
      const yd = dt[3 * j + 1];
      const dx = npMax0(x0 - xd) + npMax0(xd - x1);
      const dy = npMax0(y0 - yd) + npMax0(yd - y1);
      scratch[n++] = Math.exp(-((dx * dx + dy * dy) / vars[j] / denom / 2));
    }
  }
  return pairwiseSum(scratch, 0, n) / n;
}

/** `np.max((0, v), axis=0)`: NaN propagates. */
function npMax0(v: number): number {
  if (v !== v) return v;
  return v > 0 ? v : 0;
}
