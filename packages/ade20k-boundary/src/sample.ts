import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { ADE20K_CLASS_COUNT, classKey } from './classes.js';
import { DEFAULT_SEED } from '@cvdevkit/boundary';
import { sparseFromMask } from '@cvdevkit/matfile';
import { writeBoundaryMat } from './ground-truth.js';
import type { Ade20kBoundaryOptions } from './options.js';

/** A small deterministic generator (32-bit LCG, Numerical Recipes constants). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Row-major greyscale PNG bytes (8-bit, colour type 0). */
export function greyPng(values: Uint8Array, height: number, width: number): Buffer {
  const png = new PNG({ width, height, colorType: 0, inputColorType: 0, bitDepth: 8, inputHasAlpha: false });
  png.data = Buffer.from(values.buffer, values.byteOffset, values.byteLength);
  return PNG.sync.write(png, { colorType: 0, inputColorType: 0, bitDepth: 8, inputHasAlpha: false });
}

interface SampleImage {
  name: string;
  height: number;
  width: number;
  /** class → GT mask, and the prediction drawn from it */
  classes: { cls: number; style: 'good' | 'blurry' | 'shifted' | 'falsepos' }[];
}

const IMAGES: SampleImage[] = [
  { name: 'ADE_val_00000001', height: 64, width: 96, classes: [{ cls: 1, style: 'blurry' }, { cls: 3, style: 'good' }, { cls: 13, style: 'shifted' }, { cls: 30, style: 'falsepos' }] },
  { name: 'ADE_val_00000002', height: 64, width: 96, classes: [{ cls: 1, style: 'good' }, { cls: 5, style: 'blurry' }, { cls: 13, style: 'good' }] },
];

/** A closed polygon-ish boundary: the outline of a random axis-aligned rectangle plus a diagonal. */
function drawGt(h: number, w: number, rand: () => number): Uint8Array {
  const m = new Uint8Array(h * w);
  const x0 = 4 + Math.floor(rand() * (w / 3));
  const y0 = 4 + Math.floor(rand() * (h / 3));
  const x1 = Math.min(w - 5, x0 + 12 + Math.floor(rand() * (w / 2)));
  const y1 = Math.min(h - 5, y0 + 10 + Math.floor(rand() * (h / 2)));
  for (let x = x0; x <= x1; x++) {
    m[y0 * w + x] = 1;
    m[y1 * w + x] = 1;
  }
  for (let y = y0; y <= y1; y++) {
    m[y * w + x0] = 1;
    m[y * w + x1] = 1;
  }
  for (let t = 0; t <= 20; t++) {
    const x = Math.round(x0 + ((x1 - x0) * t) / 20);
    const y = Math.round(y0 + ((y1 - y0) * t) / 20);
    m[y * w + x] = 1;
  }
  return m;
}

function drawPrediction(gt: Uint8Array, h: number, w: number, style: SampleImage['classes'][number]['style'], rand: () => number): Uint8Array {
  const p = new Uint8Array(h * w);
  if (style === 'falsepos') {
    for (let i = 0; i < p.length; i++) if (rand() < 0.03) p[i] = Math.floor(rand() * 200);
    return p;
  }
  const dx = style === 'shifted' ? 1 : 0;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (!gt[y * w + x]) continue;
      const tx = Math.min(w - 1, x + dx);
      const v = style === 'good' ? 160 + Math.floor(rand() * 95) : 90 + Math.floor(rand() * 120);
      p[y * w + tx] = Math.max(p[y * w + tx], v);
      if (style === 'blurry') {
        for (const [ox, oy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
          const yy = y + oy;
          const xx = tx + ox;
          if (yy >= 0 && yy < h && xx >= 0 && xx < w) p[yy * w + xx] = Math.max(p[yy * w + xx], Math.floor(v / 2));
        }
      }
    }
  }
  for (let i = 0; i < p.length; i++) if (rand() < 0.01) p[i] = Math.max(p[i], Math.floor(rand() * 120)); // noise
  return p;
}

/**
 * Writes the embedded sample under `dir` (`annotations_boundary/validation/*.mat` in `-v6`, and
 * `predictions_boundary/validation/class_001..class_150/*.png`) and returns the options that evaluate it.
 * Deterministic: the same bytes every time.
 */
export async function writeAde20kBoundarySample(dir: string): Promise<{ gt: string; pred: string }> {
  const gtDir = join(dir, 'annotations_boundary', 'validation');
  const predDir = join(dir, 'predictions_boundary', 'validation');
  mkdirSync(gtDir, { recursive: true });
  for (let c = 1; c <= ADE20K_CLASS_COUNT; c++) mkdirSync(join(predDir, classKey(c)), { recursive: true });
  const rand = lcg(20170601);
  for (const img of IMAGES) {
    const { height: h, width: w } = img;
    const masks = new Map<number, Uint8Array>();
    const preds = new Map<number, Uint8Array>();
    for (const { cls, style } of img.classes) {
      const gt = style === 'falsepos' ? new Uint8Array(h * w) : drawGt(h, w, rand);
      if (style !== 'falsepos') masks.set(cls, gt);
      preds.set(cls, drawPrediction(gt, h, w, style, rand));
    }
    const cells = Array.from({ length: ADE20K_CLASS_COUNT }, (_, i) => sparseFromMask(masks.get(i + 1) ?? new Uint8Array(h * w), h, w));
    writeFileSync(join(gtDir, `${img.name}.mat`), writeBoundaryMat(cells));
    const empty = greyPng(new Uint8Array(h * w), h, w);
    for (let c = 1; c <= ADE20K_CLASS_COUNT; c++) {
      const p = preds.get(c);
      writeFileSync(join(predDir, classKey(c), `${img.name}.png`), p ? greyPng(p, h, w) : empty);
    }
  }
  return { gt: gtDir, pred: predDir };
}

/** `sample(dir)` of the task: the sample's options (default seed). */
export async function ade20kBoundarySample(dir: string): Promise<Ade20kBoundaryOptions> {
  const paths = await writeAde20kBoundarySample(dir);
  return { ...paths, seed: DEFAULT_SEED };
}
