import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { LUT_THIN1, LUT_THIN2, thin, thinDeletions, Thinner } from './thin.js';

const LUT_FILE = fileURLToPath(new URL('../../../fixtures/specs/ade20k-boundary-thin-luts.txt', import.meta.url));

function lutFromFile(name: string): string {
  const line = readFileSync(LUT_FILE, 'utf8').split('\n').find((l) => l.startsWith(name + ' '));
  if (!line) throw new Error(`${name} not in ${LUT_FILE}`);
  return line.slice(name.length + 1).trim();
}

/** Straightforward bwmorph(…,'thin',Inf): full-image parallel passes until nothing changes. */
function referenceThin(bw: Uint8Array, h: number, w: number): Uint8Array {
  let a = Uint8Array.from(bw, (v) => (v ? 1 : 0));
  const at = (img: Uint8Array, y: number, x: number) => (y < 0 || y >= h || x < 0 || x >= w ? 0 : img[y * w + x]);
  const apply = (img: Uint8Array, lut: Uint8Array) => {
    const out = new Uint8Array(h * w);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        let idx = 0;
        for (let c = 0; c < 3; c++) for (let r = 0; r < 3; r++) idx += at(img, y + r - 1, x + c - 1) << (c * 3 + r);
        out[y * w + x] = lut[idx];
      }
    }
    return out;
  };
  for (;;) {
    const c = apply(apply(a, LUT_THIN1), LUT_THIN2);
    if (c.every((v, i) => v === a[i])) return c;
    a = c;
  }
}

describe('thinning LUTs', () => {
  it('lutthin1 / lutthin2 equal the tables in the spec (219 ones each)', () => {
    expect(Array.from(LUT_THIN1).join('')).toBe(lutFromFile('lutthin1'));
    expect(Array.from(LUT_THIN2).join('')).toBe(lutFromFile('lutthin2'));
    expect(LUT_THIN1.reduce((s, v) => s + v, 0)).toBe(219);
    expect(LUT_THIN2.reduce((s, v) => s + v, 0)).toBe(219);
  });
});

describe('thin', () => {
  it('decides 32 pixels at once exactly as the tables do (every neighbourhood, at word edges too)', () => {
    const t = new Thinner(3, 96);
    for (const second of [false, true]) {
      const lut = second ? LUT_THIN2 : LUT_THIN1;
      for (const bit of [0, 1, 15, 30, 31]) {
        const x0 = 32 + bit; // the centre pixel, in the middle word
        for (let idx = 0; idx < 512; idx++) {
          t.bits.fill(0);
          for (let c = 0; c < 3; c++) {
            for (let r = 0; r < 3; r++) if (idx & (1 << (c * 3 + r))) t.bits[t.wordOf(r, x0 + c - 1)] |= t.bitOf(x0 + c - 1);
          }
          const deleted = (thinDeletions(t.bits, t.wordOf(1, x0), t.wordStride, second) >>> bit) & 1;
          expect(deleted).toBe(idx & 16 && lut[idx] === 0 ? 1 : 0);
        }
      }
    }
  });

  it('keeps an isolated pixel and a 1-px line, empties nothing', () => {
    const h = 5;
    const w = 7;
    const bw = new Uint8Array(h * w);
    bw[1 * w + 1] = 1;
    for (let x = 1; x < 6; x++) bw[3 * w + x] = 1;
    expect(Array.from(thin(bw, h, w))).toEqual(Array.from(bw));
    expect(Array.from(thin(new Uint8Array(h * w), h, w)).every((v) => v === 0)).toBe(true);
  });

  it('thins a filled rectangle to a line (all-255 prediction case)', () => {
    const h = 9;
    const w = 15;
    const out = thin(new Uint8Array(h * w).fill(1), h, w);
    const n = out.reduce((s, v) => s + v, 0);
    expect(n).toBeGreaterThan(0);
    expect(n).toBeLessThan(w + 2);
    expect(Array.from(out)).toEqual(Array.from(referenceThin(new Uint8Array(h * w).fill(1), h, w)));
  });

  it('matches the full-image reference on random images', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 14 }), fc.integer({ min: 1, max: 14 }), fc.array(fc.boolean(), { minLength: 196, maxLength: 196 }), (h, w, bits) => {
        const bw = Uint8Array.from(bits.slice(0, h * w), (b) => (b ? 1 : 0));
        expect(Array.from(thin(bw, h, w))).toEqual(Array.from(referenceThin(bw, h, w)));
      }),
      { numRuns: 300 },
    );
  });

  it('matches the full-image reference on images several words wide', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 30, max: 100 }),
        fc.integer({ min: 1, max: 9 }),
        fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 900, maxLength: 900 }),
        (h, w, density, vals) => {
          const bw = Uint8Array.from(vals.slice(0, h * w), (v) => (v < density ? 1 : 0));
          expect(Array.from(thin(bw, h, w))).toEqual(Array.from(referenceThin(bw, h, w)));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('matches the full-image reference where pixels crowd a word boundary', () => {
    // a deletion in bit 0 (31) of a word changes the neighbourhood of bit 31 (0) of the word beside it
    fc.assert(
      fc.property(
        fc.integer({ min: 3, max: 10 }),
        fc.integer({ min: 34, max: 70 }),
        fc.integer({ min: 1, max: 9 }),
        fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 700, maxLength: 700 }),
        (h, w, density, vals) => {
          const bw = new Uint8Array(h * w);
          for (let y = 0; y < h; y++) {
            for (let x = 0; x < w; x++) {
              if (Math.abs(x - 31.5) < 6 && vals[y * w + x] < density) bw[y * w + x] = 1;
            }
          }
          expect(Array.from(thin(bw, h, w))).toEqual(Array.from(referenceThin(bw, h, w)));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('is idempotent and never adds pixels', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 1, max: 20 }), fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 400, maxLength: 400 }), (h, w, vals) => {
        const bw = Uint8Array.from(vals.slice(0, h * w), (v) => (v > 0 ? 1 : 0));
        const t1 = thin(bw, h, w);
        for (let i = 0; i < t1.length; i++) if (t1[i]) expect(bw[i]).toBe(1);
        expect(Array.from(thin(t1, h, w))).toEqual(Array.from(t1));
      }),
      { numRuns: 200 },
    );
  });

  it('rejects a wrong buffer size', () => {
    expect(() => thin(new Uint8Array(5), 2, 3)).toThrow(/2x3/);
  });
});
