// The synthetic 512x683 units of the boundary benches: a few 1-px circles as the ground truth, and a blurred,
// shifted copy of it with sparse low noise as the soft prediction (uint8, v/255).
export const H = 512;
export const W = 683;

/** A 32-bit LCG in [0, 1). */
export function lcg(seed) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296);
}

/** A boundary map: a few curves (circles) drawn 1 px wide. */
export function makeGt(rand) {
  const gt = new Uint8Array(H * W);
  for (let c = 0; c < 6; c++) {
    const cx = 60 + rand() * (W - 120);
    const cy = 60 + rand() * (H - 120);
    const r = 20 + rand() * 80;
    for (let a = 0; a < 2 * Math.PI; a += 0.3 / r) {
      const x = Math.round(cx + r * Math.cos(a));
      const y = Math.round(cy + r * Math.sin(a));
      if (x >= 0 && x < W && y >= 0 && y < H) gt[y * W + x] = 1;
    }
  }
  return gt;
}

/** A soft prediction: the GT blurred (ramp ±2 px), moved down by `shift` rows, plus sparse low noise. */
export function makePred(gt, rand, noise, shift = 1) {
  const pred = new Uint8Array(H * W);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      if (!gt[y * W + x]) continue;
      for (let dy = -2; dy <= 2; dy++) {
        for (let dx = -2; dx <= 2; dx++) {
          const yy = y + dy + shift;
          const xx = x + dx;
          if (yy < 0 || yy >= H || xx < 0 || xx >= W) continue;
          const v = Math.max(0, 230 - 60 * Math.hypot(dx, dy) - rand() * 40);
          if (v > pred[yy * W + xx]) pred[yy * W + xx] = v;
        }
      }
    }
  }
  for (let i = 0; i < pred.length; i++) if (rand() < noise) pred[i] = Math.max(pred[i], Math.floor(rand() * 60));
  return pred;
}
