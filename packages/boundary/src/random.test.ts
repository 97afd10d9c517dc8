import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Erand48, kOfN } from './random.js';

describe('erand48', () => {
  it('reproduces glibc erand48 from xsubi = [12345, 0, 0]', () => {
    // glibc erand48 with xsubi = {12345, 0, 0}
    const r = new Erand48(12345);
    expect([r.fp(), r.fp(), r.fp(), r.fp(), r.fp()]).toEqual([
      0.1058815689160042, 0.7982597062146901, 0.016058956758151055, 0.664036659792874, 0.04293407968391705,
    ]);
  });

  it('first state by hand: X1 = (0x5DEECE66D * 12345 + 11) mod 2^48', () => {
    const r = new Erand48(12345);
    r.fp();
    const x1 = (0x5deece66dn * 12345n + 0xbn) % (1n << 48n);
    expect(r.state).toBe(Number(x1));
  });

  it('wraps the 48-bit state exactly (all-ones seed)', () => {
    const r = new Erand48(2 ** 48 - 1);
    expect([r.fp(), r.fp(), r.fp()]).toEqual([0.9999104186659835, 0.27001761222738097, 0.2111753978720401]);
  });

  it('matches a BigInt LCG for arbitrary seeds', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: (1n << 48n) - 1n }), (seed) => {
        const r = new Erand48(Number(seed));
        let x = seed;
        for (let k = 0; k < 5; k++) {
          x = (0x5deece66dn * x + 0xbn) & ((1n << 48n) - 1n);
          expect(r.fp()).toBe(Number(x) / 2 ** 48);
        }
      }),
    );
  });

  it('reseed restarts the stream', () => {
    const r = new Erand48(7);
    const a = r.fp();
    r.fp();
    r.reseed(7);
    expect(r.fp()).toBe(a);
  });
});

describe('kOfN', () => {
  it('k = 1 of n >= 2 uses i32(0, n-1) (one draw)', () => {
    const r = new Erand48(12345);
    const out = new Int32Array(1);
    kOfN(r, 1, 10, out);
    expect(out[0]).toBe(Math.floor(0.1058815689160042 * 10)); // = 1
    const q = new Erand48(12345);
    q.fp();
    expect(r.state).toBe(q.state);
  });

  it('largeK draws n numbers: kOfN(2, 3) keeps i while fp() < (k-j)/(n-i)', () => {
    const r = new Erand48(12345);
    const out = new Int32Array(2);
    kOfN(r, 2, 3, out); // klogk = 2 >= floor(3/2) = 1 → largeK
    // fp: 0.1059 < 2/3 → take 0; 0.7983 < 1/2? no; 0.0161 < 1/1 → take 2
    expect(Array.from(out)).toEqual([0, 2]);
    const q = new Erand48(12345);
    q.fp();
    q.fp();
    q.fp();
    expect(r.state).toBe(q.state);
  });

  it('returns k distinct sorted values in [0, n)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 500 }), fc.integer({ min: 0, max: 2 ** 40 }), (k, extra, seed) => {
        const n = k + extra;
        const out = new Int32Array(Math.max(1, k));
        kOfN(new Erand48(seed), k, n, out);
        const vals = Array.from(out.subarray(0, k));
        for (let i = 0; i < vals.length; i++) {
          expect(vals[i]).toBeGreaterThanOrEqual(0);
          expect(vals[i]).toBeLessThan(n);
          if (i > 0) expect(vals[i]).toBeGreaterThan(vals[i - 1]);
        }
      }),
    );
  });
});
