import { vocMatcher } from '@cvdevkit/metrics';
import { describe, expect, it } from 'vitest';
import type { DiagnoseInput } from './input.js';
import { prepare } from './prepare.js';
import { unionArea } from '@cvdevkit/metrics';
import { classificationSizeAnalysis, detectionSizeAnalysis } from './size.js';

describe('size analysis', () => {
  it('objects below the threshold become difficult: their detections are ignored and they leave npos', () => {
    // A 100×100 image with a big object (50×50 = 25 %) and a small one (5×5 = 0.25 %), both detected.
    const input: DiagnoseInput = {
      classes: ['x'],
      images: ['a'],
      imageWidth: Float64Array.of(100),
      imageHeight: Float64Array.of(100),
      match: vocMatcher,
      detections: { image: Int32Array.of(0, 0, 0), cls: Int32Array.of(0, 0, 0), score: Float64Array.of(0.9, 0.8, 0.7), boxes: Float64Array.of(60, 60, 64, 64, 80, 1, 90, 10, 1, 1, 50, 50) },
      objects: { image: Int32Array.of(0, 0), cls: Int32Array.of(0, 0), boxes: Float64Array.of(1, 1, 50, 50, 60, 60, 64, 64), difficult: new Uint8Array(2) },
      similarGroups: [],
      meanRule: 'numeric',
    };
    const r = detectionSizeAnalysis(prepare(input), [0, 0.01, 0.5]);
    expect(r.perClass[0].npos).toEqual([2, 1, 0]);
    // s = 0: TP, FP, TP → AP = 1·0.5 + (2/3)·0.5; s = 0.01: ignored, FP, TP → AP 0.5; s = 0.5: no positives → NaN.
    expect(r.perClass[0].ap[0]).toBeCloseTo(0.5 + 1 / 3, 12);
    expect(r.perClass[0].ap[1]).toBe(0.5);
    expect(r.perClass[0].ap[2]).toBeNaN();
    expect(r.classesWithPositives).toEqual([1, 1, 0]);
    expect(r.mAPWithPositives!.slice(0, 2)).toEqual([r.mAP[0], r.mAP[1]]);
    expect(r.mAPWithPositives![2]).toBeNaN();
  });

  it('classification: positives whose boxes cover less than s of the image are removed', () => {
    const r = classificationSizeAnalysis(
      [{ key: 'x', gt: Int8Array.of(1, 1, -1), score: Float64Array.of(0.2, 0.9, 0.5), image: Int32Array.of(0, 1, 2), coverage: Float64Array.of(0.5, 0.01, 0) }],
      [0, 0.1],
    );
    expect(r.perClass[0].npos).toEqual([2, 1]);
    expect(r.perClass[0].ap[1]).toBe(0.5); // ranked: negative, positive
  });

  it('union area counts overlapping boxes once (+1-pixel boxes, clipped to the image)', () => {
    expect(unionArea([1, 1, 10, 10], 100, 100)).toBe(100);
    expect(unionArea([1, 1, 10, 10, 6, 6, 15, 15], 100, 100)).toBe(175);
    expect(unionArea([1, 1, 200, 10], 100, 100)).toBe(1000);
  });
});
