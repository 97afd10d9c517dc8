/** fast-check arbitraries shared by the tests of this package (not exported by the package). */
import fc from 'fast-check';
import { encode } from '../src/mask.js';
import type { Rle } from '../src/rle.js';

/** A random h×w 0/1 mask, column-major, with blobs and noise. */
export const maskArb = (maxSide = 16): fc.Arbitrary<{ h: number; w: number; mask: Uint8Array }> =>
  fc
    .record({ h: fc.integer({ min: 1, max: maxSide }), w: fc.integer({ min: 1, max: maxSide }), seed: fc.integer(), density: fc.double({ min: 0, max: 1, noNaN: true }) })
    .map(({ h, w, seed, density }) => {
      const mask = new Uint8Array(h * w);
      let s = seed >>> 0 || 1;
      for (let i = 0; i < mask.length; i++) {
        s ^= s << 13;
        s ^= s >>> 17;
        s ^= s << 5;
        s >>>= 0;
        // runs: keep the previous value most of the time so that masks have long runs
        mask[i] = (s & 1023) / 1024 < 0.8 && i > 0 ? mask[i - 1] : (s >>> 10) / 4194304 < density ? 1 : 0;
      }
      return { h, w, mask };
    });

/** Several RLEs of one size. */
export const rlesArb = (min: number, max: number, maxSide = 16): fc.Arbitrary<Rle[]> =>
  fc
    .record({ h: fc.integer({ min: 1, max: maxSide }), w: fc.integer({ min: 1, max: maxSide }) })
    .chain(({ h, w }) => fc.array(maskArb(maxSide).map((m) => encode(remask(m.mask, h * w), h, w)), { minLength: min, maxLength: max }));

function remask(m: Uint8Array, n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = m.length ? m[i % m.length] : 0;
  return out;
}

/** Any valid RLE, zero-length runs and large counts included (counts summing to h·w). */
export const anyRleArb: fc.Arbitrary<Rle> = fc
  .record({ h: fc.integer({ min: 1, max: 70000 }), w: fc.integer({ min: 1, max: 60000 }) })
  .filter(({ h, w }) => h * w <= 0xffffffff)
  .chain(({ h, w }) =>
    fc.array(fc.integer({ min: 0, max: h * w }), { maxLength: 40 }).map((cuts) => {
      const n = h * w;
      const sorted = [...cuts].sort((a, b) => a - b);
      const counts = new Uint32Array(sorted.length + 1);
      let p = 0;
      sorted.forEach((c, i) => {
        counts[i] = c - p;
        p = c;
      });
      counts[sorted.length] = n - p;
      return { h, w, counts };
    }),
  );
