/**
 * V8's code cache for the Vega and Vega-Lite bundles. A fresh process compiles every function of the
 * bundles it runs (they are compiled lazily, on first call): ≈ 50 ms to load them and ≈ 50 ms more
 * while the first charts are drawn. With a cache directory, each bundle is run as a `vm.Script` with the
 * cached data of an earlier run; a run without a usable cache writes it when the process exits (it then
 * holds every function that drawing compiled). A worker thread only reads it. V8 checks the data itself (its version,
 * flags and the source's length) and rejects what does not fit, which is then compiled as usual: a stale
 * or corrupt file costs nothing but the compile. Files are written whole (temporary name, rename).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import vm from 'node:vm';

let cacheDir: string | undefined;
let writable = true;
const pending: Array<() => void> = [];

/** Where the code cache lives (the CLI passes its cache directory; `undefined`: no cache); `write: false` only reads it. */
export function useChartCodeCache(dir: string | undefined, options: { write?: boolean } = {}): void {
  cacheDir = dir;
  writable = options.write ?? true;
}

/** The directory in use (passed on to the chart worker). */
export function chartCodeCacheDir(): string | undefined {
  return cacheDir;
}

function cacheFile(dir: string, file: string, source: string): string {
  // One file per bundle content and V8 version. The content hash is needed: V8 checks only the source's
  // length, and runs another source's cached code when the lengths agree (tested).
  const hash = createHash('sha256').update(source).digest('hex').slice(0, 16);
  return join(dir, `v8-${basename(file)}-${process.versions.v8}-${hash}.bin`);
}

/** Runs a UMD bundle with its own CommonJS `module`, through the code cache when one is in use. */
export function runUmd(file: string, deps: Record<string, unknown>): Record<string, unknown> {
  const module = { exports: {} as Record<string, unknown> };
  const require = (id: string) => {
    if (id in deps) return deps[id];
    throw new Error(`${file} requires ${id}`);
  };
  const source = readFileSync(file, 'utf8');
  const dir = cacheDir;
  const store = dir !== undefined ? cacheFile(dir, file, source) : undefined;
  let cachedData: Buffer | undefined;
  if (store !== undefined) {
    try {
      cachedData = readFileSync(store);
    } catch {
      cachedData = undefined; // no cache yet
    }
  }
  const script = new vm.Script(`(function (exports, module, require, define) {${source}\n})`, { filename: file, cachedData });
  (script.runInThisContext() as (...a: unknown[]) => void)(module.exports, module, require, undefined);
  if (writable && store !== undefined && (cachedData === undefined || script.cachedDataRejected === true)) {
    if (pending.length === 0) process.once('exit', saveChartCodeCache);
    pending.push(() => writeCache(store, script));
  }
  return module.exports;
}

/** Writes the code caches that were missing (at the process's exit, or earlier by a caller that knows it is done drawing). */
export function saveChartCodeCache(): void {
  for (const write of pending.splice(0)) write();
}

/** Makes `dir` and its missing parents one level at a time: Node's recursive mkdir loops forever under /proc. */
function makeDirs(dir: string, depth = 0): void {
  try {
    mkdirSync(dir);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return;
    if (code !== 'ENOENT' || depth > 64 || dirname(dir) === dir) throw e;
    makeDirs(dirname(dir), depth + 1);
    mkdirSync(dir);
  }
}

function writeCache(store: string, script: vm.Script): void {
  try {
    makeDirs(dirname(store));
    const tmp = `${store}.${process.pid}.${Date.now().toString(36)}.tmp`;
    writeFileSync(tmp, script.createCachedData());
    renameSync(tmp, store);
  } catch {
    // a cache that cannot be written is only a missed speed-up
  }
}
