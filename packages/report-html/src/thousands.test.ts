import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { thousands } from './thousands.js';

describe('thousands', () => {
  it('writes what toLocaleString("en-US") writes for integers', () => {
    for (const n of [0, 7, 999, 1000, 12345, 1234567, -1000, -987654321]) expect(thousands(n)).toBe(n.toLocaleString('en-US'));
    fc.assert(fc.property(fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), (n) => thousands(n) === n.toLocaleString('en-US')));
  });

  it('leaves other numbers as String writes them', () => {
    expect(thousands(1.5)).toBe('1.5');
    expect(thousands(NaN)).toBe('NaN');
    expect(thousands(Infinity)).toBe('Infinity');
  });
});
