import { describe, expect, it } from 'vitest';
import type { MatchView } from '@cvdevkit/core';
import { cocoMatcher } from './analyze-matcher.js';
import { cocoMeanOfSamples, cocoPrecisionSamples } from './analyze-ap.js';
import { linspace } from './params.js';

/** One image, one detection of class 0; objects given as [class, IoU with the detection, ignored]. */
function view(objs: [number, number, number][]): MatchView {
  const n = objs.length;
  return {
    objStart: Uint32Array.of(0, n),
    objList: Uint32Array.from(objs.keys()),
    iouOff: Uint32Array.of(0, n),
    iou: Float64Array.from(objs.map((o) => o[1])),
    bestSame: Int32Array.of(-1),
    bestSameIoU: Float64Array.of(-Infinity),
    objThr: new Float64Array(n).fill(0.5),
    detClass: Int32Array.of(0),
    objClass: Int32Array.from(objs.map((o) => o[0])),
    objIgnored: Uint8Array.from(objs.map((o) => o[2])),
  };
}
const free = (n: number) => new Int32Array(n).fill(-1);

describe("cocoMatcher (pycocotools' evaluateImg matching)", () => {
  it('an IoU of exactly the threshold matches; the last of equal IoUs wins; other classes never match', () => {
    expect(cocoMatcher.match(view([[0, 0.5, 0]]), 0, 0, 0.5, free(1))).toBe(0);
    expect(cocoMatcher.match(view([[0, 0.6, 0], [1, 0.9, 0], [0, 0.6, 0]]), 0, 0, 0.5, free(3))).toBe(2);
    expect(cocoMatcher.match(view([[1, 0.9, 0]]), 0, 0, 0.5, free(1))).toBe(-1);
  });

  it('prefers a regular object to a better ignored one, and falls back to an ignored one', () => {
    expect(cocoMatcher.match(view([[0, 0.95, 1], [0, 0.55, 0]]), 0, 0, 0.5, free(2))).toBe(1);
    expect(cocoMatcher.match(view([[0, 0.95, 1], [0, 0.3, 0]]), 0, 0, 0.5, free(2))).toBe(0);
  });

  it('skips taken objects; an IoU of 1 needs 1 − 1e-10 at threshold 1', () => {
    const taken = free(2);
    taken[1] = 7;
    expect(cocoMatcher.match(view([[0, 0.6, 0], [0, 0.9, 0]]), 0, 0, 0.5, taken)).toBe(0);
    expect(cocoMatcher.match(view([[0, 1, 0]]), 0, 0, 1, free(1))).toBe(0);
  });
});

describe("COCO's sampled AP", () => {
  const rec = linspace(0, 1, 101);
  it('a first true positive has precision 1 − 2^-52 (the epsilon in the denominator)', () => {
    const s = cocoPrecisionSamples([1], [0], 1, rec)!;
    expect(s[0]).toBe(1 - 2 ** -52);
    expect(s[100]).toBe(1 - 2 ** -52);
  });
  it('a category without positives is left out of the mean; no rows gives zeros', () => {
    expect(cocoPrecisionSamples([0], [1], 0, rec)).toBeUndefined();
    expect(Array.from(cocoPrecisionSamples([], [], 3, rec)!).every((v) => v === 0)).toBe(true);
    expect(cocoMeanOfSamples([[undefined]])).toBeNaN();
  });
});
