import { describe, expect, it } from 'vitest';
import { annotationThreads } from './ground-truth.js';

// annotationThreads(files, context, load, cores): the threads (this one included) that parse the XML ground truth.
describe('annotationThreads', () => {
  const auto = { workers: 2, workersAuto: true };
  it('is 1 by default for small or cheap work (CLS-LOC val: 50,000 files)', () => {
    expect(annotationThreads(50_000, auto, 0, 2)).toBe(1);
    expect(annotationThreads(600, { workers: 16, workersAuto: true }, 0, 16)).toBe(1);
  });
  it('is more than 1 by default for large costly work with idle cores, 1 when they are busy', () => {
    expect(annotationThreads(500_000, auto, 0, 2)).toBe(2);
    expect(annotationThreads(5_000_000, { workers: 16, workersAuto: true }, 0, 16)).toBe(16);
    expect(annotationThreads(500_000, auto, 1, 2)).toBe(1);
  });
  it('honours an explicit --workers (no more than one per 500-file chunk)', () => {
    expect(annotationThreads(20_000, { workers: 2, workersAuto: false }, 0, 2)).toBe(2);
    expect(annotationThreads(700, { workers: 8 }, 0, 2)).toBe(2);
  });
});
