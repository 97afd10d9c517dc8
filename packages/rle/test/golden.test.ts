/**
 * Golden vectors from pycocotools 2.0.11 (fixtures/rle/README.md says how they were made): every string
 * byte for byte, every area, box and IoU bit for bit.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { area, boxIou, decode, decodeString, encode, encodeString, fromBoxes, fromPolygons, fromUncompressed, iou, merge, toBbox, type Rle } from '../src/index.js';

interface Case {
  kind: string;
  h: number;
  w: number;
  [k: string]: unknown;
}
const doc = JSON.parse(readFileSync(new URL('../../../fixtures/rle/pycocotools-2.0.11.json', import.meta.url), 'utf8')) as { cases: Case[] };
const byKind = (k: string) => doc.cases.filter((c) => c.kind === k);
const bits = (a: ArrayLike<number>) => Array.from(a, (v) => (Object.is(v, -0) ? '-0' : String(v)));
/** decodeString, checking that encodeString gives the same string back. */
const parse = (s: string, h: number, w: number): Rle => {
  const r = decodeString(s, h, w);
  expect(encodeString(r)).toBe(s);
  return r;
};

describe('golden vectors from pycocotools 2.0.11', () => {
  it('has every kind of case', () => {
    for (const k of ['poly', 'box', 'mask', 'unc', 'str', 'strbig', 'iou', 'boxiou', 'merge']) expect(byKind(k).length, k).toBeGreaterThan(5);
  });

  it('polygons: strings, areas, boxes, union and intersection', () => {
    for (const c of byKind('poly')) {
      const rles = fromPolygons(c.polys as number[][], c.h, c.w);
      expect(rles.map(encodeString)).toEqual(c.strings);
      expect(rles.map(area)).toEqual(c.area);
      expect(rles.map((r) => bits(toBbox(r)))).toEqual((c.bbox as number[][]).map(bits));
      const u = merge(rles);
      expect(encodeString(u)).toBe(c.merged);
      expect(encodeString(merge(rles, true))).toBe(c.inter);
      expect(area(u)).toBe(c.mergedArea);
      expect(bits(toBbox(u))).toEqual(bits(c.mergedBbox as number[]));
      (c.strings as string[]).forEach((s) => parse(s, c.h, c.w));
    }
  });

  it('boxes', () => {
    for (const c of byKind('box')) expect(fromBoxes(c.boxes as number[][], c.h, c.w).map(encodeString)).toEqual(c.strings);
  });

  it('dense masks: encode, decode, area, toBbox', () => {
    for (const c of byKind('mask')) {
      const m = Uint8Array.from(c.mask as string, (ch) => Number(ch));
      const r = encode(m, c.h, c.w);
      expect(encodeString(r)).toBe(c.string);
      expect(area(r)).toBe(c.area);
      expect(bits(toBbox(r))).toEqual(bits(c.bbox as number[]));
      expect(decode(parse(c.string as string, c.h, c.w))).toEqual(m);
    }
  });

  it('uncompressed RLE (zero-length runs included) and large counts', () => {
    for (const c of [...byKind('unc'), ...byKind('str')]) {
      const r = fromUncompressed(c.counts as number[], c.h, c.w);
      expect(encodeString(r)).toBe(c.string);
      expect(area(r)).toBe(c.area);
      expect(bits(toBbox(r))).toEqual(bits(c.bbox as number[]));
      expect(Array.from(parse(c.string as string, c.h, c.w).counts)).toEqual(c.counts);
    }
    for (const c of byKind('strbig')) {
      expect(encodeString(fromUncompressed(c.counts as number[], c.h, c.w))).toBe(c.string);
      expect(Array.from(decodeString(c.string as string, c.h, c.w).counts)).toEqual(c.counts);
    }
  });

  it('mask IoU with crowds and size mismatches', () => {
    for (const c of byKind('iou')) {
      const sizes = c.sizes as number[][];
      const gsizes = c.gsizes as number[][];
      const dts = (c.dts as string[]).map((s, i) => parse(s, sizes[i][0], sizes[i][1]));
      const gts = (c.gts as string[]).map((s, i) => parse(s, gsizes[i][0], gsizes[i][1]));
      const o = iou(dts, gts, c.crowd as boolean[]);
      expect(o.length).toBe(dts.length * gts.length);
      if (o.length) expect(bits(o)).toEqual((c.iou as number[][]).flatMap(bits));
    }
  });

  it('box IoU with crowds', () => {
    for (const c of byKind('boxiou')) {
      expect(bits(boxIou((c.dts as number[][]).flat(), (c.gts as number[][]).flat(), c.crowd as boolean[]))).toEqual((c.iou as number[][]).flatMap(bits));
    }
  });

  it('merge, including different sizes (0×0 as pycocotools)', () => {
    for (const c of byKind('merge')) {
      const sizes = c.sizes as number[][];
      const rles = (c.dts as string[]).map((s, i) => parse(s, sizes[i][0], sizes[i][1]));
      expect(encodeString(merge(rles))).toBe(c.union);
      expect(encodeString(merge(rles, true))).toBe(c.inter);
    }
  });
});
