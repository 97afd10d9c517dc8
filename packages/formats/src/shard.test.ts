import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isDevkitError } from '@cvdevkit/core';
import { autoShard, parseShard, shardRange } from './shard.js';

function usage(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (isDevkitError(e) && e.kind === 'usage') return e.message;
    throw e;
  }
  throw new Error('no error');
}

describe('parseShard', () => {
  it('parses "i/n" (1-based)', () => {
    expect(parseShard('2/3')).toEqual({ index: 2, count: 3 });
    expect(parseShard(' 1 / 1 ')).toEqual({ index: 1, count: 1 });
  });
  it('rejects malformed or out-of-range shards as usage errors', () => {
    expect(usage(() => parseShard('0/3'))).toMatch(/numbered from 1/);
    expect(usage(() => parseShard('4/3'))).toMatch(/1 ≤ i ≤ n/);
    expect(usage(() => parseShard('a/b'))).toMatch(/expected "i\/n"/);
    expect(usage(() => parseShard('2'))).toMatch(/expected "i\/n"/);
  });
});

describe('shardRange', () => {
  it('splits units into contiguous blocks that cover everything once (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5000 }), fc.integer({ min: 1, max: 40 }), (total, n) => {
        let prev = 0;
        for (let i = 1; i <= n; i++) {
          const [a, b] = shardRange(total, { index: i, count: n });
          if (a !== prev || b < a) return false;
          if (b - a > Math.ceil(total / n)) return false;
          prev = b;
        }
        return prev === total;
      }),
    );
  });
  it('is the whole range without a shard', () => {
    expect(shardRange(450, undefined)).toEqual([0, 450]);
  });
});

describe('autoShard', () => {
  it('reads a SLURM job array (MIN, STEP) or a Kubernetes Indexed Job (0-based index, count given)', () => {
    expect(parseShard('auto', { SLURM_ARRAY_TASK_ID: '5', SLURM_ARRAY_TASK_MIN: '1', SLURM_ARRAY_TASK_STEP: '2', SLURM_ARRAY_TASK_COUNT: '4' })).toEqual({ index: 3, count: 4 });
    expect(parseShard('auto/3', { JOB_COMPLETION_INDEX: '2' })).toEqual({ index: 3, count: 3 });
    expect(usage(() => autoShard(undefined, {}))).toMatch(/neither SLURM_ARRAY_TASK_ID/);
    expect(usage(() => autoShard(undefined, { JOB_COMPLETION_INDEX: '0' }))).toMatch(/number of completions/);
    expect(usage(() => parseShard('auto', { SLURM_ARRAY_TASK_ID: 'x', SLURM_ARRAY_TASK_COUNT: '2' }))).toMatch(/non-negative integer, found "x"/);
  });
  it('an empty value is a usage error, never "no sharding"', () => {
    expect(usage(() => parseShard(' '))).toMatch(/empty value/);
  });
});
