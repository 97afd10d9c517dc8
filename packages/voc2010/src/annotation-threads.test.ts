import { describe, expect, it } from 'vitest';
import { annotationThreads } from './annotations.js';

// annotationThreads(files, context, load, cores): the threads (main one included) that parse the annotations.
describe('annotationThreads', () => {
  const auto = { workers: 2, workersAuto: true };
  it('is 1 by default for the VOC sizes (5,000-11,000 files: the parse is cheaper than a thread start)', () => {
    expect(annotationThreads(5_000, auto, 0, 2)).toBe(1);
    expect(annotationThreads(11_000, auto, 0, 2)).toBe(1);
    expect(annotationThreads(10, { workers: 16, workersAuto: true }, 0, 16)).toBe(1);
  });
  it('is more than 1 by default for costly work with idle cores, and 1 when the other cores are busy', () => {
    expect(annotationThreads(200_000, auto, 0, 2)).toBe(2);
    expect(annotationThreads(1_000_000, { workers: 16, workersAuto: true }, 0, 16)).toBe(8);
    expect(annotationThreads(200_000, auto, 1, 2)).toBe(1);
  });
  it('honours an explicit --workers (up to 8 threads, no more than the files)', () => {
    expect(annotationThreads(5_000, { workers: 2, workersAuto: false }, 0, 2)).toBe(2);
    expect(annotationThreads(5_000, { workers: 2 }, 0, 2)).toBe(2);
    expect(annotationThreads(5_000, { workers: 1, workersAuto: true }, 0, 2)).toBe(1);
    expect(annotationThreads(1, { workers: 4, workersAuto: false }, 0, 2)).toBe(1);
  });
});
