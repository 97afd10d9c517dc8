import { describe, expect, it } from 'vitest';
import { accumulateConfusion, iouFromConfusion } from './confusion.js';
import { mean, median, topKError } from './stats.js';

describe('confusion → IoU', () => {
  it('counts rows = ground truth, columns = prediction, skipping void', () => {
    const c = new Float64Array(9);
    accumulateConfusion(c, [0, 1, 1, 2, 255], [0, 1, 2, 2, 1], 3);
    expect(Array.from(c)).toEqual([1, 0, 0, 0, 1, 1, 0, 0, 1]);
    const iou = iouFromConfusion(c, 3);
    expect(Array.from(iou)).toEqual([1, 1 / 2, 1 / 2]);
  });

  it('gives NaN for a class absent from both', () => {
    const c = new Float64Array(4);
    accumulateConfusion(c, [0], [0], 2);
    expect(iouFromConfusion(c, 2)[1]).toBeNaN();
  });
});

describe('mean, median, top-k', () => {
  it('propagates NaN', () => {
    expect(mean([1, NaN])).toBeNaN();
    expect(median([1, NaN, 2])).toBeNaN();
  });

  it('takes the middle or the mean of the two middle values', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('counts items whose label is not among the first k guesses', () => {
    expect(topKError([1, 2, 3], [[1, 9], [9, 2], [9, 9]], 1)).toBe(2 / 3);
    expect(topKError([1, 2, 3], [[1, 9], [9, 2], [9, 9]], 2)).toBe(1 / 3);
  });
});
