import { describe, expect, it } from 'vitest';
import { codeUnitOrder } from './order.js';

describe('codeUnitOrder', () => {
  it('orders by code units; equal strings compare equal', () => {
    expect(['b', 'a', 'B', 'a2', 'a', 'voc2010/det', 'voc2010-x'].sort(codeUnitOrder)).toEqual(['B', 'a', 'a', 'a2', 'b', 'voc2010-x', 'voc2010/det']);
    expect(codeUnitOrder('x', 'x')).toBe(0);
  });
});
