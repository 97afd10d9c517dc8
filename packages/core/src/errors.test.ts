import { describe, expect, it } from 'vitest';
import { DevkitError, ProblemCollector, formatProblem, inputError, isDevkitError, usageError } from './errors.js';

describe('DevkitError', () => {
  it('formats file:line: expected …, found …', () => {
    const e = inputError({ code: 'input/field-count', file: 'comp3_det_val_car.txt', line: 17, expected: '6 fields', found: '5' });
    expect(e.message).toBe('comp3_det_val_car.txt:17: expected 6 fields, found 5');
    expect(e.exitCode).toBe(2);
    expect(e.code).toBe('input/field-count');
    expect(isDevkitError(e)).toBe(true);
  });

  it('maps kinds to exit codes 1/2/3', () => {
    expect(usageError('bad').exitCode).toBe(1);
    expect(new DevkitError({ kind: 'internal', detail: 'x' }).exitCode).toBe(3);
  });

  it('names pixels, fields and byte offsets', () => {
    expect(formatProblem({ code: 'input/invalid', file: 'a.png', pixel: '3,4', expected: '<= 20', found: '255' })).toBe('a.png (pixel 3,4): expected <= 20, found 255');
    expect(formatProblem({ code: 'input/invalid', file: 'm.mat', field: 'gt.bdry', offset: 128, detail: 'truncated' })).toBe('m.mat [gt.bdry] (byte 128): truncated');
  });
});

describe('ProblemCollector', () => {
  it('throws nothing when empty, one problem as itself, several together', () => {
    const c = new ProblemCollector();
    expect(() => c.throwIfAny()).not.toThrow();
    c.add({ code: 'input/field-count', file: 'f', line: 1, expected: 'x', found: 'y' });
    expect(() => c.throwIfAny()).toThrow('f:1: expected x, found y');
    c.add({ code: 'input/number', file: 'f', line: 2, expected: 'x', found: 'z' });
    try {
      c.throwIfAny();
      expect.unreachable();
    } catch (e) {
      expect((e as DevkitError).problems).toHaveLength(2);
      expect((e as DevkitError).message).toMatch(/^2 problems found:\n {2}f:1: .*\n {2}f:2: /);
    }
  });

  it('keeps at most `limit` problems and counts the rest', () => {
    const c = new ProblemCollector(2);
    for (let i = 0; i < 5; i++) c.add({ code: 'input/field-count', line: i + 1, detail: 'bad' });
    expect(c.size).toBe(5);
    expect(() => c.throwIfAny()).toThrow(/and 3 more/);
  });

  it('rethrows errors that are not input problems', () => {
    const c = new ProblemCollector();
    expect(() => c.addError(new Error('boom'))).toThrow('boom');
    c.addError(inputError({ code: 'input/invalid', detail: 'bad' }));
    expect(c.size).toBe(1);
  });
});
