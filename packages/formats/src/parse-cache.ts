/**
 * The one cached-parse helper: "parse many files, keyed and cached". A loader hands it the files it
 * parses, what else the result depends on, and how to parse, encode and decode; the helper keeps the
 * result in `<cacheDir>/<name>-<key>.bin`.
 *
 * The cache file carries its full key (a SHA-256 of the cache name and format version, the plugin and
 * its version, every file's absolute path, size and mtime, and the loader's extra key text) and a
 * SHA-256 of its content, and both are checked on every read: a cache made from other files (a swapped
 * or copied cache file), by another plugin version, or damaged on disk is never used — the files are
 * parsed again, with one info line saying why. A cache that cannot be written is only slower next time.
 */
import { createHash } from 'node:crypto';
import { closeSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { makeDirsSync } from './make-dirs.js';

/** The header line's format tag (the first line of every cache file). */
export const PARSE_CACHE_FORMAT = 'cvdevkit.parse-cache/1';

export interface ParseCacheKey {
  /** What is cached (the file-name prefix), e.g. `ilsvrc-gt`. */
  name: string;
  /** The loader's own layout version: bump it when `encode` changes. */
  cacheVersion: number;
  /** The plugin (package) that parses, and its version. */
  plugin: string;
  pluginVersion: string;
  /** The files parsed (their absolute paths, sizes and mtimes join the key). */
  files: readonly string[];
  /** Anything else the result depends on (the synset list, the image list, ...). */
  extra?: string;
}

export interface CachedParseOptions<T> extends ParseCacheKey {
  /** The cache folder; undefined = no cache (parse). */
  cacheDir: string | undefined;
  parse: () => Promise<T> | T;
  /** The bytes to store (pieces are written in order). */
  encode: (value: T) => Uint8Array[];
  /** The value back from the stored bytes; undefined when they do not make sense (the files are parsed again). */
  decode: (body: Buffer) => T | undefined;
  /** Whether a parsed value may be stored (default: always). */
  cacheable?: (value: T) => boolean;
  /** Where the info and warning lines go. */
  log?: (message: string) => void;
}

export interface CachedParse<T> {
  value: T;
  fromCache: boolean;
}

interface Header {
  format: string;
  name: string;
  cacheVersion: number;
  plugin: string;
  pluginVersion: string;
  files: number;
  key: string;
  bytes: number;
  sha256: string;
}

/**
 * The full key of a cache: a SHA-256 (hex) of the name, versions, extra text and every file's absolute
 * path, size and mtime; undefined when a file cannot be statted (then parse, which reports it).
 */
export function parseCacheKey(k: ParseCacheKey): string | undefined {
  const h = createHash('sha256');
  h.update(`${PARSE_CACHE_FORMAT}\0${k.name}\0${k.cacheVersion}\0${k.plugin}\0${k.pluginVersion}\0${k.files.length}\0`);
  h.update(k.extra ?? '');
  h.update('\0');
  for (const f of k.files) {
    let st;
    try {
      st = statSync(f);
    } catch {
      return undefined;
    }
    h.update(`${resolve(f)}\t${st.size}\t${st.mtimeMs}\n`);
  }
  return h.digest('hex');
}

/** The cache file of a key. */
export function parseCachePath(cacheDir: string, name: string, key: string): string {
  return join(cacheDir, `${name}-${key.slice(0, 32)}.bin`);
}

/** Parses `files` or takes the result from a cache whose key and checksum both match. */
export async function cachedParse<T>(o: CachedParseOptions<T>): Promise<CachedParse<T>> {
  const key = o.cacheDir ? parseCacheKey(o) : undefined;
  const file = o.cacheDir && key ? parseCachePath(o.cacheDir, o.name, key) : undefined;
  if (file && key) {
    const hit = readCache(file, key, o);
    if (hit.value !== undefined) return { value: hit.value, fromCache: true };
    if (hit.why) o.log?.(`info: not using the cache ${file} (${hit.why}); parsing the files again`);
  }
  const value = await o.parse();
  if (file && key && (o.cacheable?.(value) ?? true)) writeCache(file, key, o, value);
  return { value, fromCache: false };
}

function readCache<T>(file: string, key: string, o: CachedParseOptions<T>): { value?: T; why?: string } {
  let buf: Buffer;
  try {
    buf = readFileSync(file);
  } catch {
    return {}; // no cache yet
  }
  const nl = buf.indexOf(10);
  if (nl < 0 || nl > 4096) return { why: 'no header line' };
  let head: Partial<Header>;
  try {
    head = JSON.parse(buf.subarray(0, nl).toString('utf8')) as Partial<Header>;
  } catch {
    return { why: 'an unreadable header line' };
  }
  if (head === null || typeof head !== 'object' || head.format !== PARSE_CACHE_FORMAT) return { why: 'another cache format' };
  if (head.name !== o.name || head.cacheVersion !== o.cacheVersion) return { why: `made for ${String(head.name)} v${String(head.cacheVersion)}` };
  if (head.plugin !== o.plugin || head.pluginVersion !== o.pluginVersion) return { why: `made by ${String(head.plugin)} ${String(head.pluginVersion)}` };
  if (head.files !== o.files.length || head.key !== key) return { why: `made from other files (${String(head.files)} files, key ${String(head.key).slice(0, 12)}…)` };
  const body = buf.subarray(nl + 1);
  if (head.bytes !== body.length) return { why: `${body.length} bytes where its header says ${String(head.bytes)}` };
  const sum = createHash('sha256').update(body).digest('hex');
  if (head.sha256 !== sum) return { why: 'its content checksum does not match' };
  let value: T | undefined;
  try {
    value = o.decode(body);
  } catch {
    value = undefined;
  }
  return value === undefined ? { why: 'content that does not decode' } : { value };
}

function writeCache<T>(file: string, key: string, o: CachedParseOptions<T>, value: T): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    const pieces = o.encode(value);
    const h = createHash('sha256');
    let bytes = 0;
    for (const p of pieces) {
      h.update(p);
      bytes += p.byteLength;
    }
    const head: Header = { format: PARSE_CACHE_FORMAT, name: o.name, cacheVersion: o.cacheVersion, plugin: o.plugin, pluginVersion: o.pluginVersion, files: o.files.length, key, bytes, sha256: h.digest('hex') };
    makeDirsSync(dirname(file));
    const fd = openSync(tmp, 'w');
    try {
      writeSync(fd, Buffer.from(`${JSON.stringify(head)}\n`, 'utf8'));
      for (const p of pieces) for (let at = 0; at < p.byteLength; ) at += writeSync(fd, p, at);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
  } catch (e) {
    try {
      rmSync(tmp, { force: true });
    } catch {
      // nothing was written there
    }
    o.log?.(`warning: could not write the cache ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}; the next run parses the files again`);
  }
}
