import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { correspondPixels } from './index.js';
import { rint } from './real-graph.js';

describe('correspondPixels', () => {
  it('matches identical maps completely', () => {
    const h = 20;
    const w = 30;
    const m = new Uint8Array(h * w);
    for (let x = 2; x < 28; x++) m[10 * w + x] = 1;
    const r = correspondPixels(m, m, h, w);
    expect(r.matched).toBe(26);
    for (let p = 0; p < h * w; p++) if (m[p]) expect(r.match1[p]).toBe(p + 1);
  });

  it('does not match beyond the tolerance (1.137 px on 97x128)', () => {
    const h = 90;
    const w = 122; // cropped tiny image 3: diagonal 152.0, tolerance 1.14 px
    const a = new Uint8Array(h * w);
    const b = new Uint8Array(h * w);
    a[10 * w + 10] = 1;
    b[12 * w + 10] = 1; // 2 px away
    expect(correspondPixels(a, b, h, w).matched).toBe(0);
    b[11 * w + 10] = 1; // 1 px away
    expect(correspondPixels(a, b, h, w).matched).toBe(1);
  });

  it('matched counts never exceed min(sumR, sumP) and match maps are consistent', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 24 * 24, maxLength: 24 * 24 }), fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 24 * 24, maxLength: 24 * 24 }), (va, vb) => {
        const a = Uint8Array.from(va, (v) => (v === 0 ? 1 : 0));
        const b = Uint8Array.from(vb, (v) => (v === 0 ? 1 : 0));
        const r = correspondPixels(a, b, 24, 24);
        const sumP = a.reduce((s, v) => s + v, 0);
        const sumR = b.reduce((s, v) => s + v, 0);
        expect(r.matched).toBeLessThanOrEqual(Math.min(sumP, sumR));
        let n1 = 0;
        for (let p = 0; p < a.length; p++) {
          if (r.match1[p]) {
            n1++;
            expect(r.match2[r.match1[p] - 1]).toBe(p + 1);
          }
        }
        expect(n1).toBe(r.matched);
      }),
      { numRuns: 60 },
    );
  });

  it('rint rounds half to even', () => {
    expect(rint(2.5)).toBe(2);
    expect(rint(3.5)).toBe(4);
    expect(rint(141.42135623730951)).toBe(141);
  });
});
