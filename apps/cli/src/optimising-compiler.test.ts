import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
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

describe('optimiseTheRun', () => {
  // V8's flags belong to the process: each case runs in a Node of its own, started as the bin starts a command
  // (the optimising compiler off, the process marked), and asks V8 whether a hot function got optimised.
  const module = fileURLToPath(new URL('../dist/optimising-compiler.js', import.meta.url));
  function optimised(wanted: boolean): { hot: boolean } {
    const script = `
      require('node:v8').setFlagsFromString('--no-turbofan');
      process[Symbol.for('cvdevkit.optimiserOffForStart')] = true;
      import(${JSON.stringify(module)}).then(({ optimiseTheRun }) => {
        optimiseTheRun(${wanted});
        const f = (n) => { let s = 0; for (let i = 0; i < n; i++) s += i % 7; return s; };
        %PrepareFunctionForOptimization(f);
        f(100); f(100);
        %OptimizeFunctionOnNextCall(f);
        f(100);
        process.stdout.write(JSON.stringify({ hot: (%GetOptimizationStatus(f) & 16) !== 0 }));
      });`;
    const r = spawnSync(process.execPath, ['--allow-natives-syntax', '-e', script], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    return JSON.parse(r.stdout) as { hot: boolean };
  }

  it('turns the optimising compiler on for a run that wants it', () => {
    expect(optimised(true).hot).toBe(true);
  });

  it('leaves it off for a run whose task says it needs none (optimisingCompiler: false)', () => {
    expect(optimised(false).hot).toBe(false);
  });
});
