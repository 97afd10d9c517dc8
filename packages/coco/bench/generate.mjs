#!/usr/bin/env node
/**
 * Writes a synthetic COCO case: a ground truth (80 categories with COCO's non-contiguous ids, ~5.5 objects
 * per image, 1 % crowds, a COCO-like mix of small / medium / large) and results (N detections per image:
 * jittered copies of the objects, most with the right category, plus random boxes; scores with ties).
 * With --masks the objects are polygons (crowds: uncompressed RLE) and the results compressed RLEs.
 * With --keypoints every object is a person with 17 keypoints (some invisible, some people without any)
 * and the results are keypoint lists.
 *
 *   node bench/generate.mjs --out DIR [--images 5000] [--dets 100] [--categories 80] [--seed 1] [--masks | --keypoints]
 * writes DIR/gt.json, DIR/results.json and prints the case's statistics as JSON.
 * Needs the built @cvdevkit/rle (for --masks).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values: a } = parseArgs({
  options: {
    out: { type: 'string' },
    images: { type: 'string', default: '5000' },
    dets: { type: 'string', default: '100' },
    seed: { type: 'string', default: '1' },
    categories: { type: 'string', default: '80' },
    masks: { type: 'boolean', default: false },
    keypoints: { type: 'boolean', default: false },
  },
});
if (!a.out) throw new Error('--out DIR is required');
const N_IMAGES = Number(a.images);
const N_DETS = Number(a.dets);
const MASKS = a.masks;
const KEYPOINTS = a.keypoints;
const rle = MASKS ? await import('@cvdevkit/rle') : undefined;

// mulberry32: a small seeded generator (the case is the same on every machine)
let state = Number(a.seed) >>> 0 || 1;
function rand() {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const randInt = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));
/** Poisson(λ) by inversion (λ small). */
function poisson(lambda) {
  let k = 0;
  let p = Math.exp(-lambda);
  let s = p;
  const u = rand();
  while (u > s) {
    k++;
    p *= lambda / k;
    s += p;
  }
  return k;
}
const round2 = (v) => Math.round(v * 100) / 100;

// COCO's 80 category ids (1..90 with 10 gaps), continued past 90 for more categories
const N_CATS = Number(a.categories);
const GAPS = new Set([12, 26, 29, 30, 45, 66, 68, 69, 71, 83]);
const CAT_IDS = [];
for (let id = 1; CAT_IDS.length < N_CATS; id++) if (!GAPS.has(id)) CAT_IDS.push(id);

/** A box of a COCO-like size: ~41 % small, ~34 % medium, ~24 % large by area. */
function randomBox(w, h) {
  const u = rand();
  const side = u < 0.41 ? 4 + rand() * 28 : u < 0.75 ? 32 + rand() * 64 : 96 + rand() * (Math.min(w, h) - 100);
  const aspect = Math.exp((rand() - 0.5) * 1.2);
  const bw = Math.max(1, Math.min(w - 1, side * aspect));
  const bh = Math.max(1, Math.min(h - 1, side / aspect));
  return [round2(rand() * (w - bw)), round2(rand() * (h - bh)), round2(bw), round2(bh)];
}
/** An octagon inscribed in the box (its polygon). */
function octagon([x, y, w, h]) {
  const cx = x + w / 2, cy = y + h / 2;
  const pts = [];
  for (let i = 0; i < 8; i++) {
    const t = (i / 8) * 2 * Math.PI + 0.3;
    pts.push(round2(cx + (Math.cos(t) * w) / 2), round2(cy + (Math.sin(t) * h) / 2));
  }
  return pts;
}
function polygonArea(p) {
  let s = 0;
  for (let i = 0; i < p.length; i += 2) {
    const j = (i + 2) % p.length;
    s += p[i] * p[j + 1] - p[j] * p[i + 1];
  }
  return Math.abs(s) / 2;
}
function jitter([x, y, w, h], amount) {
  const dx = (rand() - 0.5) * amount * w, dy = (rand() - 0.5) * amount * h;
  const sw = Math.exp((rand() - 0.5) * amount), sh = Math.exp((rand() - 0.5) * amount);
  return [round2(x + dx), round2(y + dy), round2(Math.max(1, w * sw)), round2(Math.max(1, h * sh))];
}

