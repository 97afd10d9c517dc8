import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sortU32 } from './sort.js';

describe('sortU32', () => {
  it('sorts like a numeric sort, duplicates and values above 2^31 included', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.nat(40), fc.integer({ min: 0, max: 0xffffffff })), { maxLength: 300 }), fc.nat(5), (xs, pad) => {
        const a = Uint32Array.from([...xs, ...Array(pad).fill(7)]);
        sortU32(a, 0, xs.length);
        expect(Array.from(a.subarray(0, xs.length))).toEqual([...xs].sort((p, q) => p - q));
        expect(Array.from(a.subarray(xs.length))).toEqual(Array(pad).fill(7));
      }),
      { numRuns: 300 },
    );
  });
});
