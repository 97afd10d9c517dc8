/** C `fmin` / `fmax`: a NaN operand is ignored (JavaScript's Math.min/max would propagate it). */
function fmin(a: number, b: number): number {
  if (a !== a) return b;
  if (b !== b) return a;
  return a < b ? a : b;
}
function fmax(a: number, b: number): number {
  if (a !== a) return b;
  if (b !== b) return a;
  return a > b ? a : b;
}

/**
 * pycocotools' `bbIou` (maskApi.c): IoU of a detection box and a GT box, both `[x, y, w, h]` at
 * `d` / `g` in their arrays; for a crowd GT the union is the detection's area. No +1 convention.
 */
export function boxIou(dt: ArrayLike<number>, d: number, gt: ArrayLike<number>, g: number, crowd: boolean): number {
  const d0 = dt[d], d1 = dt[d + 1], d2 = dt[d + 2], d3 = dt[d + 3];
  const g0 = gt[g], g1 = gt[g + 1], g2 = gt[g + 2], g3 = gt[g + 3];
  const w = fmin(d2 + d0, g2 + g0) - fmax(d0, g0);
  if (w <= 0) return 0;
  const h = fmin(d3 + d1, g3 + g1) - fmax(d1, g1);
  if (h <= 0) return 0;
  const i = w * h;
  const da = d2 * d3;
  const u = crowd ? da : da + g2 * g3 - i;
  return i / u;
}
