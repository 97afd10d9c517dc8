import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runUmd, saveChartCodeCache, useChartCodeCache } from './code-cache.js';

const dir = mkdtempSync(join(tmpdir(), 'cvdevkit-code-cache-'));
afterAll(() => {
  useChartCodeCache(undefined);
  rmSync(dir, { recursive: true, force: true });
});

describe('the code cache of the chart bundles', () => {
  const bundle = join(dir, 'bundle.js');
  writeFileSync(bundle, 'module.exports = { twice: function (x) { return 2 * x; }, dep: require("dep") };');
  const cache = join(dir, 'cache');

  it('runs a UMD bundle the same with and without a cache; writes the cache once, reads it after', () => {
    useChartCodeCache(undefined);
    expect((runUmd(bundle, { dep: 7 }) as { twice(x: number): number }).twice(21)).toBe(42);
    useChartCodeCache(cache);
    const first = runUmd(bundle, { dep: 7 }) as { twice(x: number): number; dep: number };
    expect([first.twice(2), first.dep]).toEqual([4, 7]);
    saveChartCodeCache();
    const [file] = readdirSync(cache);
    expect(file).toMatch(/^v8-bundle\.js-.+\.bin$/);
    const written = statSync(join(cache, file)).mtimeMs;
    expect((runUmd(bundle, { dep: 8 }) as { dep: number }).dep).toBe(8);
    saveChartCodeCache(); // the cache was used: nothing to write
    expect(statSync(join(cache, file)).mtimeMs).toBe(written);
  });

  it('a corrupt cache file does not break the bundle', () => {
    // (whether V8 rejects it cannot be seen here: this process compiled the source already and V8 reuses
    // that; a fresh process rejects the file, compiles, and writes a good one at exit)
    useChartCodeCache(cache);
    const [file] = readdirSync(cache);
    writeFileSync(join(cache, file), Buffer.from('not a code cache'));
    expect((runUmd(bundle, { dep: 1 }) as { twice(x: number): number }).twice(5)).toBe(10);
  });

  it('a worker only reads it (write: false)', () => {
    const other = join(dir, 'other');
    useChartCodeCache(other, { write: false });
    runUmd(bundle, { dep: 1 });
    saveChartCodeCache();
    expect(() => readdirSync(other)).toThrow();
  });
});

describe('V8 itself checks only the length of the source', () => {
  it('so the cache file is named by a hash of the bundle: another bundle of the same length gets its own file', () => {
    const a = join(dir, 'same-a.js');
    const b = join(dir, 'same-b.js');
    writeFileSync(a, 'module.exports = { v: 1 };');
    writeFileSync(b, 'module.exports = { v: 2 };');
    const cache = join(dir, 'same');
    useChartCodeCache(cache);
    expect((runUmd(a, {}) as { v: number }).v).toBe(1);
    saveChartCodeCache();
    // same base name, same length, other content
    writeFileSync(a, readFileSync(b));
    expect((runUmd(a, {}) as { v: number }).v).toBe(2);
  });
});
