import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { commanderOption, kebabCase, parseIntegerArg, parseNumberArg } from './options.js';

describe('kebabCase', () => {
  it('turns option names into flags', () => {
    expect(kebabCase('root')).toBe('root');
    expect(kebabCase('excludeGenerated')).toBe('exclude-generated');
    expect(kebabCase('useVOC07')).toBe('use-voc07');
    expect(kebabCase('iouThreshold2')).toBe('iou-threshold2');
  });
});

describe('strict number parsing', () => {
  it('round-trips every finite double printed by JavaScript', () => {
    fc.assert(fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => Object.is(parseNumberArg(String(x)), x) || (x === 0 && parseNumberArg(String(x)) === 0)));
  });
  it('round-trips safe integers', () => {
    fc.assert(fc.property(fc.maxSafeInteger(), (n) => parseIntegerArg(String(n)) === n));
  });
  it('rejects anything that is not a whole number literal', () => {
    for (const bad of ['', ' ', 'abc', '1x', '0x10', '1,5', 'NaN', 'Infinity', '1e', '--1', '1 2']) expect(() => parseNumberArg(bad), bad).toThrow();
    for (const bad of ['1.5', '1e3', '', '9007199254740993', 'x']) expect(() => parseIntegerArg(bad), bad).toThrow();
    expect(parseNumberArg('1e-3')).toBe(0.001);
    expect(parseNumberArg('.5')).toBe(0.5);
    expect(parseIntegerArg('-7')).toBe(-7);
  });
});

describe('commanderOption', () => {
  it('builds flags from specs', () => {
    const [o] = commanderOption({ name: 'iouThreshold', type: 'number', description: 'd', default: 0.5 });
    expect(o.flags).toBe('--iou-threshold <number>');
    expect(o.defaultValue).toBe(0.5);
    expect(o.attributeName()).toBe('iouThreshold');
    const [r] = commanderOption({ name: 'root', type: 'path', description: 'd', required: true });
    expect(r.mandatory).toBe(true);
    const bools = commanderOption({ name: 'difficult', type: 'boolean', description: 'd', default: true });
    expect(bools.map((b) => b.flags)).toEqual(['--difficult', '--no-difficult']);
    const [c] = commanderOption({ name: 'set', type: 'string', description: 'd', choices: ['train', 'val'] });
    expect(c.argChoices).toEqual(['train', 'val']);
  });
});
