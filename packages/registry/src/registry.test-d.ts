import { describe, expectTypeOf, it } from 'vitest';
import type { Report } from '@cvdevkit/core';
import { evaluate, type PluginRegistry } from './index.js';

// A local augmentation, as a plugin package would declare it.
declare module '@cvdevkit/core' {
  interface TaskRegistry {
    'typetest/echo': { input: string; scale?: number };
  }
}

describe('typed evaluate', () => {
  it('checks options against the TaskRegistry augmentation', () => {
    expectTypeOf(evaluate<'typetest/echo'>).parameter(1).toEqualTypeOf<{ input: string; scale?: number }>();
    expectTypeOf(evaluate('typetest/echo', { input: 'x' })).toEqualTypeOf<Promise<Report>>();
    // @ts-expect-error: unknown task id
    void evaluate('typetest/nope', { input: 'x' });
    // @ts-expect-error: missing required option
    void evaluate('typetest/echo', { scale: 2 });
    // @ts-expect-error: wrong option type
    void evaluate('typetest/echo', { input: 1 });
    expectTypeOf<PluginRegistry['evaluate']>().toBeFunction();
  });
});
