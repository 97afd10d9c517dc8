import { describe, expect, it } from 'vitest';
import { holdCompilerOff, optimiseTheRun, optimisingCompilerHeldOff } from './optimising-compiler.js';

describe('holdCompilerOff', () => {
  it('turns the compiler off and back on around concurrent drawings; the code runs the same throughout', () => {
    const fib = (n: number): number => (n < 2 ? n : fib(n - 1) + fib(n - 2));
    const a = holdCompilerOff();
    const b = holdCompilerOff();
    a.off();
    a.off(); // idempotent
    expect(optimisingCompilerHeldOff()).toBe(true);
    expect(fib(20)).toBe(6765);
    b.off();
    a.release();
    expect(optimisingCompilerHeldOff()).toBe(true); // b still draws
    expect(fib(21)).toBe(10946);
    b.release();
    b.release(); // idempotent
    expect(optimisingCompilerHeldOff()).toBe(false);
    expect(fib(22)).toBe(17711);
  });

  it('a hold released before it was turned off never turns the compiler off (a late "worker loaded")', () => {
    const late = holdCompilerOff();
    late.release();
    late.off();
    expect(optimisingCompilerHeldOff()).toBe(false);
    holdCompilerOff().release(); // a hold never turned off releases nothing
    expect(optimisingCompilerHeldOff()).toBe(false);
  });

  it("a command's run turning the compiler on leaves a drawing's hold alone", () => {
    const fib = (n: number): number => (n < 2 ? n : fib(n - 1) + fib(n - 2));
    const hold = holdCompilerOff();
    hold.off();
    optimiseTheRun();
    expect(optimisingCompilerHeldOff()).toBe(true);
    expect(fib(20)).toBe(6765);
    hold.release();
    optimiseTheRun(); // on, as it already is: nothing changes
    expect(optimisingCompilerHeldOff()).toBe(false);
    expect(fib(21)).toBe(10946);
  });
});
