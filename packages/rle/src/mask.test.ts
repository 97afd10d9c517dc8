import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maskArb, anyRleArb } from '../test/arbitraries.js';
import { toBbox } from './bbox.js';
import { RleError } from './errors.js';
import { area, decode, encode } from './mask.js';

/** Tight [x, y, w, h] box of the 1 pixels of a column-major mask, or null when empty. */
function tightBox(m: Uint8Array, h: number, w: number): number[] | null {
  let x0 = Infinity, y0 = Infinity, x1 = -1, y1 = -1;
  for (let x = 0; x < w; x++) for (let y = 0; y < h; y++) if (m[x * h + y]) {
    x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, y); y1 = Math.max(y1, y);
  }
  return x1 < 0 ? null : [x0, y0, x1 - x0 + 1, y1 - y0 + 1];
}

describe('encode / decode / area / toBbox', () => {
  it('decode(encode(m)) = m, counts start with a 0-run and sum to h·w', () => {
    fc.assert(
      fc.property(maskArb(), ({ h, w, mask }) => {
        const r = encode(mask, h, w);
        expect(decode(r)).toEqual(mask);
        expect(r.counts.reduce((a, b) => a + b, 0)).toBe(h * w);
        for (let i = 1; i < r.counts.length - 1; i++) expect(r.counts[i]).toBeGreaterThan(0); // only the first run may be empty
      }),
      { numRuns: 150 },
    );
  });

  it('area = number of 1 pixels; toBbox = tight box of the 1 pixels', () => {
    fc.assert(
      fc.property(maskArb(), ({ h, w, mask }) => {
        const r = encode(mask, h, w);
        expect(area(r)).toBe(mask.reduce((a, b) => a + b, 0));
        const t = tightBox(mask, h, w);
        expect(Array.from(toBbox(r))).toEqual(t ?? [0, 0, 0, 0]);
      }),
      { numRuns: 150 },
    );
  });

  it('zero-length 1-runs do not move the box (2.0.11 rleToBbox)', () => {
    fc.assert(
      fc.property(anyRleArb.filter((r) => r.h * r.w <= 4096), (r) => {
        const m = decode(r);
        const t = tightBox(m, r.h, r.w);
        if (t) expect(Array.from(toBbox(r))).toEqual(t);
        expect(area(r)).toBe(m.reduce((a, b) => a + b, 0));
      }),
      { numRuns: 150 },
    );
  });

  it('an empty mask with an empty 1-run gets the wrapped uint32 box of pycocotools', () => {
    // counts [2, 0, 4] of a 2×3 mask: no 1 pixel, m = 2 after dropping the odd last run: xs = w, xe = 0
    expect(Array.from(toBbox({ h: 2, w: 3, counts: Uint32Array.of(2, 0, 4) }))).toEqual([3, 2, 2 ** 32 - 2, 2 ** 32 - 1]);
    expect(Array.from(toBbox({ h: 2, w: 3, counts: Uint32Array.of(6) }))).toEqual([0, 0, 0, 0]);
  });

  it('rejects a mask of the wrong length and a bad size, and decodes only consistent counts', () => {
    expect(() => encode(new Uint8Array(5), 2, 3)).toThrow(RleError);
    expect(() => encode(new Uint8Array(0), -1, 0)).toThrow(/invalid mask size/);
    expect(() => encode(new Uint8Array(0), 1.5, 0)).toThrow(RleError);
    expect(() => decode({ h: 2, w: 2, counts: Uint32Array.of(1, 2) })).toThrow(/expected counts summing to h\*w = 2\*2 = 4, found sum 3 of 2 counts/);
    expect(encode(new Uint8Array(0), 0, 5).counts).toEqual(Uint32Array.of(0));
  });
});
