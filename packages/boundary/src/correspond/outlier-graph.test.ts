import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { OutlierGraph } from './outlier-graph.js';
import { FastKofN } from './random.js';

/** match.cc's three blocks drawn plainly (no kept chains, no cache): the reference for `OutlierGraph.draw`. */
function referenceBlocks(seed: number, n1: number, n2: number): { blk1: Int32Array; blk2: Int32Array; blk3: Int32Array } {
  const d1 = Math.max(0, Math.min(6, n1 - 1));
  const d2 = Math.max(0, Math.min(6, n2 - 1));
  const d3 = Math.min(6, n1, n2);
  const rng = new FastKofN();
  rng.reseed(seed);
  const blk1 = new Int32Array(d1 * n1);
  const blk2 = new Int32Array(d2 * n2);
  const blk3 = new Int32Array(d3 * Math.max(n1, n2));
  rng.drawBlock(d1, n1 - 1, n1, blk1);
  rng.drawBlock(d2, n2 - 1, n2, blk2);
  rng.drawBlock(d3, Math.min(n1, n2), Math.max(n1, n2), blk3);
  const shift = (b: Int32Array, d: number) => {
    for (let t = 0; t < b.length; t++) if (b[t] >= Math.floor(t / d)) b[t]++;
    return b;
  };
  return { blk1: shift(blk1, d1), blk2: shift(blk2, d2), blk3 };
}

/** The first index where `got` differs from `want` (-1: none). */
function firstDifference(got: Int32Array, want: Int32Array): number {
  for (let t = 0; t < want.length; t++) if (got[t] !== want[t]) return t;
  return -1;
}

describe('OutlierGraph.draw', () => {
  it('draws the blocks of every (n1, n2) as a plain draw does, across calls that reuse the kept chains (n1 >= n2 and n1 < n2)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 40 }),
        fc.integer({ min: 1, max: 300 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 600 }), fc.integer({ min: -3, max: 3 })), { minLength: 1, maxLength: 12 }),
        (seed, n2base, calls) => {
          const g = new OutlierGraph(seed);
          for (const [n1, dn2] of calls) {
            const n2 = Math.max(1, n2base + (dn2 === 0 || Math.abs(dn2) > 1 ? 0 : dn2));
            g.draw(n1, n2);
            const want = referenceBlocks(seed, n1, n2);
            expect([firstDifference(g.blk1, want.blk1), firstDifference(g.blk2, want.blk2), firstDifference(g.blk3, want.blk3)]).toEqual([-1, -1, -1]);
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
