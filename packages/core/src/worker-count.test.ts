import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { chooseWorkerCount, otherRunnable } from './worker-count.js';

describe('chooseWorkerCount', () => {
  it('uses one thread for short work, when other programs keep the cores busy, and when one unit is left', () => {
    const base = { cap: 2, units: 450, unitCpuMs: 1, workerCpuMs: 60, cores: 2, load: 0 };
    expect(chooseWorkerCount(base)).toBe(1); // 450 ms of work: two workers would cost 120 ms
    expect(chooseWorkerCount({ ...base, unitCpuMs: 20 })).toBe(2);
    expect(chooseWorkerCount({ ...base, unitCpuMs: 20, load: 1 })).toBe(1); // `yes > /dev/null` on one core
    expect(chooseWorkerCount({ ...base, unitCpuMs: 20, load: 6 })).toBe(1);
    expect(chooseWorkerCount({ ...base, units: 1, unitCpuMs: 1e6 })).toBe(1);
  });

  it('scales to every core of a quiet machine for long work', () => {
    expect(chooseWorkerCount({ cap: 16, units: 300_000, unitCpuMs: 6, workerCpuMs: 150, cores: 16, load: 0.3 })).toBe(16);
    expect(chooseWorkerCount({ cap: 16, units: 300_000, unitCpuMs: 6, workerCpuMs: 150, cores: 16, load: 4 })).toBe(12);
  });

  it('stays within the cap, the units, the idle cores and the overhead budget', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 64 }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.double({ min: 0, max: 1000, noNaN: true }),
        fc.double({ min: 0.1, max: 1000, noNaN: true }),
        fc.integer({ min: 1, max: 64 }),
        fc.double({ min: 0, max: 100, noNaN: true }),
        (cap, units, unitCpuMs, workerCpuMs, cores, load) => {
          const n = chooseWorkerCount({ cap, units, unitCpuMs, workerCpuMs, cores, load });
          expect(n).toBeGreaterThanOrEqual(1);
          expect(n).toBeLessThanOrEqual(Math.max(1, Math.min(cap, units, cores)));
          if (n > 1) expect(n * workerCpuMs).toBeLessThanOrEqual(0.1 * units * unitCpuMs + 1e-9);
        },
      ),
    );
  });

  it('counts other programs\' runnable threads: a finite number, at least the load average', async () => {
    const { loadavg } = await import('node:os');
    const n = otherRunnable();
    expect(Number.isFinite(n)).toBe(true);
    expect(n).toBeGreaterThanOrEqual(0);
    expect(n).toBeGreaterThanOrEqual(loadavg()[0] - 0.5); // the average may move between the two reads
  });
});
