import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anyRleArb, maskArb } from '../test/arbitraries.js';
import { toBbox } from './bbox.js';
import { isRleError, RleError } from './errors.js';
import { area, encode } from './mask.js';
import { CountsArena, decodeBytes, decodeBytesArea, decodeBytesMeasured, decodeString, decodeStringMeasured, encodeString, PackedCounts } from './string.js';

describe('compressed string codec', () => {
  it('round trips any valid RLE (zero runs, counts up to 2^32 − 1)', () => {
    fc.assert(
      fc.property(anyRleArb, (r) => {
        const s = encodeString(r);
        expect(s).toMatch(/^[0-o]*$/);
        const back = decodeString(s, r.h, r.w);
        expect(back.counts).toEqual(r.counts);
        expect(encodeString(back)).toBe(s);
      }),
      { numRuns: 250 },
    );
  });

  it('deltas start at the 4th count; small values are single characters', () => {
    expect(encodeString({ h: 10, w: 10, counts: Uint32Array.of(5, 10, 85) })).toBe('5:e2'); // pycocotools 2.0.11
    expect(encodeString({ h: 10, w: 10, counts: Uint32Array.of(5, 10, 80, 5) })).toBe('5:`2K'); // 4th written as 5 − 10 = −5
    expect(encodeString({ h: 0, w: 0, counts: new Uint32Array(0) })).toBe('');
  });

  it('any string: an Rle or an RleError, never anything else', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopq~ é'.split('')), maxLength: 30 }), fc.integer({ min: 0, max: 5000 }), (s, n) => {
        try {
          const r = decodeString(s, 1, n);
          expect(r.counts.reduce((a, b) => a + b, 0)).toBe(n);
        } catch (e) {
          expect(isRleError(e)).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('names what is wrong: characters, truncation, long counts, sums', () => {
    const err = (s: string, h: number, w: number): RleError => {
      try {
        decodeString(s, h, w);
      } catch (e) {
        return e as RleError;
      }
      throw new Error('no error');
    };
    expect(err('5:x1', 10, 10)).toMatchObject({ reason: 'string-char', position: 2, found: '"x"' });
    expect(err('5:e', 10, 10)).toMatchObject({ reason: 'string-truncated', position: 2 });
    expect(decodeString('5:e2', 10, 10).counts).toEqual(Uint32Array.of(5, 10, 85));
    expect(err('5:e2', 10, 11)).toMatchObject({ reason: 'counts-sum' });
    expect(err('oooooooo0', 10, 10)).toMatchObject({ reason: 'string-group', position: 0 });
    expect(err('5:e2', 10, 11).message).toBe('RLE counts do not cover the mask, expected counts summing to h*w = 10*11 = 110, found sum 100 of 3 counts');
    expect(err('5', -1, 3)).toMatchObject({ reason: 'size' });
    // a negative delta that takes a count below zero wraps to uint32 as in C, then fails the sum
    expect(err('5:h0', 10, 10)).toMatchObject({ reason: 'counts-sum' });
  });
});

describe('decodeStringMeasured (the one-pass fast path)', () => {
  function same(s: string, h: number, w: number): void {
    let slow: unknown;
    let fast: unknown;
    try {
      const r = decodeString(s, h, w);
      slow = { counts: Array.from(r.counts), area: area(r), bbox: Array.from(toBbox(r)) };
    } catch (e) {
      slow = isRleError(e) ? { error: e.reason, message: e.message } : e;
    }
    try {
      const m = decodeStringMeasured(s, h, w);
      fast = { counts: Array.from(m.rle.counts), area: m.area, bbox: Array.from(m.bbox) };
    } catch (e) {
      fast = isRleError(e) ? { error: e.reason, message: e.message } : e;
    }
    expect(fast).toEqual(slow);
  }

  it('equals decodeString + area + toBbox on any valid RLE and on masks', () => {
    fc.assert(fc.property(anyRleArb, (r) => same(encodeString(r), r.h, r.w)), { numRuns: 300 });
    fc.assert(fc.property(maskArb(24), ({ h, w, mask }) => same(encodeString(encode(mask, h, w)), h, w)), { numRuns: 300 });
  });

  it('with an arena: every RLE keeps its own counts while later ones are decoded (chunks of any size)', () => {
    fc.assert(
      fc.property(fc.array(anyRleArb, { maxLength: 12 }), fc.integer({ min: 1, max: 40 }), (rles, chunk) => {
        const arena = new CountsArena(chunk);
        const got = rles.map((r) => decodeStringMeasured(encodeString(r), r.h, r.w, arena));
        got.forEach((m, i) => expect(Array.from(m.rle.counts)).toEqual(Array.from(decodeString(encodeString(rles[i]), rles[i].h, rles[i].w).counts)));
      }),
      { numRuns: 150 },
    );
  });

  it('fails as decodeString fails on any string and size', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopq~ é'.split('')), maxLength: 30 }), fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 90 }), (s, h, w) => same(s, h, w)),
      { numRuns: 500 },
    );
  });
});

