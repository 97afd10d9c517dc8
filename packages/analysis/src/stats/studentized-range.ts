import { normalCdf, normalPdf } from './distributions.js';

/** Gauss–Legendre nodes and weights on [-1, 1] (Newton on P_n; Golub–Welsch would do as well). */
function gaussLegendre(n: number): { x: Float64Array; w: Float64Array } {
  const x = new Float64Array(n);
  const w = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let z = Math.cos((Math.PI * (i + 0.75)) / (n + 0.5));
    let dp = 0;
    for (let iter = 0; iter < 100; iter++) {
      let p0 = 1;
      let p1 = z;
      for (let j = 2; j <= n; j++) {
        const p2 = ((2 * j - 1) * z * p1 - (j - 1) * p0) / j;
        p0 = p1;
        p1 = p2;
      }
      dp = (n * (z * p1 - p0)) / (z * z - 1);
      const dz = p1 / dp;
      z -= dz;
      if (Math.abs(dz) < 1e-16) break;
    }
    x[i] = z;
    w[i] = 2 / ((1 - z * z) * dp * dp);
  }
  return { x, w };
}

const GL = gaussLegendre(20);
/** Integration range and panel width for z: φ(z) < 1e-21 beyond ±10. */
const Z_MIN = -10;
const Z_MAX = 10;
const PANEL = 0.5;

/**
 * CDF of the studentized range of k standard normals with infinite degrees of freedom:
 * `P(Q ≤ q) = k ∫ φ(z) [Φ(z + q) − Φ(z)]^{k−1} dz`, by composite 20-point Gauss–Legendre on panels of
 * width 0.5 over [−10, 10] (absolute error far below 1e-13 for k ≤ 100).
 */
export function studentizedRangeCdf(q: number, k: number): number {
  if (!(k >= 2) || !Number.isInteger(k)) throw new RangeError(`k must be an integer >= 2, got ${k}`);
  if (Number.isNaN(q)) return NaN;
  if (q <= 0) return 0;
  if (q === Infinity) return 1;
  let total = 0;
  for (let a = Z_MIN; a < Z_MAX; a += PANEL) {
    const mid = a + PANEL / 2;
    let s = 0;
    for (let i = 0; i < GL.x.length; i++) {
      const z = mid + (PANEL / 2) * GL.x[i];
      const inner = normalCdf(z + q) - normalCdf(z);
      s += GL.w[i] * normalPdf(z) * Math.pow(inner, k - 1);
    }
    total += (s * PANEL) / 2;
  }
  return Math.min(1, k * total);
}

/**
 * Quantile of the studentized range with infinite degrees of freedom (R `qtukey(p, k, Inf)`, scipy
 * `studentized_range.ppf(p, k, inf)`): bisection on `studentizedRangeCdf` to 1e-13.
 */
export function studentizedRangeQuantile(p: number, k: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`p must lie in (0, 1), got ${p}`);
  let lo = 0;
  let hi = 1;
  while (studentizedRangeCdf(hi, k) < p) hi *= 2;
  while (hi - lo > 1e-13 * hi) {
    const mid = (lo + hi) / 2;
    if (studentizedRangeCdf(mid, k) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}
