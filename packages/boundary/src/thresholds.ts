/**
 * Thresholds of evaluate_bdry.m: `linspace(1/(nthresh+1), 1-1/(nthresh+1), nthresh)` computed with
 * MATLAB's own linspace formula (`d1 + (0:n1).*(d2-d1)./n1`, left to right, then both ends set exactly).
 */
export function matlabLinspace(d1: number, d2: number, n: number): Float64Array {
  const count = Math.max(0, Math.floor(n));
  const y = new Float64Array(count);
  if (count === 0) return y;
  if (count === 1) {
    y[0] = d2;
    return y;
  }
  const n1 = count - 1;
  const delta = d2 - d1;
  for (let k = 0; k <= n1; k++) y[k] = d1 + (k * delta) / n1;
  y[0] = d1;
  y[n1] = d2;
  return y;
}

/** MATLAB `linspace(1/(n+1), 1-1/(n+1), n)` (default n = 99: 0.01 … 0.99). */
export function boundaryThresholds(nthresh = 99): Float64Array {
  if (!Number.isInteger(nthresh) || nthresh < 1) {
    throw new RangeError(`nthresh must be a positive integer, got ${nthresh}`);
  }
  return matlabLinspace(1 / (nthresh + 1), 1 - 1 / (nthresh + 1), nthresh);
}

/**
 * uint8 cut-offs: a prediction value v (0..255, meaning v/255) passes threshold t iff `v >= minValue[t]`,
 * which is exactly `v/255 >= thresh[t]` in double arithmetic. A threshold no uint8 value reaches
 * (thresh > 1) gets 256 — it cannot be stored in a Uint8Array, so such thresholds are rejected.
 */
export function thresholdCutoffs(thresholds: Float64Array): Uint8Array {
  const out = new Uint8Array(thresholds.length);
  for (let t = 0; t < thresholds.length; t++) {
    const th = thresholds[t];
    let v = 0;
    while (v <= 255 && !(v / 255 >= th)) v++;
    if (v > 255) throw new RangeError(`threshold ${th} is above 1: no uint8 prediction value can pass it`);
    out[t] = v;
  }
  return out;
}

/** MATLAB's colon range `a:step:b` for a positive step (the symmetric algorithm MATLAB uses). */
export function matlabColon(a: number, step: number, b: number): Float64Array {
  if (!(step > 0) || b < a) return new Float64Array(0);
  const dn = (b - a) / step;
  const tol = 2.220446049250313e-16 * Math.max(Math.abs(a), Math.abs(b));
  let n = Math.floor(dn + tol / step);
  if (n < 0) n = 0;
  // MATLAB uses the exact end point when a + n*step is within tolerance of b.
  const last = Math.abs(a + n * step - b) < tol + 1e-12 * Math.abs(step) ? b : a + n * step;
  const out = new Float64Array(n + 1);
  const half = Math.floor(n / 2);
  for (let k = 0; k <= half; k++) out[k] = a + k * step;
  for (let k = 0; k <= half; k++) out[n - k] = last - k * step;
  if (n % 2 === 0) out[half] = (a + last) / 2;
  return out;
}
