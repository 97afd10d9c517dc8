/**
 * A cache of the labelled ground-truth lists of the cls and action tasks (`ImageSets/Main/<class>_<set>.txt`,
 * `ImageSets/Action/<action>_<set>.txt`) in the run's cache directory: one JSON file per list folder, an
 * entry per list file keyed by its path, size and mtime and the plugin version (as the annotations cache).
 * The twenty lists of a set share one key table. Only a list read without any problem is kept, so a cached
 * list is exactly what reading the file again gives; a missing, changed or unreadable entry is read again.
 */
import { readFileSync, statSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LabelledList } from './image-sets.js';
import { PACKAGE_VERSION } from './version.js';

const FORMAT = 'cvdevkit.voc2010.lists';

interface ListEntry {
  size: number;
  mtimeMs: number;
  /** Index into `keyTables`. */
  keys: number;
  labels: number[];
  /** The 1-based line of each key; absent when key i is on line i + 1. */
  lines?: number[];
}

interface ListCacheFile {
  format: typeof FORMAT;
  version: string;
  dir: string;
  keyTables: string[][];
  entries: Record<string, ListEntry>;
}

/** What a list file was when it was read (the cache key besides its path). */
export interface ListStamp {
  size: number;
  mtimeMs: number;
}

/** The size and mtime of a regular file, or undefined (the reader then reports what is wrong). */
export function listStamp(path: string): ListStamp | undefined {
  try {
    const st = statSync(path);
    return st.isFile() ? { size: st.size, mtimeMs: st.mtimeMs } : undefined;
  } catch {
    return undefined;
  }
}

/** Two 32-bit FNV-1a hashes of `text` in hex: a file name for the folder (the file holds the folder, checked on load). */
function nameHash(text: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x84222325;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193) >>> 0;
    h2 = Math.imul(h2 ^ c, 0x1b3) >>> 0;
  }
  return h1.toString(16).padStart(8, '0') + h2.toString(16).padStart(8, '0');
}

export class LabelledListCache {
  private readonly indexes = new Map<number, Map<string, number>>();
  private readonly identityLines = new Map<number, number[]>();
  private changed = false;

  private constructor(
    private readonly file: string,
    private readonly data: ListCacheFile,
  ) {}

  /** The cache of the lists in `dir` (a folder of lists), empty when there is none or it is unreadable. */
  static async open(cacheDir: string, dir: string): Promise<LabelledListCache> {
    const file = join(cacheDir, `voc2010-lists-${nameHash(dir)}.json`);
    let data: ListCacheFile = { format: FORMAT, version: PACKAGE_VERSION, dir, keyTables: [], entries: {} };
    try {
      // read synchronously: one small file, no thread-pool round trip
      const c = JSON.parse(readFileSync(file, 'utf8')) as ListCacheFile;
      if (c.format === FORMAT && c.version === PACKAGE_VERSION && c.dir === dir && Array.isArray(c.keyTables) && c.entries) data = c;
    } catch {
      // no cache yet, or an unreadable one: every list is read
    }
    return new LabelledListCache(file, data);
  }

  /** The list `path` held when it had `stamp`, if it is cached. */
  get(path: string, stamp: ListStamp | undefined): LabelledList | undefined {
    const e = stamp ? this.data.entries[path] : undefined;
    if (!e || e.size !== stamp!.size || e.mtimeMs !== stamp!.mtimeMs) return undefined;
    const keys = this.data.keyTables[e.keys];
    if (!keys || keys.length !== e.labels.length) return undefined;
    // the string index only when asked for (a cls run through the WebAssembly kernel never asks)
    const indexOf = (t: number): Map<string, number> => this.indexOf(t);
    return {
      file: path,
      keys,
      lines: e.lines ?? this.linesUpTo(keys.length),
      labels: Int32Array.from(e.labels),
      get index() {
        return indexOf(e.keys);
      },
    };
  }

  /** Keeps `list` (read without problems from a file with `stamp`). */
  put(path: string, stamp: ListStamp, list: LabelledList): void {
    const identity = list.lines.every((l, i) => l === i + 1);
    this.data.entries[path] = { size: stamp.size, mtimeMs: stamp.mtimeMs, keys: this.tableOf(list.keys), labels: Array.from(list.labels), ...(identity ? {} : { lines: list.lines }) };
    this.changed = true;
  }

  /** Writes the cache if it changed (atomically; a cache that cannot be written is only slower next time). */
  async save(): Promise<void> {
    if (!this.changed) return;
    try {
      // loaded only to write: a run that finds every list cached does not load the output side of formats
      const { makeDirs } = await import('@cvdevkit/formats/fs');
      await makeDirs(join(this.file, '..'));
      const tmp = `${this.file}.${process.pid}.tmp`;
      await writeFile(tmp, JSON.stringify(this.data));
      await rename(tmp, this.file);
    } catch {
      // only slower next time
    }
  }

  private tableOf(keys: string[]): number {
    const tables = this.data.keyTables;
    for (let t = 0; t < tables.length; t++) {
      const k = tables[t];
      if (k === keys || (k.length === keys.length && k.every((x, i) => x === keys[i]))) return t;
    }
    tables.push(keys);
    return tables.length - 1;
  }

  private indexOf(table: number): Map<string, number> {
    let index = this.indexes.get(table);
    if (!index) {
      const keys = this.data.keyTables[table];
      index = new Map<string, number>();
      for (let i = 0; i < keys.length; i++) index.set(keys[i], i);
      this.indexes.set(table, index);
    }
    return index;
  }

  /** 1, 2, …, n (one array per length, shared by the lists of that length). */
  private linesUpTo(n: number): number[] {
    let lines = this.identityLines.get(n);
    if (!lines) {
      lines = Array.from({ length: n }, (_, i) => i + 1);
      this.identityLines.set(n, lines);
    }
    return lines;
  }
}
