import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MULTIPLIER, RealGraph, rint } from './real-graph.js';

/** The window scan before the kept lists: every offset of the disc, bounds-checked, through the image-sized id map. */
function referenceScan(real: RealGraph, maxDistPx: number, g: number): { rows: number[]; costs: number[] } {
  const { width, height } = real;
  const byGt = real.byGt;
  const p = real.pixels2[g];
  const y = Math.floor(p / width);
  const x = p - y * width;
  const r = Math.ceil(maxDistPx);
  const rows: number[] = [];
  const costs: number[] = [];
  for (let u = -r; u <= r; u++) {
    for (let v = -r; v <= r; v++) {
      if (u * u + v * v > maxDistPx * maxDistPx) continue;
      const xx = x - u;
      const yy = y - v;
      if (xx < 0 || xx >= width || yy < 0 || yy >= height) continue;
      const id = real.nearId[yy * width + xx];
      if (id < 0 || byGt.nodeStamp[id] !== byGt.stamp) continue;
      rows.push(byGt.nodeOf[id]);
      costs.push(rint(Math.sqrt(u * u + v * v) * MULTIPLIER));
    }
  }
  return { rows, costs };
}

describe('WindowNeighbours.scanInto (kept window lists)', () => {
  it('lists the nodes around a GT pixel in window order, as the plain window scan does, across builds', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 4, max: 30 }),
        fc.integer({ min: 4, max: 30 }),
        fc.double({ min: 0.5, max: 4, noNaN: true }),
        fc.integer(),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 4 }),
        (h, w, maxDistPx, seed, densities) => {
          let s = seed >>> 0;
          const rand = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
          const gt = new Uint8Array(h * w);
          for (let i = 0; i < gt.length; i++) gt[i] = rand() < 0.15 ? 1 : 0;
          const real = new RealGraph(gt, h, w, maxDistPx);
          for (const density of densities) {
            // map1 pixels in MATLAB order (x outer, y inner)
            const pixels: number[] = [];
            for (let x = 0; x < w; x++) for (let y = 0; y < h; y++) if (rand() < density) pixels.push(y * w + x);
            real.build(Int32Array.from(pixels), pixels.length);
            const rows = new Int32Array(real.windowSize);
            const costs = new Float64Array(real.windowSize);
            for (let g = 0; g < real.count2; g++) {
              const c = real.byGt.scanInto(g, rows, costs, 0);
              const want = referenceScan(real, maxDistPx, g);
              expect(Array.from(rows.subarray(0, c))).toEqual(want.rows);
              expect(Array.from(costs.subarray(0, c))).toEqual(want.costs);
            }
          }
        },
      ),
      { numRuns: 30 },
    );
  });
});

describe('RealGraph (the GT side)', () => {
  it('lists the GT pixels and numbers the pixels within tolerance in MATLAB order (x outer, y inner)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 40 }),
        fc.double({ min: 0.5, max: 5, noNaN: true }),
        fc.integer(),
        fc.double({ min: 0, max: 0.3, noNaN: true }),
        (h, w, maxDistPx, seed, density) => {
          let s = seed >>> 0;
          const rand = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
          const gt = new Uint8Array(h * w);
          for (let i = 0; i < gt.length; i++) gt[i] = rand() < density ? 1 + Math.floor(rand() * 255) : 0;
          const real = new RealGraph(gt, h, w, maxDistPx);
          const gtPixels: number[] = [];
          const near: number[] = [];
          for (let x = 0; x < w; x++) {
            for (let y = 0; y < h; y++) {
              const p = y * w + x;
              if (gt[p] !== 0) gtPixels.push(p);
              let isNear = false;
              for (let q = 0; q < gt.length && !isNear; q++) {
                const dx = (q % w) - x;
                const dy = Math.floor(q / w) - y;
                isNear = gt[q] !== 0 && dx * dx + dy * dy <= maxDistPx * maxDistPx;
              }
              if (isNear) near.push(p);
            }
          }
          expect(Array.from(real.pixels2)).toEqual(gtPixels);
          expect(Array.from(real.nearPixel)).toEqual(near);
          const ids = Array.from(real.nearId);
          expect(ids).toEqual(Array.from({ length: h * w }, (_, p) => near.indexOf(p)));
          expect(Array.from(real.near)).toEqual(Array.from({ length: h * w }, (_, p) => (near.includes(p) ? 1 : 0)));
        },
      ),
      { numRuns: 60 },
    );
  });
});
