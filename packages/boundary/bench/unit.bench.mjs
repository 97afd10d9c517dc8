// CPU time of one (image, class) unit of evaluate_bdry at 512x683 (99 thresholds), on the built dist.
//   node bench/unit.bench.mjs
// Cases: no GT + noisy soft map (target <= 20 ms), GT present (target <= 0.3 s median).
import { evaluateBoundary } from '../dist/index.js';
import { H, W, lcg, makeGt, makePred } from './cases.mjs';

/** CPU milliseconds (user + system) of each call: disturbed less than wall time by other work on the machine. */
function time(fn, reps) {
  const ts = [];
  for (let r = 0; r < reps; r++) {
    const c0 = process.cpuUsage();
    fn();
    const c = process.cpuUsage(c0);
    ts.push((c.user + c.system) / 1000);
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
console.log(`unit 512x683, no GT, noisy soft map (5% pixels < 40/255): median ${a.median.toFixed(1)} ms CPU (min ${a.min.toFixed(1)}), target <= 20 ms`);
console.log(`unit 512x683, GT ${gtPixels} px, soft prediction + 1% noise:   median ${b.median.toFixed(1)} ms CPU (min ${b.min.toFixed(1)}), target <= 300 ms`);
