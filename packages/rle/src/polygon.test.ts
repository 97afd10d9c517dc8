import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { RleError } from './errors.js';
import { decode } from './mask.js';
import { merge } from './merge.js';
import { fromBox, fromBoxes, fromPolygon, fromPolygonPacked, fromPolygons, setDirectSteps } from './polygon.js';
import { encodeString, PackedCounts } from './string.js';

const DEFAULT_STEPS = setDirectSteps(256);
afterEach(() => void setDirectSteps(DEFAULT_STEPS));

/** Coordinates that hit the rasteriser's edge cases: integers, halves, the ×5 rounding points m/5 − 0.1 and their neighbours. */
const coord = (lim: number): fc.Arbitrary<number> =>
  fc.oneof(
    fc.integer({ min: -3, max: lim + 3 }),
    fc.integer({ min: -6, max: 2 * lim + 6 }).map((v) => v / 2),
    fc.integer({ min: -15, max: 5 * lim + 15 }).chain((m) => fc.constantFrom(m / 5 - 0.1, m / 5 - 0.1 + 1e-9, m / 5 - 0.1 - 1e-9, m / 5)),
    fc.double({ min: -3, max: lim + 3, noNaN: true }),
  );
const polyArb = fc
  .record({ h: fc.integer({ min: 1, max: 30 }), w: fc.integer({ min: 1, max: 30 }) })
  .chain(({ h, w }) => fc.record({ h: fc.constant(h), w: fc.constant(w), xy: fc.array(fc.tuple(coord(w), coord(h)), { minLength: 0, maxLength: 9 }).map((p) => p.flat()) }));

const sum = (c: Uint32Array) => c.reduce((a, b) => a + b, 0);

