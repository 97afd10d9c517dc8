import { describe, expect, it } from 'vitest';
import { mapInWorkers, WorkerPool } from '../src/workers.js';

const script = new URL('./fixtures/square.worker.mjs', import.meta.url);

describe('worker pool', () => {
  it('maps items through real worker threads, in input order', async () => {
    const out = await mapInWorkers<number, number>(script, [1, 2, 3, 4, 5], { workers: 2 });
    expect(out).toEqual([1, 4, 9, 16, 25]);
  });

  it('rejects with the worker error and keeps serving', async () => {
    const pool = new WorkerPool<number, number>(script, { workers: 1 });
    try {
      await expect(pool.run(-1)).rejects.toThrow('negative');
      await expect(pool.run(3)).resolves.toBe(9);
    } finally {
      await pool.close();
    }
  });
});
