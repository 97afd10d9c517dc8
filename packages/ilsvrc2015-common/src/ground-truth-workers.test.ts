import { describe, expect, it } from 'vitest';
import { groundTruthWorkers } from './ground-truth.js';

// groundTruthWorkers(files, context, load, cores): worker threads for the XML ground truth (1 = this thread).
describe('groundTruthWorkers', () => {
  const auto = { workers: 2, workersAuto: true };
  it('is 1 by default for small or cheap work (DET val: 20,121 files)', () => {
    expect(groundTruthWorkers(20_121, auto, 0, 2)).toBe(1);
    expect(groundTruthWorkers(100, { workers: 16, workersAuto: true }, 0, 16)).toBe(1);
  });
  it('is more than 1 by default for large costly work with idle cores, 1 when they are busy', () => {
    expect(groundTruthWorkers(200_000, auto, 0, 2)).toBe(2);
    expect(groundTruthWorkers(2_000_000, { workers: 16, workersAuto: true }, 0, 16)).toBe(16);
    expect(groundTruthWorkers(200_000, auto, 1.5, 2)).toBe(1);
  });
  it('honours an explicit --workers (no more than one per 200 files)', () => {
    expect(groundTruthWorkers(20_121, { workers: 2, workersAuto: false }, 0, 2)).toBe(2);
    expect(groundTruthWorkers(300, { workers: 4 }, 0, 2)).toBe(2);
  });
});
