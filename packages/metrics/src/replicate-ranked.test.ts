import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { averagePrecisionArea } from './ap.js';
import { precisionRecall } from './curve.js';
import { OUTCOME_FP, OUTCOME_TP, PER_IMAGE_SCHEMA, packRankedClass, type RankedPerImage } from './per-image.js';
import { rankedReplicator } from './replicate-ranked.js';

/** The expanded curve written out: every entry repeated w[image] times (entry blocks), then VOCap. */
function reference(image: number[], outcome: number[], positives: number[], w: number[]): number {
  const tp: number[] = [];
  const fp: number[] = [];
  image.forEach((im, i) => {
    for (let t = 0; t < w[im]; t++) {
      tp.push(outcome[i] === OUTCOME_TP ? 1 : 0);
      fp.push(outcome[i] === OUTCOME_FP ? 1 : 0);
    }
  });
  const npos = positives.reduce((s, p, i) => s + p * w[i], 0);
  const { recall, precision } = precisionRecall(tp, fp, npos);
  return averagePrecisionArea(recall, precision);
}

/** Ranked per-image statistics of one VOC-style class over `images` images. */
function oneClassStats(images: number, cls: RankedPerImage['classes'][number]): RankedPerImage {
  return {
    schema: PER_IMAGE_SCHEMA,
    kind: 'ranked',
    images,
    fingerprint: '',
    summaryKey: 'mAP',
    summary: 'mean-numeric',
    valueField: 'ap',
    higherIsBetter: true,
    ap: 'ap-voc2010',
    classes: [cls],
  };
}

describe('ranked replicate: the TP-only VOCap kernel', () => {
  it('equals VOCap of the expanded curve bit for bit (random outcomes, weights, positives)', () => {
    const images = 6;
    fc.assert(
      fc.property(
        fc.array(fc.record({ image: fc.integer({ min: 0, max: images - 1 }), outcome: fc.integer({ min: 0, max: 2 }) }), { maxLength: 40 }),
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: images, maxLength: images }),
        fc.array(fc.integer({ min: 0, max: 4 }), { minLength: images, maxLength: images }),
        (entries, w, positives) => {
          const image = entries.map((e) => e.image);
          const outcome = entries.map((e) => e.outcome);
          const stats = oneClassStats(images, packRankedClass({ key: 'x', image, outcome, score: image.map(() => 0), positives, blocks: 'entry' }));
          const out = new Float64Array(1);
          rankedReplicator(stats).evaluate(Uint32Array.from(w), out);
          const want = reference(image, outcome, positives, w);
          expect(Object.is(out[0], want) || (Number.isNaN(out[0]) && Number.isNaN(want))).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('ranked replicate: multi-entry blocks (VOC layout, ILSVRC image runs)', () => {
  it('equals VOCap of the curve with every block repeated w[image] times in place, bit for bit', () => {
    const images = 5;
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ image: fc.integer({ min: 0, max: images - 1 }), outcomes: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 4 }) }),
          { maxLength: 20 },
        ),
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: images, maxLength: images }),
        fc.array(fc.integer({ min: 0, max: 4 }), { minLength: images, maxLength: images }),
        (blocks, w, positives) => {
          const image = blocks.flatMap((b) => b.outcomes.map(() => b.image));
          const outcome = blocks.flatMap((b) => b.outcomes);
          const blockStart = blocks.flatMap((b) => b.outcomes.map((_, i) => (i === 0 ? 1 : 0)));
          const tp: number[] = [];
          const fp: number[] = [];
          for (const b of blocks) {
            for (let t = 0; t < w[b.image]; t++) {
              for (const o of b.outcomes) {
                tp.push(o === OUTCOME_TP ? 1 : 0);
                fp.push(o === OUTCOME_FP ? 1 : 0);
              }
            }
          }
          const npos = positives.reduce((s, p, i) => s + p * w[i], 0);
          const { recall, precision } = precisionRecall(tp, fp, npos);
          const want = averagePrecisionArea(recall, precision);
          const stats = oneClassStats(images, packRankedClass({ key: 'x', image, outcome, score: image.map(() => 0), positives, blocks: 'given', blockStart }));
          const out = new Float64Array(1);
          rankedReplicator(stats).evaluate(Uint32Array.from(w), out);
          expect(Object.is(out[0], want) || (Number.isNaN(out[0]) && Number.isNaN(want))).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });
});
