import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FastKofN } from './random.js';
import { Erand48, kOfN } from '../random.js';

describe('FastKofN', () => {
  it('draws exactly what Erand48 + kOfN draw (same stream, same subsets)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 40 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 5000 })), { minLength: 1, maxLength: 40 }),
        (seed, calls) => {
          const ref = new Erand48(seed);
          const fast = new FastKofN();
          fast.reseed(seed);
          const a = new Int32Array(6);
          const b = new Int32Array(6);
          for (const [k0, n] of calls) {
            const k = Math.min(k0, n);
            kOfN(ref, k, n, a);
            fast.draw(k, n, b);
            expect(Array.from(b.subarray(0, k))).toEqual(Array.from(a.subarray(0, k)));
          }
          expect(Math.floor(ref.fp() * 2 ** 20)).toBe(((): number => { fast.draw(1, 2 ** 20, b); return b[0]; })());
        },
      ),
      { numRuns: 300 },
    );
  });

  it('drawBlock draws the same subsets as repeated draw calls, and leaves the stream at the same place', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 40 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 9000 }), fc.integer({ min: 0, max: 300 })), { minLength: 1, maxLength: 6 }),
        (seed, blocks) => {
          const one = new FastKofN();
          const block = new FastKofN();
          one.reseed(seed);
          block.reseed(seed);
          const tmp = new Int32Array(6);
          for (const [k0, n, count] of blocks) {
            const k = Math.min(k0, n);
            const want: number[] = [];
            for (let t = 0; t < count; t++) {
              one.draw(k, n, tmp);
              want.push(...tmp.subarray(0, k));
            }
            const got = new Int32Array(k * count);
            block.drawBlock(k, n, count, got);
            expect(Array.from(got)).toEqual(want);
          }
          one.draw(1, 2 ** 30, tmp);
          const a = tmp[0];
          block.draw(1, 2 ** 30, tmp);
          expect(tmp[0]).toBe(a);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('drawBlockMemo draws what drawBlock draws, across reseeded calls that start the block at other positions', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 40 }),
        fc.array(
          fc.record({
            skip: fc.tuple(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 3000 }), fc.integer({ min: 0, max: 200 })),
            k: fc.integer({ min: 0, max: 6 }),
            n: fc.constantFrom(40, 41, 500, 2644),
            count: fc.integer({ min: 0, max: 400 }),
          }),
          { minLength: 1, maxLength: 8 },
        ),
        fc.option(fc.tuple(fc.integer({ min: 1, max: 6 }), fc.constantFrom(41, 500, 2644)), { nil: undefined }),
        (seed, varied, same) => {
          // `same`: every call draws the same (k, n) (the map2 block), so the kept chain is used and outrun
          const calls = same === undefined ? varied : varied.map((c) => ({ ...c, k: same[0], n: same[1] }));
          const plain = new FastKofN();
          const memo = new FastKofN();
          for (const { skip, k, n, count } of calls) {
            // a call: reseed, a block of another size first (moves the start), then the memoised block
            plain.reseed(seed);
            memo.reseed(seed);
            const [k1, n1, c1] = skip;
            const pre = new Int32Array(Math.min(k1, n1) * c1);
            plain.drawBlock(Math.min(k1, n1), n1, c1, pre);
            memo.drawBlock(Math.min(k1, n1), n1, c1, pre);
            const want = new Int32Array(k * count);
            const got = new Int32Array(k * count);
            plain.drawBlock(k, n, count, want);
            memo.drawBlockMemo(k, n, count, got);
            expect(Array.from(got)).toEqual(Array.from(want));
            const tmp = new Int32Array(1);
            plain.draw(1, 2 ** 30, tmp);
            const a = tmp[0];
            memo.draw(1, 2 ** 30, tmp);
            expect(tmp[0]).toBe(a);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
