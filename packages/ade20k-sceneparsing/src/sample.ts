/**
 * The embedded sample (`cvdevkit demo ade20k/sceneparsing`): four small scenes written as 8-bit greyscale
 * PNGs in the release's layout (`annotations/validation`, `predictions/validation`), made by a fixed
 * generator (no download, no randomness between runs). The predictions shift region boundaries, confuse a
 * class with another and leave a few labeled pixels at 0.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureOutputDirSync } from '@cvdevkit/formats';
import { encodeGreyPng } from './grey-png.js';
import type { SceneParsingOptions } from './options.js';

interface Scene {
  width: number;
  height: number;
  /** Horizontal bands top to bottom (class, share of the height), then rectangles (class, x0, y0, x1, y1 as fractions). */
  bands: [number, number][];
  boxes: [number, number, number, number, number][];
  /** Class predicted instead of another (confusion), and the vertical shift of the predicted band edges. */
  swap: [number, number];
  shift: number;
}

const SCENES: Scene[] = [
  { width: 64, height: 48, bands: [[3, 0.35], [2, 0.3], [7, 0.35]], boxes: [[5, 0.1, 0.2, 0.3, 0.6], [13, 0.6, 0.55, 0.7, 0.9]], swap: [5, 18], shift: 2 },
  { width: 72, height: 40, bands: [[6, 0.2], [1, 0.55], [4, 0.25]], boxes: [[8, 0.15, 0.45, 0.55, 0.85], [20, 0.7, 0.3, 0.85, 0.6]], swap: [8, 20], shift: -1 },
  { width: 56, height: 56, bands: [[3, 0.3], [10, 0.4], [12, 0.3]], boxes: [[5, 0.05, 0.1, 0.25, 0.65], [21, 0.4, 0.75, 0.9, 0.95]], swap: [10, 5], shift: 3 },
  { width: 48, height: 48, bands: [[1, 0.25], [15, 0.45], [4, 0.3]], boxes: [[20, 0.55, 0.3, 0.9, 0.7], [24, 0.1, 0.5, 0.3, 0.8]], swap: [15, 11], shift: 1 },
];

function paint(s: Scene, shift: number, swap: boolean): Uint8Array {
  const out = new Uint8Array(s.width * s.height);
  for (let y = 0; y < s.height; y++) {
    let acc = 0;
    let cls = 0;
    for (const [c, share] of s.bands) {
      acc += share * s.height;
      cls = c;
      if (y + shift < acc) break;
    }
    for (let x = 0; x < s.width; x++) out[y * s.width + x] = cls;
  }
  for (const [c, x0, y0, x1, y1] of s.boxes) {
    for (let y = Math.round(y0 * s.height); y < Math.round(y1 * s.height); y++) {
      for (let x = Math.round(x0 * s.width) + (swap ? 1 : 0); x < Math.round(x1 * s.width); x++) out[y * s.width + x] = c;
    }
  }
  if (swap) for (let i = 0; i < out.length; i++) if (out[i] === s.swap[0] && i % 3 === 0) out[i] = s.swap[1];
  return out;
}

/** Writes the sample under `dir` and returns the options that evaluate it. */
export async function sceneParsingSample(dir: string): Promise<SceneParsingOptions> {
  const gt = join(dir, 'annotations', 'validation');
  const pred = join(dir, 'predictions', 'validation');
  ensureOutputDirSync(gt, 'the sample ground truth');
  ensureOutputDirSync(pred, 'the sample predictions');
  SCENES.forEach((s, i) => {
    const name = `ADE_val_${String(i + 1).padStart(8, '0')}.png`;
    const truth = paint(s, 0, false);
    // a strip of unlabeled pixels along the top of the ground truth (0 = other objects)
    for (let x = 0; x < s.width; x++) truth[x] = 0;
    const guess = paint(s, s.shift, true);
    // a few labeled pixels left at 0 in the prediction: wrong, and in no class's prediction area
    for (let k = 0; k < guess.length; k += 97) guess[k] = 0;
    writeFileSync(join(gt, name), encodeGreyPng({ width: s.width, height: s.height, data: truth }));
    writeFileSync(join(pred, name), encodeGreyPng({ width: s.width, height: s.height, data: guess }));
  });
  return { gt, pred };
}
