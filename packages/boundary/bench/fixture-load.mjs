// Loads fixture units for benches/profiling (dist builds only).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';
import { readMatFileSync } from '@cvdevkit/matfile';

export const FIXTURES = process.env.ADE_FIXTURES ?? fileURLToPath(new URL('../../../fixtures/ade20k', import.meta.url));

export function loadPrediction(name, cls, image) {
  const file = join(FIXTURES, name, 'predictions_boundary', 'validation', `class_${String(cls).padStart(3, '0')}`, `${image}.png`);
  const png = PNG.sync.read(readFileSync(file));
  const data = new Uint8Array(png.width * png.height);
  for (let i = 0; i < data.length; i++) data[i] = png.data[4 * i];
  return { data, height: png.height, width: png.width };
}

export function loadGroundTruth(name, image, cls) {
  const vars = readMatFileSync(join(FIXTURES, name, 'annotations_boundary', 'validation', `${image}.mat`));
  const v = vars.gt.get(0, 'bdry').cells[cls - 1];
  const [h, w] = v.dims;
  const mask = new Uint8Array(h * w);
  for (let c = 0; c < w; c++) for (let k = v.jc[c]; k < v.jc[c + 1]; k++) if (v.data[k] !== 0) mask[v.ir[k] * w + c] = 1;
  return mask;
}
