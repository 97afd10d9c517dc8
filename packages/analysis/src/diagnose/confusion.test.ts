import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analysisReport, diagnoseOptions } from './analysis-report.js';
import { confusionAnalysis } from './confusion.js';
import { diagnose } from './diagnose.js';
import { prepare } from './prepare.js';
import { ONE_OF_EACH, handInput, type Det, type Obj } from '../../test/hand-built.js';

describe('confusion matrix on hand-built images', () => {
  it('one detection of each kind lands in its cell', () => {
    const r = confusionAnalysis(prepare(ONE_OF_EACH), 0.25);
    expect(r.labels).toEqual(['cat', 'dog', 'car', 'background']);
    expect(r.counts).toEqual([
      [1, 0, 0, 0],
      [1, 0, 0, 1],
      [0, 0, 0, 1],
      [0, 0, 1, 0],
    ]);
    expect(r).toMatchObject({ conf: 0.25, ignoredObjects: 1, ignoredDetections: 1, detections: 3, unscoredDetections: 0, skippedDetections: 0 });
    expect(r.perClass[1]).toEqual({ key: 'dog', objects: 2, detections: 0, correct: 0, asOtherClass: 1, missed: 1, onOtherClass: 0, background: 0, confusedWith: 'cat' });
    expect(r.perClass[0]).toEqual({ key: 'cat', objects: 1, detections: 2, correct: 1, asOtherClass: 0, missed: 0, onOtherClass: 1, background: 0, confusedWith: null });
    expect(r.perClass[2]).toMatchObject({ objects: 1, detections: 1, missed: 1, background: 1 });
    const report = analysisReport({ dataset: 'hand', task: 'hand/det', metric: 'ap', result: diagnose(ONE_OF_EACH, { only: ['confusion'] }), versions: {}, timings: {} });
    expect(report.rows[1]).toMatchObject({ key: 'dog', confCorrect: 0, confAsOther: 1, confMissed: 1, confBackground: 0, confusedWith: 'cat' });
    expect(diagnose(ONE_OF_EACH, { only: ['confusion'] }).notes).toEqual([
      'confusion: 1 detections with a score ≥ 0.25 on an ignored object (difficult, crowd or uncounted: 1 objects, no rows of the matrix) are left out, not counted as background, as the official metric ignores them',
    ]);
    expect(report.summary).toMatchObject({ 'confusion.conf': 0.25, 'confusion.correct': 1, 'confusion.asOther': 1, 'confusion.missed': 2, 'confusion.background': 1 });
  });

  it('--conf at the low detection takes it in (score ≥ conf), and at 0.95 every object is missed', () => {
    expect(confusionAnalysis(prepare(ONE_OF_EACH), 0.1).counts[1]).toEqual([1, 1, 0, 0]);
    const none = diagnose(ONE_OF_EACH, { only: ['confusion'], conf: 0.95 });
    expect(none.confusion!.counts.map((row) => row[3])).toEqual([1, 2, 1, 0]);
    expect(none.notes).toEqual(['confusion: no detection has a score ≥ 0.95 (the scores run from 0.1 to 0.9), so every object is missed: choose the threshold with --conf']);
  });

  it('a detection prefers its own class, takes the best unmatched object, and a duplicate is background', () => {
    // The cat box overlaps the cat (IoU 0.82) less than the dog (IoU 1), yet matches the cat; a second cat
    // detection on the same cat finds it taken, and the dog goes to the dog detection (same class first, though
    // of a lower score) → background.
    const input = handInput(
      [
        [0, 0, 0.9, [11, 1, 110, 100]],
        [0, 0, 0.8, [1, 1, 100, 100]],
        [0, 1, 0.7, [11, 1, 110, 100]],
      ],
      [
        [0, 0, [1, 1, 100, 100]],
        [0, 1, [11, 1, 110, 100]],
      ],
    );
    const r = confusionAnalysis(prepare(input));
    expect(r.counts).toEqual([
      [1, 0, 0, 0],
      [0, 1, 0, 0],
      [0, 0, 0, 0],
      [1, 0, 0, 0],
    ]);
    // Without the dog detection, the duplicate cat box (IoU 0.82 with the dog) takes the dog: (dog, cat).
    const r2 = confusionAnalysis(
      prepare(
        handInput(
          [
            [0, 0, 0.9, [11, 1, 110, 100]],
            [0, 0, 0.8, [1, 1, 100, 100]],
          ],
          [
            [0, 0, [1, 1, 100, 100]],
            [0, 1, [11, 1, 110, 100]],
          ],
        ),
      ),
    );
    expect(r2.counts[1]).toEqual([1, 0, 0, 0]);
  });

  it('an ignored object is never used up; a detection near one of its class is left out before another class is tried', () => {
    // two cat detections on a difficult cat that overlaps a dog: both left out (not background, not (dog, cat)),
    // and a car detection there takes the dog (another class, counted) before it would be left out
    const input = handInput(
      [
        [0, 0, 0.9, [1, 1, 100, 100]],
        [0, 0, 0.8, [1, 1, 100, 100]],
        [0, 2, 0.7, [1, 1, 100, 100]],
        [0, 2, 0.6, [300, 300, 310, 310]],
      ],
      [
        [0, 0, [1, 1, 100, 100], 1],
        [0, 1, [6, 1, 105, 100]],
      ],
    );
    const r = confusionAnalysis(prepare(input));
    expect(r.ignoredDetections).toBe(2);
    expect(r.counts[1]).toEqual([0, 0, 1, 0]);
    expect(r.counts[3]).toEqual([0, 0, 1, 0]);
  });

  it('--conf: any finite score (negative ones too); anything else is a usage error', () => {
    expect(diagnoseOptions({ conf: -0.5 }).conf).toBe(-0.5);
    expect(() => diagnoseOptions({ conf: NaN })).toThrow('--conf must be a finite number (a detection score), not NaN');
    expect(() => diagnoseOptions({ only: 'confusion' }, ['size'])).toThrow('this task has no "confusion" analysis');
  });

  it('NaN scores and skipped detections stay out, and say so', () => {
    const input = handInput(
      [
        [0, 0, NaN, [1, 1, 100, 100]],
        [0, 0, 0.9, [1, 1, 100, 100]],
      ],
      [[0, 0, [1, 1, 100, 100]]],
    );
    input.detections.skip = Uint8Array.of(0, 1);
    const res = diagnose(input, { only: ['confusion'] });
    expect(res.confusion).toMatchObject({ unscoredDetections: 1, skippedDetections: 1, detections: 0 });
    expect(res.confusion!.counts[0]).toEqual([0, 0, 0, 1]);
    expect(res.notes).toHaveLength(1);
    expect(res.notes[0]).toBe('confusion: 1 detections with a NaN score are left out (no threshold keeps them)');
  });
});

