import { deflateSync, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { inflateExactly } from './inflate-exact.js';

/** inflateSync's output, or undefined when it fails. */
function reference(input: Uint8Array): Buffer | undefined {
  try {
    return inflateSync(input);
  } catch {
    return undefined;
  }
}

describe('inflateExactly', () => {
  it('gives inflateSync\'s bytes for a complete stream within the size, and undefined for a longer one', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000 }), fc.integer({ min: 0, max: 9 }), fc.integer({ min: -3, max: 3 }), fc.boolean(), (data, level, slack, runs) => {
        const raw = runs ? data.map((v, i) => (i % 97 < 90 ? 0 : v)) : data;
        const z = deflateSync(raw, { level });
        const size = Math.max(0, raw.length + slack);
        const got = inflateExactly(z, size);
        if (raw.length <= size) expect(got && Buffer.from(got).equals(Buffer.from(raw))).toBe(true);
        else expect(got).toBeUndefined();
        // into the caller's buffer (a view of its start) when it has room for size + 1 bytes
        const into = new Uint8Array(size + 1 + (slack & 1));
        const there = inflateExactly(z, size, into);
        if (raw.length <= size) expect(there !== undefined && there.buffer === into.buffer && there.byteOffset === 0 && Buffer.from(there).equals(Buffer.from(raw))).toBe(true);
        else expect(there).toBeUndefined();
      }),
      { numRuns: 150 },
    );
  });

  it('never gives bytes inflateSync would not give (damaged, cut, trailing data), and keeps working after an error', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 800 }), fc.nat(), fc.integer({ min: 0, max: 255 }), fc.nat(), fc.uint8Array({ maxLength: 4 }), (data, at, byte, cut, tail) => {
        const z = Buffer.from(deflateSync(data));
        z[at % z.length] = byte;
        const input = Buffer.concat([z.subarray(0, cut % (z.length + 1)), tail]);
        const got = inflateExactly(input, 4096);
        const ref = reference(input);
        if (got !== undefined) expect(ref && Buffer.from(got).equals(ref)).toBe(true);
        // a good stream right after must still inflate
        const good = inflateExactly(deflateSync(data), data.length);
        expect(good && Buffer.from(good).equals(Buffer.from(data))).toBe(true);
      }),
      { numRuns: 150 },
    );
  });
});
