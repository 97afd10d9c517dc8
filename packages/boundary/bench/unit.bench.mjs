// Speed of one (image, class) unit of evaluate_bdry at 512x683 (99 thresholds), on the built dist.
//   node bench/unit.bench.mjs
// Cases: no GT + noisy soft map (target <= 20 ms), GT present (target <= 0.3 s median).
import { evaluateBoundary } from '../dist/index.js';

const H = 512;
const W = 683;

function lcg(seed) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296);
}

/** A boundary map: a few curves (circles, lines) drawn 1 px wide. */
function makeGt(rand) {
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

/** A soft prediction: blurred, shifted GT (ramp ±2 px) plus sparse low noise. */
function makePred(gt, rand, noise) {
  const pred = new Uint8Array(H * W);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      if (!gt[y * W + x]) continue;
      for (let dy = -2; dy <= 2; dy++) {
        for (let dx = -2; dx <= 2; dx++) {
          const yy = y + dy + 1;
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

function time(fn, reps) {
  const ts = [];
  for (let r = 0; r < reps; r++) {
    const t0 = performance.now();
    fn();
    ts.push(performance.now() - t0);
  }
  ts.sort((a, b) => a - b);
  return { median: ts[Math.floor(ts.length / 2)], min: ts[0] };
}

const rand = lcg(42);
const noisy = new Uint8Array(H * W);
for (let i = 0; i < noisy.length; i++) if (rand() < 0.05) noisy[i] = Math.floor(rand() * 40);
const gt = makeGt(rand);
const pred = makePred(gt, rand, 0.01);
const gtPixels = gt.reduce((s, v) => s + v, 0);

evaluateBoundary(noisy, null, H, W); // warm-up
evaluateBoundary(pred, gt, H, W);
const a = time(() => evaluateBoundary(noisy, null, H, W), 15);
const b = time(() => evaluateBoundary(pred, gt, H, W), 5);
console.log(`unit 512x683, no GT, noisy soft map (5% pixels < 40/255): median ${a.median.toFixed(1)} ms (min ${a.min.toFixed(1)}), target <= 20 ms`);
console.log(`unit 512x683, GT ${gtPixels} px, soft prediction + 1% noise:   median ${b.median.toFixed(1)} ms (min ${b.min.toFixed(1)}), target <= 300 ms`);
