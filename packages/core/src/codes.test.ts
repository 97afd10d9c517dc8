import { describe, expect, it } from 'vitest';
import { ERROR_CODES, isErrorCode, type ErrorCode } from './codes.js';
import { inputError } from './errors.js';

describe('ERROR_CODES', () => {
  it('names every code "<area>/<kebab-name>" with a one-line meaning', () => {
    for (const [code, meaning] of Object.entries(ERROR_CODES)) {
      expect(code).toMatch(/^[a-z0-9]+\/[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(meaning).not.toMatch(/\n/);
      expect(meaning.length).toBeGreaterThan(10);
    }
  });

  it('tells catalogue codes from others', () => {
    expect(isErrorCode('input/number')).toBe(true);
    expect(isErrorCode('input/not-a-number')).toBe(false);
    expect(isErrorCode('toString')).toBe(false);
  });

  it('rejects a code that is not in the catalogue at compile time', () => {
    const good: ErrorCode = 'input/field-count';
    // @ts-expect-error: a synonym that was merged into input/number
    const bad: ErrorCode = 'input/not-a-number';
    // @ts-expect-error: not a catalogue code
    expect(() => { throw inputError({ code: 'input/whatever', detail: 'x' }); }).toThrow();
    expect([good, bad]).toHaveLength(2);
  });
});
