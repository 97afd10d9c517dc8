import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rlesArb } from '../test/arbitraries.js';
import { toBboxes } from './bbox.js';
import { RleError } from './errors.js';
import { boxIou, boxPairIou, iou, iouPacked } from './iou.js';
import { MaskList } from './mask-list.js';
import { area, decode } from './mask.js';
import { merge } from './merge.js';
import type { Rle } from './rle.js';

function counts(a: Rle, b: Rle): { i: number; u: number } {
  const x = decode(a);
  const y = decode(b);
  let i = 0;
  let u = 0;
  for (let p = 0; p < x.length; p++) {
    i += x[p] & y[p];
    u += x[p] | y[p];
  }
  return { i, u };
}

describe('mask IoU and merge', () => {
  it('iou = |d ∩ g| / |d ∪ g|, or / |d| for a crowd, from the decoded masks; row-major d × g', () => {
    fc.assert(
      fc.property(rlesArb(1, 4), rlesArb(1, 4), fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }), (dts, gts0, flags) => {
        const gts = gts0.map((g) => (g.h === dts[0].h && g.w === dts[0].w ? g : dts[0]));
        const crowd = flags.slice(0, gts.length);
        const o = iou(dts, gts, crowd);
        dts.forEach((d, di) =>
          gts.forEach((g, gi) => {
            const { i, u } = counts(d, g);
            expect(o[di * gts.length + gi]).toBe(i === 0 ? 0 : i / (crowd[gi] ? area(d) : u));
          }),
        );
      }),
      { numRuns: 150 },
    );
  });

  it('is symmetric without crowds, 1 on itself, and the precomputed boxes change nothing', () => {
    fc.assert(
      fc.property(rlesArb(2, 5), (rles) => {
        const o = iou(rles, rles, rles.map(() => 0));
        const n = rles.length;
        for (let a = 0; a < n; a++) {
          expect(o[a * n + a]).toBe(area(rles[a]) > 0 ? 1 : 0);
          for (let b = 0; b < n; b++) expect(o[a * n + b]).toBe(o[b * n + a]);
        }
        const boxes = toBboxes(rles);
        expect(iou(rles, rles, rles.map(() => 0), { dtBoxes: boxes, gtBoxes: boxes })).toEqual(o);
      }),
      { numRuns: 200 },
    );
  });

  it('iouPacked (masks as packed counts, into a reused array) gives iou\'s numbers and errors, sizes mixed', () => {
    const dl = new MaskList();
    const gl = new MaskList();
    let out = new Float64Array(1);
    fc.assert(
      fc.property(rlesArb(0, 4), rlesArb(0, 4), fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }), fc.boolean(), (dts, gts, flags, withBoxes) => {
        const crowd = Uint8Array.from(flags.slice(0, gts.length), Number);
        dl.clear();
        gl.clear();
        dts.forEach((r) => dl.add(r));
        gts.forEach((r) => gl.add(r));
        out = new Float64Array(dts.length * gts.length + 3).fill(7); // longer than needed, stale values
        const boxes = withBoxes ? toBboxes(dts) : undefined;
        iouPacked(dl, gl, crowd, boxes, out);
        expect(Array.from(out.subarray(0, dts.length * gts.length))).toEqual(Array.from(iou(dts, gts, crowd, boxes ? { dtBoxes: boxes } : {})));
      }),
      { numRuns: 150 },
    );
    const a: Rle = { h: 2, w: 2, counts: Uint32Array.of(0, 4) };
    const bad: Rle = { h: 2, w: 2, counts: Uint32Array.of(0, 3) };
    dl.clear();
    gl.clear();
    dl.add(bad);
    gl.add(a);
    expect(() => iouPacked(dl, gl, Uint8Array.of(1), undefined, out)).toThrow('iou: detection 0 does not cover its mask, expected counts summing to h*w = 2*2 = 4, found sum 3');
  });

  it('merge = pixelwise OR / AND of the decoded masks', () => {
    fc.assert(
      fc.property(rlesArb(1, 5), (rles) => {
        const ms = rles.map(decode);
        const or = ms.reduce((a, b) => a.map((v, i) => v | b[i]));
        const and = ms.reduce((a, b) => a.map((v, i) => v & b[i]));
        expect(decode(merge(rles))).toEqual(or);
        expect(decode(merge(rles, true))).toEqual(and);
      }),
      { numRuns: 150 },
    );
  });

  it('different sizes: IoU −1 where the boxes overlap, merge 0×0', () => {
    const a: Rle = { h: 2, w: 2, counts: Uint32Array.of(0, 4) };
    const b: Rle = { h: 2, w: 3, counts: Uint32Array.of(0, 6) };
    expect(Array.from(iou([a], [b], [0]))).toEqual([-1]);
    expect(merge([a, b])).toEqual({ h: 0, w: 0, counts: new Uint32Array(0) });
    expect(merge([])).toEqual({ h: 0, w: 0, counts: new Uint32Array(0) });
    expect(iou([], [a], [0]).length).toBe(0);
  });

  it('inconsistent counts fail instead of looping forever (pycocotools hangs)', () => {
    const a: Rle = { h: 2, w: 2, counts: Uint32Array.of(0, 4) };
    const bad: Rle = { h: 2, w: 2, counts: Uint32Array.of(0, 3) };
    expect(() => iou([a], [bad], [0])).toThrow(RleError);
    expect(() => iou([bad], [a], [1])).toThrow('iou: detection 0 does not cover its mask, expected counts summing to h*w = 2*2 = 4, found sum 3');
    expect(() => merge([a, bad])).toThrow(RleError);
    expect(() => iou([a], [a], [0, 1])).toThrow(expect.objectContaining({ reason: 'crowd-length' }));
  });
});

describe('box IoU', () => {
  it('matches the formula; crowd divides by the detection area; C fmin/fmax skip NaN', () => {
    expect(Array.from(boxIou([0, 0, 10, 10], [5, 5, 10, 10], [0]))).toEqual([25 / (100 + 100 - 25)]);
    expect(Array.from(boxIou([0, 0, 10, 10], [5, 5, 10, 10], [1]))).toEqual([25 / 100]);
    // one pair at offsets of flattened arrays (COCO's per-pair evaluation)
    expect(boxPairIou([9, 9, 9, 9, 0, 0, 10, 10], 4, [5, 5, 10, 10], 0, false)).toBe(25 / (100 + 100 - 25));
    expect(boxPairIou([0, 0, 10, 10], 0, [5, 5, 10, 10], 0, true)).toBe(25 / 100);
    expect(boxPairIou([0, 0, 10, 10], 0, [10, 0, 5, 5], 0, false)).toBe(0);
    expect(Array.from(boxIou([0, 0, 10, 10], [10, 0, 5, 5], [0]))).toEqual([0]);
    // pycocotools 2.0.11 on NaN coordinates (values from the oracle): fmin/fmax ignore the NaN operand
    expect(Array.from(boxIou([0, 0, 10, 10], [NaN, 0, 10, 10], [0]))).toEqual([1]);
    expect(Number.isNaN(boxIou([0, 0, 10, 10], [2, 0, NaN, 10], [0])[0])).toBe(true);
    expect(Number.isNaN(boxIou([NaN, 0, 10, 10], [NaN, 0, 10, 10], [0])[0])).toBe(true);
    expect(Array.from(boxIou([0, 0, 10, 10, 1, 1, 2, 2], [0, 0, 10, 10], [true]))).toEqual([1, 1]);
  });
});