const images = [];
const annotations = [];
const results = [];
let annId = 1;
let crowds = 0;
const sizes = { small: 0, medium: 0, large: 0 };
for (let i = 0; i < N_IMAGES; i++) {
  const id = 100000 + i * 7; // sparse ids, as COCO's
  const width = randInt(480, 640);
  const height = randInt(360, 480);
  images.push({ id, width, height, file_name: `${id}.jpg` });
  const n = poisson(5.5);
  const objects = [];
  for (let j = 0; j < n; j++) {
    const box = randomBox(width, height);
    const category_id = KEYPOINTS ? 1 : CAT_IDS[randInt(0, N_CATS - 1)];
    const iscrowd = rand() < 0.01 ? 1 : 0;
    const ann = { id: annId++, image_id: id, category_id, iscrowd, bbox: box, area: round2(box[2] * box[3]) };
    if (MASKS) {
      if (iscrowd) {
        const r = rle.fromBox(box, height, width);
        ann.segmentation = { size: [height, width], counts: Array.from(r.counts) };
        ann.area = rle.area(r);
      } else {
        const poly = octagon(box);
        ann.segmentation = [poly];
        ann.area = round2(polygonArea(poly));
      }
    }
    if (KEYPOINTS) {
      const kp = [];
      const none = rand() < 0.1;
      for (let k = 0; k < 17; k++) kp.push(round2(box[0] + rand() * box[2]), round2(box[1] + rand() * box[3]), none ? 0 : rand() < 0.75 ? 2 : rand() < 0.5 ? 1 : 0);
      ann.keypoints = kp;
      ann.num_keypoints = none && rand() < 0.5 ? 3 : kp.filter((v, k) => k % 3 === 2 && v > 0).length;
    }
    crowds += iscrowd;
    const area = ann.area;
    if (area < 1024) sizes.small++;
    else if (area < 9216) sizes.medium++;
    else sizes.large++;
    annotations.push(ann);
    objects.push(ann);
  }
  // detections: ~3 jittered copies per object (80 % right category), the rest random boxes
  const dets = [];
  for (const o of objects) {
    for (let c = 0; c < 3 && dets.length < N_DETS; c++) {
      const box = jitter(o.bbox, 0.1 + 0.3 * c);
      const category_id = KEYPOINTS ? 1 : rand() < 0.8 ? o.category_id : CAT_IDS[randInt(0, N_CATS - 1)];
      const kp = KEYPOINTS ? o.keypoints.map((v, k) => (k % 3 === 2 ? 1 : round2(v + (rand() - 0.5) * (4 + 12 * c)))) : undefined;
      dets.push({ box, category_id, kp, score: Math.round((0.3 + 0.7 * rand()) * 1000) / 1000 });
    }
  }
  while (dets.length < N_DETS) {
    const box = randomBox(width, height);
    const kp = KEYPOINTS ? Array.from({ length: 51 }, (_, k) => (k % 3 === 2 ? 1 : k % 3 === 0 ? round2(box[0] + rand() * box[2]) : round2(box[1] + rand() * box[3]))) : undefined;
    dets.push({ box, category_id: KEYPOINTS ? 1 : CAT_IDS[randInt(0, N_CATS - 1)], kp, score: Math.round(rand() * 600) / 1000 });
  }
  for (const d of dets) {
    if (KEYPOINTS) results.push({ image_id: id, category_id: 1, keypoints: d.kp, score: d.score });
    else if (MASKS) {
      const r = rle.fromPolygon(octagon(d.box), height, width);
      results.push({ image_id: id, category_id: d.category_id, segmentation: { size: [height, width], counts: rle.encodeString(r) }, score: d.score });
    } else results.push({ image_id: id, category_id: d.category_id, bbox: d.box, score: d.score });
  }
}
const categories = KEYPOINTS ? [{ id: 1, name: 'person', supercategory: 'person' }] : CAT_IDS.map((id) => ({ id, name: `class_${id}`, supercategory: 'thing' }));
mkdirSync(a.out, { recursive: true });
writeFileSync(join(a.out, 'gt.json'), JSON.stringify({ info: { description: `cvdevkit coco bench, seed ${a.seed}` }, images, annotations, categories }));
writeFileSync(join(a.out, 'results.json'), JSON.stringify(results));
const stats = {
  seed: Number(a.seed),
  images: images.length,
  categories: categories.length,
  annotations: annotations.length,
  perImage: annotations.length / images.length,
  crowds,
  sizes,
  detections: results.length,
  masks: MASKS,
  keypoints: KEYPOINTS,
};
console.log(JSON.stringify(stats));
