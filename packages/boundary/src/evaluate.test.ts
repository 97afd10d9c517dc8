import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isAllZero } from './evaluate.js';

describe('isAllZero', () => {
  it('is true exactly when every byte is 0, at any offset and length in the buffer', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 5000 }), fc.option(fc.nat()), (offset, length, hot) => {
        const buf = new Uint8Array(offset + length + 7);
        buf.fill(1, 0, offset); // bytes before the view are not part of it
        buf.fill(1, offset + length);
        const a = buf.subarray(offset, offset + length);
        if (hot !== null && length > 0) a[hot % length] = 1 + (hot % 255);
        expect(isAllZero(a)).toBe(a.every((v) => v === 0));
      }),
      { numRuns: 300 },
    );
  });
});
