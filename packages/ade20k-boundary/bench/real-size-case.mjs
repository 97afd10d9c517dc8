// The ADE20K benchmark case at the dataset's real image size (512x683 landscape, 683x512 portrait) with the
// statistics of the `medium` fixture (bench/README.md states them): every medium image resampled to the real size
// (its ground truth redrawn as 1-px curves through the scaled pixel centres, its 150 predictions resampled
// bilinearly, 0/255-only maps by nearest neighbour), plus the mirror image of each (new pixel order, new random
// outlier graphs). Same classes per image, same prediction styles, boundary lengths scaled with the image (x2).
//   node bench/real-size-case.mjs [outDir] [images]      (default: $TMPDIR/cvdevkit-ade20k-real-size, 6 images)
// Written once; a second call with the same arguments reuses the folder. Used by bench/real-size.bench.mjs.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sparseFromMask } from '@cvdevkit/matfile';
import { readGroundTruth, writeBoundaryMat } from '../dist/ground-truth.js';
import { readPrediction } from '../dist/prediction.js';
import { greyPng } from '../dist/sample.js';

const MEDIUM = fileURLToPath(new URL('../../../fixtures/ade20k/medium', import.meta.url));
/** The real ADE20K validation size (landscape; a portrait source becomes 683x512). */
const LONG = 683;
const SHORT = 512;

function targetSize(h, w) {
  return h <= w ? [SHORT, LONG] : [LONG, SHORT];
}

/** A line of 1-px steps (8-connected) from (y0, x0) to (y1, x1), both rounded. */
function drawLine(mask, W, y0, x0, y1, x1) {
  const n = Math.max(1, Math.ceil(Math.max(Math.abs(y1 - y0), Math.abs(x1 - x0))));
  for (let s = 0; s <= n; s++) {
    const y = Math.round(y0 + ((y1 - y0) * s) / n);
    const x = Math.round(x0 + ((x1 - x0) * s) / n);
    mask[y * W + x] = 1;
  }
}

/** The GT mask at the new size: every pair of 8-neighbour GT pixels becomes a line between their scaled centres. */
function resampleGt(mask, h, w, H, W, mirror) {
  const out = new Uint8Array(H * W);
  const sy = (H - 1) / (h - 1);
  const sx = (W - 1) / (w - 1);
  const X = (x) => (mirror ? w - 1 - x : x) * sx;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (!mask[y * w + x]) continue;
      out[Math.round(y * sy) * W + Math.round(X(x))] = 1;
      for (const [dy, dx] of [[0, 1], [1, -1], [1, 0], [1, 1]]) {
        const yy = y + dy;
        const xx = x + dx;
        if (yy < h && xx >= 0 && xx < w && mask[yy * w + xx]) drawLine(out, W, y * sy, X(x), yy * sy, X(xx));
      }
    }
  }
  return out;
}

/** The prediction at the new size: bilinear (nearest for a 0/255-only map, to keep it hard). */
function resamplePred(p, h, w, H, W, mirror) {
  const out = new Uint8Array(H * W);
  let hard = true;
  for (let i = 0; i < p.length && hard; i++) hard = p[i] === 0 || p[i] === 255;
  const sy = (h - 1) / (H - 1);
  const sx = (w - 1) / (W - 1);
  for (let Y = 0; Y < H; Y++) {
    const fy = Y * sy;
    const y0 = Math.floor(fy);
    const y1 = Math.min(h - 1, y0 + 1);
    const ty = fy - y0;
    for (let X = 0; X < W; X++) {
      let fx = X * sx;
      if (mirror) fx = w - 1 - fx;
      if (hard) {
        out[Y * W + X] = p[Math.round(fy) * w + Math.round(fx)];
        continue;
      }
      const x0 = Math.floor(fx);
      const x1 = Math.min(w - 1, x0 + 1);
      const tx = fx - x0;
      const v = (1 - ty) * ((1 - tx) * p[y0 * w + x0] + tx * p[y0 * w + x1]) + ty * ((1 - tx) * p[y1 * w + x0] + tx * p[y1 * w + x1]);
      out[Y * W + X] = Math.round(v);
    }
  }
  return out;
}

/** Writes the case (if not there yet) and returns its folders. */
export function makeRealSizeCase(outDir = join(tmpdir(), 'cvdevkit-ade20k-real-size'), images = 6) {
  const gtDir = join(outDir, 'annotations_boundary/validation');
  const predDir = join(outDir, 'predictions_boundary/validation');
  const doneFile = join(outDir, `done-${images}`);
  if (existsSync(doneFile)) return { gtDir, predDir, stats: JSON.parse(readFileSync(doneFile, 'utf8')) };
  mkdirSync(gtDir, { recursive: true });
  for (let c = 1; c <= 150; c++) mkdirSync(join(predDir, `class_${String(c).padStart(3, '0')}`), { recursive: true });
  const sources = readdirSync(join(MEDIUM, 'annotations_boundary/validation')).map((f) => f.replace(/\.mat$/, '')).sort();
  const stats = { images: [], gtPixels: [], predictedNoGt: 0 };
  for (let i = 0; i < images; i++) {
    const src = sources[i % sources.length];
    const mirror = Math.floor(i / sources.length) % 2 === 1;
    const name = `ADE_val_${String(i + 1).padStart(8, '0')}`;
    const gt = readGroundTruth(join(MEDIUM, 'annotations_boundary/validation', `${src}.mat`));
    const [H, W] = targetSize(gt.height, gt.width);
    const cells = [];
    const gtClasses = [];
    for (let c = 1; c <= 150; c++) {
      const m = gt.mask(c);
      const big = m ? resampleGt(m, gt.height, gt.width, H, W, mirror) : new Uint8Array(H * W);
      if (m) {
        let n = 0;
        for (const v of big) n += v;
        gtClasses.push(c);
        stats.gtPixels.push(n);
      }
      cells.push(sparseFromMask(big, H, W));
      const file = join(MEDIUM, 'predictions_boundary/validation', `class_${String(c).padStart(3, '0')}`, `${src}.png`);
      const p = readPrediction(file, file).map.data;
      const hasPred = p.some((v) => v !== 0);
      if (hasPred && !m) stats.predictedNoGt++;
      const bigPred = hasPred ? resamplePred(p, gt.height, gt.width, H, W, mirror) : new Uint8Array(H * W);
      writeFileSync(join(predDir, `class_${String(c).padStart(3, '0')}`, `${name}.png`), greyPng(bigPred, H, W));
    }
    writeFileSync(join(gtDir, `${name}.mat`), writeBoundaryMat(cells));
    stats.images.push({ name, from: src, mirror, size: `${H}x${W}`, gtClasses });
  }
  writeFileSync(doneFile, JSON.stringify(stats));
  return { gtDir, predDir, stats };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { gtDir, stats } = makeRealSizeCase(process.argv[2], process.argv[3] ? Number(process.argv[3]) : undefined);
  console.log(`written: ${gtDir} (and predictions_boundary/validation)`);
  console.log(JSON.stringify(stats, null, 1));
}
