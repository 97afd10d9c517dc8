// Generates a larger scene parsing case (ground truth + predictions, 8-bit greyscale PNGs in the release's
// layout) from a seed: region scenes of up to 150 classes with unlabeled areas, predictions with shifted
// region edges, class swaps, spurious regions, salt noise, values 0 and above 150. For speed measurements
// and for cross-checks against the official code on cases no one has seen.
//
//   node bench/generate.mjs <dir> [--images 200] [--height 384] [--width 512] [--seed 1]
//
// Needs the package built (imports dist/).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { encodeGreyPng } from '../dist/grey-png.js';

/** mulberry32: a small seeded generator (reproducible cases). */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function generateCase(dir, { images = 200, height = 384, width = 512, seed = 1 } = {}) {
  const rnd = random(seed);
  const int = (lo, hi) => lo + Math.floor(rnd() * (hi - lo + 1));
  const gtDir = join(dir, 'annotations', 'validation');
  const predDir = join(dir, 'predictions', 'validation');
  mkdirSync(gtDir, { recursive: true });
  mkdirSync(predDir, { recursive: true });
  // a skewed class frequency, as in ADE20K (wall, floor, sky … common; most classes rare)
  const pickClass = () => Math.min(150, 1 + Math.floor(150 * rnd() ** 2.5));
  for (let i = 1; i <= images; i++) {
    const h = int(Math.ceil(height / 2), height);
    const w = int(Math.ceil(width / 2), width);
    const gt = new Uint8Array(h * w);
    const regions = int(3, 14);
    const shapes = [];
    for (let r = 0; r < regions; r++) {
      const cls = rnd() < 0.1 ? 0 : pickClass();
      const cx = rnd() * w;
      const cy = rnd() * h;
      const rx = (0.1 + rnd() * 0.6) * w;
      const ry = (0.1 + rnd() * 0.6) * h;
      shapes.push({ cls, cx, cy, rx, ry, box: rnd() < 0.5 });
    }
    const base = pickClass();
    const shift = int(-4, 4);
    const swapFrom = pickClass();
    const swapTo = rnd() < 0.2 ? int(151, 255) : pickClass();
    const pred = new Uint8Array(h * w);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        let g = base;
        let p = base;
        for (const s of shapes) {
          const inside = (dx, dy) => (s.box ? Math.abs(dx) <= s.rx / 2 && Math.abs(dy) <= s.ry / 2 : (dx * dx) / (s.rx * s.rx) + (dy * dy) / (s.ry * s.ry) <= 0.25);
          if (inside(x - s.cx, y - s.cy)) g = s.cls;
          if (inside(x + shift - s.cx, y - shift - s.cy)) p = s.cls;
        }
        gt[y * w + x] = g;
        pred[y * w + x] = p === swapFrom ? swapTo : p;
      }
    }
    // spurious region, salt noise, a few labeled pixels predicted 0
    const sx = int(0, w - 1);
    const sy = int(0, h - 1);
    const sc = pickClass();
    for (let y = sy; y < Math.min(h, sy + int(5, 60)); y++) for (let x = sx; x < Math.min(w, sx + int(5, 60)); x++) pred[y * w + x] = sc;
    const salt = rnd() * 0.002;
    for (let k = 0; k < pred.length; k++) if (rnd() < salt) pred[k] = rnd() < 0.2 ? 0 : int(1, 160);
    const name = `ADE_val_${String(i).padStart(8, '0')}.png`;
    writeFileSync(join(gtDir, name), encodeGreyPng({ width: w, height: h, data: gt }));
    writeFileSync(join(predDir, name), encodeGreyPng({ width: w, height: h, data: pred }));
  }
  return { gt: gtDir, pred: predDir };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { images: { type: 'string' }, height: { type: 'string' }, width: { type: 'string' }, seed: { type: 'string' } } });
  if (positionals.length !== 1) {
    console.error('usage: node bench/generate.mjs <dir> [--images n] [--height h] [--width w] [--seed s]');
    process.exit(1);
  }
  const opts = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, Number(v)]));
  const out = generateCase(positionals[0], opts);
  console.log(`${out.gt}\n${out.pred}`);
}
