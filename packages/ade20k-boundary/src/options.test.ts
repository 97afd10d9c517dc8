import { describe, expect, it } from 'vitest';
import { isDevkitError } from '@cvdevkit/core';
import { checkSeed, parseClassList } from './options.js';

function usage(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (isDevkitError(e) && e.kind === 'usage') return e.message;
    throw e;
  }
  throw new Error('no error');
}

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
