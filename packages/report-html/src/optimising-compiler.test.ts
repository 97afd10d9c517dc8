import { describe, expect, it } from 'vitest';
import { withoutOptimisingCompiler } from './optimising-compiler.js';

describe('withoutOptimisingCompiler', () => {
  it('returns what the drawing returns, passes its error on, and nests (V8 keeps running the same code)', async () => {
    const fib = (n: number): number => (n < 2 ? n : fib(n - 1) + fib(n - 2));
    expect(await withoutOptimisingCompiler(async () => fib(20))).toBe(6765);
    await expect(withoutOptimisingCompiler(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    const nested = await withoutOptimisingCompiler(async () => [await withoutOptimisingCompiler(async () => fib(10)), await Promise.all([withoutOptimisingCompiler(async () => 1), withoutOptimisingCompiler(async () => 2)])]);
    expect(nested).toEqual([55, [1, 2]]);
    // and after every drawing has ended, code still runs (the compiler is back on)
    expect(fib(22)).toBe(17711);
  });
});