describe('confusion matrix properties', () => {
  const box = fc.tuple(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 40 }), fc.integer({ min: 4, max: 30 }), fc.integer({ min: 4, max: 30 })).map(([x, y, w, h]) => [x, y, x + w, y + h]);
  const score = fc.oneof(fc.constantFrom(0, 0.25, 0.5, 1), fc.double({ min: 0, max: 1, noNaN: true }));
  const det = fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 2 }), score, box) as fc.Arbitrary<Det>;
  const obj = (difficult: boolean) => fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 2 }), box, difficult ? fc.constantFrom(0, 0, 1) : fc.constant(0)) as fc.Arbitrary<Obj>;
  const images = ['a', 'b', 'c'];

  it('row sums are the counted objects of each class; column sums the detections with a score ≥ conf', () => {
    fc.assert(
      fc.property(fc.array(det, { maxLength: 30 }), fc.array(obj(false), { maxLength: 20 }), fc.constantFrom(0, 0.25, 0.5, 0.9), (dets, objs, conf) => {
        const r = confusionAnalysis(prepare(handInput(dets, objs, images)), conf);
        for (let c = 0; c < 3; c++) {
          expect(r.counts[c].reduce((s, v) => s + v, 0)).toBe(objs.filter((o) => o[1] === c).length);
          expect(r.counts.reduce((s, row) => s + row[c], 0)).toBe(dets.filter((d) => d[1] === c && d[2] >= conf).length);
        }
        expect(r.counts[3][3]).toBe(0);
        expect(r.ignoredDetections).toBe(0);
      }),
      { numRuns: 300 },
    );
  });

  it('with difficult objects: rows count the others, and the columns plus the ignored detections are all detections ≥ conf', () => {
    fc.assert(
      fc.property(fc.array(det, { maxLength: 30 }), fc.array(obj(true), { maxLength: 20 }), fc.constantFrom(0, 0.25, 0.5), (dets, objs, conf) => {
        const r = confusionAnalysis(prepare(handInput(dets, objs, images)), conf);
        for (let c = 0; c < 3; c++) expect(r.counts[c].reduce((s, v) => s + v, 0)).toBe(objs.filter((o) => o[1] === c && !o[3]).length);
        let columns = 0;
        for (let c = 0; c < 3; c++) columns += r.counts.reduce((s, row) => s + row[c], 0);
        expect(columns).toBe(r.detections);
        expect(columns + r.ignoredDetections).toBe(dets.filter((d) => d[2] >= conf).length);
        expect(r.ignoredObjects).toBe(objs.filter((o) => o[3]).length);
      }),
      { numRuns: 300 },
    );
  });
});
