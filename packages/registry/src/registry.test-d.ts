import { describe, expectTypeOf, it } from 'vitest';
import type { AnalysisRequest, Diagnostic, MergeContext, Report } from '@cvdevkit/core';
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

describe('one path for every hook', () => {
  it("runHook's input and result follow the hook", () => {
    const registry = {} as PluginRegistry;
    expectTypeOf(registry.runHook('x/y', 'analyze', {})).toEqualTypeOf<Promise<AnalysisRequest>>();
    expectTypeOf(registry.runHook('x/y', 'validate', {})).toEqualTypeOf<Promise<Diagnostic[]>>();
    expectTypeOf(registry.runHook('x/y', 'merge', { files: ['a'] })).toEqualTypeOf<Promise<Report>>();
    expectTypeOf(registry.prepareHook('x/y', 'sample').call).parameter(0).toEqualTypeOf<string>();
    // @ts-expect-error: merge takes its files
    void registry.runHook('x/y', 'merge', {});
  });
  it("a merge hook's context has the task's options (optional: a direct caller may leave them out)", () => {
    expectTypeOf<MergeContext<{ input: string; arrays?: boolean }>['options']>().toEqualTypeOf<Partial<{ input: string; arrays?: boolean }> | undefined>();
  });
});
