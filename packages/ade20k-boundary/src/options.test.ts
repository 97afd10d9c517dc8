import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isDevkitError } from '@cvdevkit/core';
import { checkSeed, parseClassList, parseShard, shardRange } from './options.js';

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

describe('parseClassList', () => {
  it('parses numbers, ranges and class_NNN names, sorted and unique', () => {
    expect(parseClassList('57,1-3,2,class_010')).toEqual([1, 2, 3, 10, 57]);
    expect(parseClassList('148-150')).toEqual([148, 149, 150]);
  });
  it('rejects classes outside 1..150 and junk', () => {
    expect(usage(() => parseClassList('0'))).toMatch(/1\.\.150/);
    expect(usage(() => parseClassList('151'))).toMatch(/1\.\.150/);
    expect(usage(() => parseClassList('5-3'))).toMatch(/ascending/);
    expect(usage(() => parseClassList('wall'))).toMatch(/expected a number/);
    expect(usage(() => parseClassList(','))).toMatch(/expected a list/);
  });
});

describe('checkSeed', () => {
  it('defaults to 12345 and accepts integers up to 2^48-1', () => {
    expect(checkSeed(undefined)).toBe(12345);
    expect(checkSeed(0)).toBe(0);
    expect(checkSeed(2 ** 48 - 1)).toBe(2 ** 48 - 1);
    expect(usage(() => checkSeed(1.5))).toMatch(/--seed/);
    expect(usage(() => checkSeed(-1))).toMatch(/--seed/);
  });
});
