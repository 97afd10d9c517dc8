/**
 * readResults' segmentation branch decodes compressed RLEs straight from the file's bytes (the reader's
 * `rle` field kind). The same result written with its keys in the other order (`{counts, size}`) is read
 * as a built value and decoded from the string: both ways must give the same areas, boxes, masks and
 * errors.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isDevkitError } from '@cvdevkit/core';
import { encodeString, type Rle } from '@cvdevkit/rle';
import { makeTempDir } from '@cvdevkit/test-utils';
import type { GroundTruth } from './dataset.js';
import { readResults } from './load.js';
import { resultRle } from './iou-segm.js';
import { measureCompressed } from './segmentation.js';

const dir = makeTempDir('coco-load-');
const gt = { file: 'gt.json', imageIds: Float64Array.of(1, 2) } as unknown as GroundTruth;

type Seg = { size: [number, number]; counts: string };
type Outcome = { area: number[]; bbox: number[]; masks: number[][] } | { error: string };

function load(results: object[], name: string): Outcome {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(results));
  try {
    const r = readResults(file, gt, { measureMask: measureCompressed(file) });
    const masks = Array.from({ length: r.count }, (_, i) => Array.from(resultRle(r, i, 0, 0).counts));
    return { area: Array.from(r.area), bbox: Array.from(r.bbox), masks };
  } catch (e) {
    if (!isDevkitError(e)) throw e;
    return { error: e.message.replaceAll(name, 'FILE') };
  }
}

/** The results with each segmentation as {size, counts} (the byte form) and as {counts, size} (a built value). */
function bothWays(segs: Seg[], withBox: boolean[] = []): [Outcome, Outcome] {
  const rec = (s: Seg | { counts: string; size: [number, number] }, i: number) => ({ image_id: 1 + (i % 2), category_id: 3, segmentation: s, score: 0.5, ...(withBox[i] ? { bbox: [1, 2, 3, 4] } : {}) });
  // the first result has no bbox: the segmentation branch
  return [load(segs.map(rec), 'a.json'), load(segs.map((s, i) => rec({ counts: s.counts, size: s.size }, i)), 'b.json')];
}

const rleArb = fc
  .tuple(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 12 }))
  .chain(([h, w]) => fc.array(fc.boolean(), { minLength: h * w, maxLength: h * w }).map((bits) => ({ h, w, bits })))
  .map(({ h, w, bits }): Rle => {
    const counts: number[] = [];
    let v = false;
    let run = 0;
    for (const b of bits) {
      if (b === v) run++;
      else {
        counts.push(run);
        v = b;
        run = 1;
      }
    }
    counts.push(run);
    return { h, w, counts: Uint32Array.from(counts) };
  });

describe('readResults: compressed RLEs from the bytes equal the built values', () => {
  it('areas, boxes and masks of valid RLEs (with and without a bbox)', () => {
    fc.assert(
      fc.property(fc.array(rleArb, { minLength: 1, maxLength: 8 }), fc.array(fc.boolean(), { maxLength: 8 }), (rles, boxes) => {
        const [a, b] = bothWays(
          rles.map((r) => ({ size: [r.h, r.w], counts: encodeString(r) })),
          [false, ...boxes.slice(1)],
        );
        expect('error' in a).toBe(false);
        expect(a).toEqual(b);
      }),
      { numRuns: 15 },
    );
  });

  it('the same error for any broken string or size (file, entry, what was expected and found)', () => {
    const text = fc.string({ unit: fc.constantFrom(...'0123456789:;<=>?@ABPQ[\\]^_`no~ '.split('')), maxLength: 12 });
    const size = fc.tuple(fc.oneof(fc.integer({ min: -1, max: 6 }), fc.constant(1.5)), fc.integer({ min: 0, max: 6 }));
    fc.assert(
      fc.property(fc.array(fc.record({ size, counts: text }), { minLength: 1, maxLength: 3 }), (segs) => {
        const [a, b] = bothWays(segs as Seg[]);
        expect(a).toEqual(b);
      }),
      { numRuns: 50 },
    );
  });
});
