import { readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeTempDir } from '@cvdevkit/test-utils';
import { cachedParse, type CachedParseOptions } from './parse-cache.js';
import { makeDirsSync } from './make-dirs.js';

function setup() {
  const dir = makeTempDir('parse-cache-');
  const files = ['a.txt', 'b.txt'].map((f) => join(dir, f));
  writeFileSync(files[0], '1 2 3');
  writeFileSync(files[1], '4 5');
  const logs: string[] = [];
  let parses = 0;
  const opts = (over: Partial<CachedParseOptions<number[]>> = {}): CachedParseOptions<number[]> => ({
    cacheDir: join(dir, 'cache'),
    name: 'test-gt',
    cacheVersion: 1,
    plugin: '@cvdevkit/test',
    pluginVersion: '1.0.0',
    files,
    parse: () => {
      parses++;
      return files.flatMap((f) => readFileSync(f, 'utf8').split(' ').map(Number));
    },
    encode: (v) => [Buffer.from(Float64Array.from(v).buffer)],
    decode: (b) => Array.from(new Float64Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.length))),
    log: (m) => void logs.push(m),
    ...over,
  });
  return { dir, files, logs, opts, parses: () => parses };
}

describe('cachedParse', () => {
  it('parses once, then reads the cache; a changed file, version or extra key parses again', async () => {
    const t = setup();
    expect((await cachedParse(t.opts())).fromCache).toBe(false);
    const hit = await cachedParse(t.opts());
    expect(hit).toEqual({ value: [1, 2, 3, 4, 5], fromCache: true });
    expect((await cachedParse(t.opts({ pluginVersion: '1.0.1' }))).fromCache).toBe(false);
    expect((await cachedParse(t.opts({ extra: 'synsets v2' }))).fromCache).toBe(false);
    utimesSync(t.files[1], new Date(), new Date(Date.now() + 10_000));
    expect((await cachedParse(t.opts())).fromCache).toBe(false);
    expect(t.logs).toEqual([]);
  });

  it('a cache file of other files copied over this one, or a damaged one, is parsed again with one info line each', async () => {
    const t = setup();
    const cache = join(t.dir, 'cache');
    await cachedParse(t.opts({ files: [t.files[0]], parse: () => [9] }));
    const [other] = readdirSync(cache);
    await cachedParse(t.opts());
    const mine = readdirSync(cache).find((n) => n !== other)!;
    writeFileSync(join(cache, mine), readFileSync(join(cache, other))); // the swap
    expect(await cachedParse(t.opts())).toEqual({ value: [1, 2, 3, 4, 5], fromCache: false });
    expect(t.logs).toHaveLength(1);
    expect(t.logs[0]).toMatch(/made from other files/);
    expect((await cachedParse(t.opts())).fromCache).toBe(true);
    const b = readFileSync(join(cache, mine));
    b[b.length - 1] ^= 1; // one bit of the content
    writeFileSync(join(cache, mine), b);
    expect(await cachedParse(t.opts())).toEqual({ value: [1, 2, 3, 4, 5], fromCache: false });
    expect(t.logs).toHaveLength(2);
    expect(t.logs[1]).toMatch(/checksum/);
  });

  it('a cache folder that cannot be made (under /proc) gives one warning and the parsed value', async () => {
    const t = setup();
    const r = await cachedParse(t.opts({ cacheDir: '/proc/cvdevkit-test-no/cache' }));
    expect(r).toEqual({ value: [1, 2, 3, 4, 5], fromCache: false });
    expect(t.logs).toHaveLength(1);
    expect(t.logs[0]).toMatch(/^warning: could not write the cache \/proc\/cvdevkit-test-no\/cache\//);
  });
});

describe('makeDirsSync', () => {
  it('makes nested folders, and ends with an error under /proc (where a recursive mkdir loops forever)', () => {
    const dir = makeTempDir('make-dirs-');
    makeDirsSync(join(dir, 'a', 'b', 'c'));
    makeDirsSync(join(dir, 'a', 'b', 'c'));
    expect(readdirSync(join(dir, 'a', 'b'))).toEqual(['c']);
    expect(() => makeDirsSync('/proc/cvdevkit-test-no/x')).toThrow();
    writeFileSync(join(dir, 'file'), '');
    expect(() => makeDirsSync(join(dir, 'file', 'sub'))).toThrow(/not a directory/);
  });
});
