/**
 * Makes a folder and its missing parents one level at a time. Node's `mkdir(…, { recursive: true })`
 * loops forever where a parent reports ENOENT for a folder it will never make (`/proc/x/y`); this walks up
 * at most 256 levels and down once, so it always ends: the first level that cannot be made throws its
 * file-system error.
 */
import { mkdirSync, statSync } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

const MAX_DEPTH = 256;

function notADirectory(d: string): Error {
  return Object.assign(new Error(`not a directory: ${d}`), { code: 'ENOTDIR', path: d });
}

/** The missing folders of `dir`, deepest first (the stat of each level through `isDir`). */
function missingSync(dir: string): string[] {
  const missing: string[] = [];
  let d = resolve(dir);
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    try {
      if (statSync(d).isDirectory()) return missing;
      throw notADirectory(d);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    missing.push(d);
    const up = dirname(d);
    if (up === d) return missing;
    d = up;
  }
  throw Object.assign(new Error(`too deep: ${dir}`), { code: 'ENAMETOOLONG', path: dir });
}

/** Makes `dir` and its missing parents (synchronous). */
export function makeDirsSync(dir: string): void {
  const missing = missingSync(dir);
  for (let i = missing.length - 1; i >= 0; i--) {
    try {
      mkdirSync(missing[i]);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
}

/** Makes `dir` and its missing parents. */
export async function makeDirs(dir: string): Promise<void> {
  const missing: string[] = [];
  let d = resolve(dir);
  for (let depth = 0; ; depth++) {
    if (depth >= MAX_DEPTH) throw Object.assign(new Error(`too deep: ${dir}`), { code: 'ENAMETOOLONG', path: dir });
    try {
      if ((await stat(d)).isDirectory()) break;
      throw notADirectory(d);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    missing.push(d);
    const up = dirname(d);
    if (up === d) break;
    d = up;
  }
  for (let i = missing.length - 1; i >= 0; i--) {
    try {
      await mkdir(missing[i]);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
}
