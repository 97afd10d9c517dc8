import { describe, expect, it } from 'vitest';
import { holdCompilerOff } from './optimising-compiler.js';

describe('holdCompilerOff', () => {
  it('turns the compiler off and back on around concurrent drawings; the code runs the same throughout', () => {
    const fib = (n: number): number => (n < 2 ? n : fib(n - 1) + fib(n - 2));
    const a = holdCompilerOff();
    const b = holdCompilerOff();
    a.off();
    a.off(); // idempotent
    expect(fib(20)).toBe(6765);
    b.off();
    a.release();
    expect(fib(21)).toBe(10946);
    b.release();
    b.release(); // idempotent
    expect(fib(22)).toBe(17711);
    // a hold never turned off releases nothing
    holdCompilerOff().release();
  });
});
