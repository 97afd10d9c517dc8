// p-values are never shown as a bare 0 (issue 25 item 21): an underflow is "< 1e-16", a bootstrap's "< 1/B".
import { describe, expect, it } from 'vitest';
import { formatP } from './format.js';

describe('formatP', () => {
  it('4 decimals, exponent form below 1e-4, and a floor instead of 0', () => {
    expect(formatP(0.04321)).toBe('0.0432');
    expect(formatP(7.7e-6)).toBe('7.7e-6');
    expect(formatP(0)).toBe('< 1e-16');
    expect(formatP(0, 1 / 1000)).toBe('< 0.001');
    expect(formatP(0, 1 / 3)).toBe('< 0.333');
    expect(formatP(null)).toBe('—');
  });
});