describe('polygons and boxes', () => {
  it('counts always sum to h·w; only the first run may be empty', () => {
    fc.assert(
      fc.property(polyArb, ({ h, w, xy }) => {
        const r = fromPolygon(xy, h, w);
        expect(sum(r.counts)).toBe(h * w);
      }),
      { numRuns: 200 },
    );
  });

  it('fromPolygonPacked appends fromPolygon\'s counts (of the first n numbers, an odd one dropped)', () => {
    const packed = new PackedCounts(4);
    fc.assert(
      fc.property(polyArb, fc.nat(3), fc.boolean(), ({ h, w, xy }, before, odd) => {
        packed.length = before;
        packed.room(before);
        const n = odd ? xy.length + 1 : xy.length;
        const m = fromPolygonPacked([...xy, 99, 99], n, h, w, packed); // numbers past n are not read
        expect(packed.length).toBe(before + m);
        expect(Array.from(packed.data.subarray(before, before + m))).toEqual(Array.from(fromPolygon(odd ? [...xy, 99] : xy, h, w).counts));
      }),
      { numRuns: 150 },
    );
    expect(() => fromPolygonPacked([0, 0, 1e300, 1, 2, 2], 6, 4, 4, packed)).toThrow(RleError);
  });

  it('the vertex the polygon starts at does not matter', () => {
    fc.assert(
      fc.property(polyArb, fc.nat(), ({ h, w, xy }, k) => {
        const n = xy.length / 2;
        if (n < 2) return;
        const s = (k % n) * 2;
        const rotated = [...xy.slice(s), ...xy.slice(0, s)];
        expect(encodeString(fromPolygon(rotated, h, w))).toBe(encodeString(fromPolygon(xy, h, w)));
      }),
      { numRuns: 200 },
    );
  });

  it('nor its direction (non-negative coordinates)', () => {
    fc.assert(
      fc.property(polyArb, ({ h, w, xy }) => {
        const p = xy.map((v) => Math.abs(v));
        const rev: number[] = [];
        for (let j = p.length / 2 - 1; j >= 0; j--) rev.push(p[2 * j], p[2 * j + 1]);
        expect(encodeString(fromPolygon(rev, h, w))).toBe(encodeString(fromPolygon(p, h, w)));
      }),
      { numRuns: 200 },
    );
  });

  it('long edges: searching the column crossings gives what walking every step gives', () => {
    const big = fc.double({ min: -2000, max: 2000, noNaN: true });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 40 }), fc.array(fc.tuple(big, big), { minLength: 1, maxLength: 6 }), (h, w, pts) => {
        const xy = pts.flat();
        setDirectSteps(Infinity);
        const walked = encodeString(fromPolygon(xy, h, w));
        setDirectSteps(0);
        const searched = encodeString(fromPolygon(xy, h, w));
        setDirectSteps(DEFAULT_STEPS);
        expect(searched).toBe(walked);
      }),
      { numRuns: 150 },
    );
  });

  it('an axis-aligned integer rectangle covers exactly its pixels [x, x+w) × [y, y+h)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 1, max: 20 }), fc.nat(19), fc.nat(19), fc.nat(20), fc.nat(20), (H, W, x, y, bw, bh) => {
        const m = decode(fromBox([x, y, bw, bh], H, W));
        for (let c = 0; c < W; c++) for (let r = 0; r < H; r++) expect(m[c * H + r]).toBe(c >= x && c < x + bw && r >= y && r < y + bh ? 1 : 0);
      }),
      { numRuns: 200 },
    );
  });

  it('a box is the polygon (x,y) (x,y+h) (x+w,y+h) (x+w,y)', () => {
    fc.assert(
      fc.property(fc.tuple(coord(20), coord(20), coord(20), coord(20)), ([x, y, bw, bh]) => {
        expect(fromBoxes([[x, y, bw, bh]], 20, 20)[0]).toEqual(fromPolygon([x, y, x, y + bh, x + bw, y + bh, x + bw, y], 20, 20));
      }),
      { numRuns: 200 },
    );
  });

  it('an odd last number is ignored; 0 or 1 point give an empty mask', () => {
    expect(fromPolygon([1, 1, 5, 1, 5, 5, 9], 8, 8)).toEqual(fromPolygon([1, 1, 5, 1, 5, 5], 8, 8));
    expect(Array.from(fromPolygon([], 4, 5).counts)).toEqual([20]);
    expect(Array.from(fromPolygon([2, 2], 4, 5).counts)).toEqual([20]);
    // a later polygon of any length is accepted, as in pycocotools
    const rles = fromPolygons([[0, 0, 3, 0, 3, 3], [1, 1]], 4, 4);
    expect(Array.from(merge(rles).counts)).toEqual(Array.from(rles[0].counts));
  });

  it('the general sort (few boundaries on an image over 4096 wide) gives what the bucket sort gives', () => {
    // the same polygon in an h×4100 image (general sort) and an h×40 one (bucket sort): the same runs but the last,
    // which also covers the 4060 columns more
    fc.assert(
      fc.property(polyArb, ({ h, xy }) => {
        const narrow = fromPolygon(xy, h, 40).counts;
        const wide = Array.from(fromPolygon(xy, h, 4100).counts);
        const expected = Array.from(narrow);
        expected[expected.length - 1] += h * 4060;
        // a polygon reaching past column 39 has more runs in the wide image: compare only those inside
        if (xy.every((v, i) => i % 2 === 1 || v < 38)) expect(wide).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });

  it('rejects what pycocotools rejects or overflows on', () => {
    const err = (f: () => unknown): RleError => {
      try {
        f();
      } catch (e) {
        return e as RleError;
      }
      throw new Error('no error');
    };
    expect(err(() => fromPolygons([[1, 2, 3, 4]], 10, 10))).toMatchObject({ reason: 'polygon-too-short', found: '[1, 2, 3, 4]', position: 0 });
    expect(err(() => fromPolygons([[1, 2]], 10, 10))).toMatchObject({ reason: 'polygon-too-short' });
    expect(err(() => fromPolygons([], 10, 10))).toMatchObject({ reason: 'polygon-list-empty' });
    expect(err(() => fromPolygons([[1, 2, 3, 4, 5, 6], [1, NaN, 3, 4, 5, 6]], 10, 10))).toMatchObject({ reason: 'polygon-coordinate', found: 'NaN', position: 1 });
    expect(err(() => fromPolygon([1, 2, 3, 4, 5, 3e8], 10, 10)).message).toMatch(/^polygon coordinate 5 is out of range, expected a finite number within ±214748364\.6, found 300000000$/);
    expect(err(() => fromBox([1, 2, 3], 10, 10))).toMatchObject({ reason: 'box' });
    expect(err(() => fromBox([1, 2, 3, Infinity], 10, 10))).toMatchObject({ reason: 'polygon-coordinate' });
    expect(err(() => fromPolygon([1, 2, 3, 4, 5, 6], 0, 10))).toMatchObject({ reason: 'size' });
  });
});