describe('decodeBytesMeasured (the string as bytes in a larger buffer, the counts packed)', () => {
  type Outcome = { counts: number[]; area: number; bbox: number[] } | { error: string; message: string; expected?: string; found?: string; position?: number };
  const asError = (e: unknown): Outcome => {
    if (!isRleError(e)) throw e;
    return { error: e.reason, message: e.message, expected: e.expected, found: e.found, position: e.position };
  };
  function viaString(s: string, h: number, w: number): Outcome {
    try {
      const m = decodeStringMeasured(s, h, w);
      return { counts: Array.from(m.rle.counts), area: m.area, bbox: Array.from(m.bbox) };
    } catch (e) {
      return asError(e);
    }
  }
  function viaBytes(s: string, h: number, w: number, pad: number, i: number, packed = new PackedCounts(1)): Outcome {
    const src = new Uint8Array(pad + s.length + 3).fill(34);
    for (let k = 0; k < s.length; k++) src[pad + k] = s.charCodeAt(k);
    const areas = new Float64Array(i + 1).fill(-1);
    const boxes = new Float64Array(4 * i + 4).fill(-1);
    const before = packed.length;
    try {
      const m = decodeBytesMeasured(src, pad, pad + s.length, h, w, packed, areas, boxes, i);
      expect(packed.length).toBe(before + m);
      return { counts: Array.from(packed.rle(h, w, before, m).counts), area: areas[i], bbox: Array.from(boxes.subarray(4 * i)) };
    } catch (e) {
      expect(packed.length).toBe(before); // a failed RLE leaves the packed counts as they were
      return asError(e);
    }
  }
  const asciiChars = fc.constantFrom(...'0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopq~ '.split(''));

  it('equals decodeStringMeasured on valid RLEs, at any offset and row, one after another', () => {
    fc.assert(
      fc.property(fc.array(anyRleArb, { minLength: 1, maxLength: 6 }), fc.nat(7), fc.nat(3), (rles, pad, i) => {
        const packed = new PackedCounts(3);
        const got = rles.map((r) => viaBytes(encodeString(r), r.h, r.w, pad, i, packed));
        rles.forEach((r, k) => expect(got[k]).toEqual(viaString(encodeString(r), r.h, r.w)));
        // the earlier RLEs' counts are still there after the later ones (growing keeps them)
        let at = 0;
        rles.forEach((r) => {
          const m = decodeString(encodeString(r), r.h, r.w).counts.length;
          expect(Array.from(packed.rle(r.h, r.w, at, m).counts)).toEqual(Array.from(r.counts));
          at += m;
        });
      }),
      { numRuns: 200 },
    );
  });

  it('fails with the same error (reason, message, expected, found, position) on any ASCII string and size', () => {
    fc.assert(
      fc.property(fc.string({ unit: asciiChars, maxLength: 30 }), fc.integer({ min: -1, max: 60 }), fc.integer({ min: 0, max: 90 }), fc.nat(5), (s, h, w, pad) => {
        expect(viaBytes(s, h, w, pad, 0)).toEqual(viaString(s, h, w));
      }),
      { numRuns: 400 },
    );
  });

  it('without packed counts (the area and box only): the same count of counts, area, box and errors', () => {
    const only = (s: string, h: number, w: number, pad: number, i: number): unknown => {
      const src = new Uint8Array(pad + s.length + 3).fill(34);
      for (let k = 0; k < s.length; k++) src[pad + k] = s.charCodeAt(k);
      const areas = new Float64Array(i + 1).fill(-1);
      const boxes = new Float64Array(4 * i + 4).fill(-1);
      try {
        const m = decodeBytesMeasured(src, pad, pad + s.length, h, w, undefined, areas, boxes, i);
        return { m, area: areas[i], bbox: Array.from(boxes.subarray(4 * i)) };
      } catch (e) {
        return asError(e);
      }
    };
    const reference = (s: string, h: number, w: number): unknown => {
      const o = viaString(s, h, w);
      return 'counts' in o ? { m: o.counts.length, area: o.area, bbox: o.bbox } : o;
    };
    fc.assert(
      fc.property(anyRleArb, fc.nat(7), fc.nat(3), (r, pad, i) => {
        expect(only(encodeString(r), r.h, r.w, pad, i)).toEqual(reference(encodeString(r), r.h, r.w));
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.string({ unit: asciiChars, maxLength: 30 }), fc.integer({ min: -1, max: 60 }), fc.integer({ min: 0, max: 90 }), fc.nat(5), (s, h, w, pad) => {
        expect(only(s, h, w, pad, 0)).toEqual(reference(s, h, w));
      }),
      { numRuns: 400 },
    );
  });

  it('decodeBytesArea (the area alone): the same area and errors', () => {
    const area = (s: string, h: number, w: number, pad: number, i: number): unknown => {
      const src = new Uint8Array(pad + s.length + 3).fill(34);
      for (let k = 0; k < s.length; k++) src[pad + k] = s.charCodeAt(k);
      const areas = new Float64Array(i + 1).fill(-1);
      try {
        decodeBytesArea(src, pad, pad + s.length, h, w, areas, i);
        return areas[i];
      } catch (e) {
        return asError(e);
      }
    };
    const reference = (s: string, h: number, w: number): unknown => {
      const o = viaString(s, h, w);
      return 'counts' in o ? o.area : o;
    };
    fc.assert(
      fc.property(anyRleArb, fc.nat(7), fc.nat(3), (r, pad, i) => {
        expect(area(encodeString(r), r.h, r.w, pad, i)).toEqual(reference(encodeString(r), r.h, r.w));
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.string({ unit: asciiChars, maxLength: 30 }), fc.integer({ min: -1, max: 60 }), fc.integer({ min: 0, max: 90 }), fc.nat(5), (s, h, w, pad) => {
        expect(area(s, h, w, pad, 0)).toEqual(reference(s, h, w));
      }),
      { numRuns: 400 },
    );
  });

  it('decodeBytes (no area or box): the same counts and errors', () => {
    const plain = (s: string, h: number, w: number): unknown => {
      const packed = new PackedCounts(2);
      packed.length = 1; // after another RLE's counts
      try {
        const m = decodeBytes(Uint8Array.from(s, (c) => c.charCodeAt(0)), 0, s.length, h, w, packed);
        expect(packed.length).toBe(1 + m);
        return Array.from(packed.rle(h, w, 1, m).counts);
      } catch (e) {
        expect(packed.length).toBe(1);
        return asError(e);
      }
    };
    const measured = (s: string, h: number, w: number): unknown => {
      const o = viaString(s, h, w);
      return 'counts' in o ? o.counts : o;
    };
    fc.assert(
      fc.property(anyRleArb, (r) => {
        expect(plain(encodeString(r), r.h, r.w)).toEqual(measured(encodeString(r), r.h, r.w));
      }),
      { numRuns: 150 },
    );
    fc.assert(
      fc.property(fc.string({ unit: asciiChars, maxLength: 30 }), fc.integer({ min: -1, max: 60 }), fc.integer({ min: 0, max: 90 }), (s, h, w) => {
        expect(plain(s, h, w)).toEqual(measured(s, h, w));
      }),
      { numRuns: 300 },
    );
  });
});
