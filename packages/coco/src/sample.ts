import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeString, fromPolygon } from '@cvdevkit/rle';
import type { CocoOptions } from './options.js';
import type { IouType } from './params.js';

/** A small deterministic generator (32-bit LCG, Numerical Recipes constants). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const CATEGORIES = [
  { id: 1, name: 'person' },
  { id: 3, name: 'car' },
  { id: 18, name: 'dog' },
  { id: 44, name: 'bottle' },
];

const r2 = (v: number) => Math.round(v * 100) / 100;

function octagon(x: number, y: number, w: number, h: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < 8; i++) {
    const t = (i / 8) * 2 * Math.PI + 0.3;
    out.push(r2(x + w / 2 + (Math.cos(t) * w) / 2), r2(y + h / 2 + (Math.sin(t) * h) / 2));
  }
  return out;
}

function polygonArea(p: number[]): number {
  let s = 0;
  for (let i = 0; i < p.length; i += 2) {
    const j = (i + 2) % p.length;
    s += p[i] * p[j + 1] - p[j] * p[i + 1];
  }
  return Math.abs(s) / 2;
}

/**
 * Writes a small COCO case (24 images of 320×240, four categories, boxes, polygons and 17 person
 * keypoints, one crowd) and results for `iouType` drawn from it with noise, misses and false positives.
 */
export function writeCocoSample(dir: string, iouType: IouType): CocoOptions {
  const rand = lcg(20260 + iouType.length);
  const images = [];
  const annotations = [];
  const results = [];
  let annId = 1;
  for (let i = 0; i < 24; i++) {
    const id = 1000 + i * 3;
    const width = 320;
    const height = 240;
    images.push({ id, width, height, file_name: `${id}.jpg` });
    const n = 1 + Math.floor(rand() * 5);
    for (let j = 0; j < n; j++) {
      const cat = iouType === 'keypoints' ? CATEGORIES[0] : CATEGORIES[Math.floor(rand() * CATEGORIES.length)];
      const w = r2(8 + rand() * 140);
      const h = r2(8 + rand() * 110);
      const x = r2(rand() * (width - w));
      const y = r2(rand() * (height - h));
      const poly = octagon(x, y, w, h);
      const iscrowd = i === 5 && j === 0 ? 1 : 0;
      const keypoints: number[] = [];
      for (let k = 0; k < 17; k++) keypoints.push(r2(x + rand() * w), r2(y + rand() * h), rand() < 0.8 ? 2 : 0);
      const visible = keypoints.filter((_, k) => k % 3 === 2 && keypoints[k] > 0).length;
      annotations.push({ id: annId++, image_id: id, category_id: cat.id, bbox: [x, y, w, h], area: r2(polygonArea(poly)), iscrowd, segmentation: [poly], ...(cat.id === 1 ? { keypoints, num_keypoints: visible } : {}) });
      if (rand() < 0.15) continue; // a miss
      const jx = r2(x + (rand() - 0.5) * 0.3 * w);
      const jy = r2(y + (rand() - 0.5) * 0.3 * h);
      const score = Math.round(rand() * 1000) / 1000;
      if (iouType === 'bbox') results.push({ image_id: id, category_id: cat.id, bbox: [jx, jy, w, h], score });
      else if (iouType === 'segm') results.push({ image_id: id, category_id: cat.id, segmentation: { size: [height, width], counts: encodeString(fromPolygon(octagon(jx, jy, w, h), height, width)) }, score });
      else results.push({ image_id: id, category_id: 1, keypoints: keypoints.map((v, k) => (k % 3 === 2 ? 1 : r2(v + (rand() - 0.5) * 6))), score });
    }
    // a false positive
    const w = r2(10 + rand() * 60);
    const h = r2(10 + rand() * 60);
    const x = r2(rand() * (width - w));
    const y = r2(rand() * (height - h));
    const category_id = iouType === 'keypoints' ? 1 : CATEGORIES[Math.floor(rand() * CATEGORIES.length)].id;
    const score = Math.round(rand() * 500) / 1000;
    if (iouType === 'bbox') results.push({ image_id: id, category_id, bbox: [x, y, w, h], score });
    else if (iouType === 'segm') results.push({ image_id: id, category_id, segmentation: { size: [height, width], counts: encodeString(fromPolygon(octagon(x, y, w, h), height, width)) }, score });
    else results.push({ image_id: id, category_id, keypoints: Array.from({ length: 51 }, (_, k) => (k % 3 === 2 ? 1 : k % 3 === 0 ? r2(x + rand() * w) : r2(y + rand() * h))), score });
  }
  const categories = iouType === 'keypoints' ? [{ ...CATEGORIES[0], keypoints: [], skeleton: [] }] : CATEGORIES;
  mkdirSync(dir, { recursive: true });
  const gt = join(dir, iouType === 'keypoints' ? 'person_keypoints_sample.json' : 'instances_sample.json');
  const res = join(dir, `results_${iouType}.json`);
  writeFileSync(gt, JSON.stringify({ info: { description: 'cvdevkit coco sample' }, images, annotations: iouType === 'keypoints' ? annotations.filter((a) => a.category_id === 1) : annotations, categories }));
  writeFileSync(res, JSON.stringify(results));
  return { gt, results: res };
}
