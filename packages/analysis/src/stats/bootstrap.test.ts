import { describe, expect, it } from 'vitest';
import { SeededRandom, percentile, percentileInterval } from './bootstrap.js';

describe('seeded random stream', () => {
  it('repeats bit for bit for a seed and differs between seeds', () => {
    const a = new SeededRandom(0);
    const b = new SeededRandom(0);
    const c = new SeededRandom(1);
    const xa = Array.from({ length: 100 }, () => a.nextUint32());
    expect(Array.from({ length: 100 }, () => b.nextUint32())).toEqual(xa);
    expect(Array.from({ length: 100 }, () => c.nextUint32())).not.toEqual(xa);
  });
  it('is xoshiro128** seeded through splitmix32: pinned values', () => {
    const a = new SeededRandom(0);
    expect(Array.from({ length: 4 }, () => a.nextUint32())).toEqual([3809008728, 1133695204, 53579671, 2891528803]);
    expect(Array.from(new SeededRandom(42).resampleCounts(10))).toEqual([2, 0, 3, 0, 2, 0, 1, 1, 1, 0]);
  });
  it('resample counts add up to n and look uniform', () => {
    const r = new SeededRandom(7);
    const n = 10;
    const totals = new Float64Array(n);
    for (let b = 0; b < 2000; b++) {
      const w = r.resampleCounts(n);
      expect(w.reduce((s, x) => s + x, 0)).toBe(n);
      w.forEach((x, i) => (totals[i] += x));
    }
    for (const t of totals) expect(Math.abs(t / 2000 - 1)).toBeLessThan(0.1);
  });
});

describe('percentiles', () => {
  it('linear interpolation (numpy default)', () => {
    expect(percentile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(percentile([1, 2, 3, 4, 5], 0.025)).toBeCloseTo(1.1, 14);
    expect(percentileInterval([NaN, 3, 1, 2], 0.5)).toEqual([1.5, 2.5]);
    expect(percentileInterval([NaN], 0.05)).toBeNull();
  });
});
