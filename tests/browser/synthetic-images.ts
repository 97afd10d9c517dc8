/**
 * Real JPEG files standing in for a VOC `JPEGImages/` folder (the fixtures have annotations only): each
 * image has its annotated size, a soft gradient background and its objects painted as flat shapes, so a
 * crop shows the detection and ground-truth boxes over something a reader can place. Encoded by sharp.
 */
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import sharp from 'sharp';

/** Object paints, away from the boxes' orange and sky blue. */
const PAINT = [
  [0, 120, 90],
  [150, 70, 130],
  [110, 110, 110],
  [70, 60, 150],
  [140, 110, 60],
];

function number(xml: string, tag: string): number {
  const m = new RegExp(`<${tag}>\\s*([-0-9.]+)\\s*</${tag}>`).exec(xml);
  return m ? Number(m[1]) : NaN;
}

/** One image: RGB pixels with the objects of the annotation painted in. */
export function paintImage(xml: string): { width: number; height: number; data: Buffer } {
  const width = number(xml, 'width');
  const height = number(xml, 'height');
  const data = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const k = 3 * (y * width + x);
      data[k] = 150 + (60 * x) / width;
      data[k + 1] = 170 + (50 * y) / height;
      data[k + 2] = 190 + 30 * Math.sin(x / 29 + y / 41);
    }
  }
  const objects = xml.split('<object>').slice(1);
  objects.forEach((o, n) => {
    const [x1, y1, x2, y2] = ['xmin', 'ymin', 'xmax', 'ymax'].map((t) => number(o, t));
    const [r, g, b] = PAINT[n % PAINT.length];
    const cx = (x1 + x2) / 2;
    const cy = (y1 + y2) / 2;
    const rx = (x2 - x1) / 2;
    const ry = (y2 - y1) / 2;
    for (let y = Math.max(0, Math.floor(y1 - 1)); y < Math.min(height, Math.ceil(y2)); y++) {
      for (let x = Math.max(0, Math.floor(x1 - 1)); x < Math.min(width, Math.ceil(x2)); x++) {
        if (((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 > 1) continue; // an ellipse inside the box
        const k = 3 * (y * width + x);
        data[k] = (data[k] + 3 * r) / 4;
        data[k + 1] = (data[k + 1] + 3 * g) / 4;
        data[k + 2] = (data[k + 2] + 3 * b) / 4;
      }
    }
  });
  return { width, height, data };
}

/**
 * Writes `<out>/<id>.jpg` for every annotation in `annotationsDir` except `skip` (left missing), and a file
 * that is not a JPEG for each id of `corrupt`. Returns the number of JPEGs written.
 */
export async function writeSyntheticJpegs(annotationsDir: string, out: string, options: { skip?: string[]; corrupt?: string[]; only?: Set<string> } = {}): Promise<number> {
  mkdirSync(out, { recursive: true });
  let n = 0;
  for (const f of readdirSync(annotationsDir)) {
    const id = basename(f, '.xml');
    if (!f.endsWith('.xml') || options.skip?.includes(id) || (options.only && !options.only.has(id))) continue;
    if (options.corrupt?.includes(id)) {
      writeFileSync(join(out, `${id}.jpg`), 'not a JPEG');
      continue;
    }
    const img = paintImage(readFileSync(join(annotationsDir, f), 'utf8'));
    if (!(img.width > 0 && img.height > 0)) continue;
    await sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } }).jpeg({ quality: 80 }).toFile(join(out, `${id}.jpg`));
    n++;
  }
  return n;
}
