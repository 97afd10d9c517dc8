import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeTempDir } from '@cvdevkit/test-utils';
import { byteOrder, listPngFiles, parseShard, planEntries, shardRange } from './plan.js';

describe('plan', () => {
  it('lists *.png files only (case-sensitive, no folders), in byte order as dir does under Octave', () => {
    const d = makeTempDir('sceneparsing-plan-');
    for (const f of ['b.png', 'B.png', 'a.png', 'a.PNG', 'notes.txt', '_x.png']) writeFileSync(join(d, f), '');
    mkdirSync(join(d, 'folder.png'));
    expect(listPngFiles(d)).toEqual(['B.png', '_x.png', 'a.png', 'b.png']);
    expect(['é.png', 'z.png'].sort(byteOrder)).toEqual(['z.png', 'é.png']);
  });

  it('merges the two folders: which names have a prediction, which a ground truth', () => {
    const d = makeTempDir('sceneparsing-plan-');
    mkdirSync(join(d, 'gt'));
    mkdirSync(join(d, 'pred'));
    for (const f of ['1.png', '2.png']) writeFileSync(join(d, 'gt', f), '');
    for (const f of ['2.png', '3.png']) writeFileSync(join(d, 'pred', f), '');
    expect(planEntries(join(d, 'gt'), join(d, 'pred'))).toEqual([
      { name: '1.png', hasPred: false, hasGt: true },
      { name: '2.png', hasPred: true, hasGt: true },
      { name: '3.png', hasPred: true, hasGt: false },
    ]);
  });

  it('shards cover the listing once, in order, for any count', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 500 }), fc.integer({ min: 1, max: 40 }), (total, count) => {
        let at = 0;
        for (let index = 1; index <= count; index++) {
          const [start, end] = shardRange(total, { index, count });
          expect(start).toBe(at);
          expect(end).toBeGreaterThanOrEqual(start);
          at = end;
        }
        expect(at).toBe(total);
      }),
    );
    expect(parseShard(' 2 / 3 ')).toEqual({ index: 2, count: 3 });
    expect(() => parseShard('4/3')).toThrow(/1 ≤ i ≤ n/);
  });
});
