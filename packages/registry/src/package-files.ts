/**
 * Package manifests on disk: reading a package.json leniently, walking a directory's ancestors, and finding
 * a package the way Node resolves it (the `node_modules` directories from a directory up). No plugin
 * knowledge here: which packages are plugins is decided in `plugin-candidate.ts`.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';

/** The fields of a package.json that discovery reads. */
export interface PackageJson {
  name?: unknown;
  version?: unknown;
  main?: unknown;
  exports?: unknown;
  cvdevkit?: unknown;
  /** The plugin key before 0.2 (read for one release). */
  devkit?: unknown;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

/**
 * `join(dir, name)` for a normalized `dir` (absolute, as `resolve` and `readdir` give it) and a `name`, by concatenation
 * when `name` is one plain path segment: `path.join` normalizes its whole result character by character, which on a
 * cold start (the code still interpreted) costs ~0.15 M instructions a call, and discovery makes a few hundred of them.
 * Anything else (a separator, `.`, `..`, empty) goes to `path.join`, so the result is always join's.
 */
export function childPath(dir: string, name: string): string {
  if (name === '' || name === '.' || name === '..' || name.includes('/') || name.includes(sep)) return join(dir, name);
  return dir.endsWith(sep) ? dir + name : dir + sep + name;
}

export function readJson(file: string): unknown {
  return JSON.parse(readFileSync(file, 'utf8'));
}

export function tryReadPackageJson(dir: string): PackageJson | undefined {
  const file = childPath(dir, 'package.json');
  if (!existsSync(file)) return undefined;
  try {
    const value = readJson(file);
    return typeof value === 'object' && value !== null ? (value as PackageJson) : undefined;
  } catch {
    return undefined;
  }
}

export function ancestors(dir: string): string[] {
  const out: string[] = [];
  let d = resolve(dir);
  for (;;) {
    out.push(d);
    const parent = dirname(d);
    if (parent === d) return out;
    d = parent;
  }
}

/** The `node_modules` directories Node would search from `dir`, nearest first. */
export function nodeModulesPath(dir: string): string[] {
  return ancestors(dir)
    .filter((d) => basename(d) !== 'node_modules')
    .map((d) => childPath(d, 'node_modules'))
    .filter((d) => isDirectory(d));
}

// `throwIfNoEntry: false`: a missing path is the common case here (probing node_modules folders), and a thrown
// ENOENT error (with its stack) costs far more than the stat itself.
export function isDirectory(p: string): boolean {
  try {
    return statSync(p, { throwIfNoEntry: false })?.isDirectory() === true;
  } catch {
    return false;
  }
}

export function isFile(p: string): boolean {
  try {
    return statSync(p, { throwIfNoEntry: false })?.isFile() === true;
  } catch {
    return false;
  }
}

/** The package `name` in the first of the `node_modules` directories that has it (see `nodeModulesPath`). */
export function findPackageIn(name: string, nodeModules: string[]): string | undefined {
  for (const nm of nodeModules) {
    const dir = name.split('/').reduce(childPath, nm);
    if (isFile(childPath(dir, 'package.json'))) return dir;
  }
  return undefined;
}

export function findPackageDir(name: string, fromDirs: string[]): string | undefined {
  for (const from of fromDirs) {
    const dir = findPackageIn(name, nodeModulesPath(from));
    if (dir !== undefined) return dir;
  }
  return undefined;
}

/** The top-level packages of a `node_modules` directory (scoped ones included). */
export function topLevelPackages(nm: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(nm);
  } catch {
    return [];
  }
  const dirs: string[] = [];
  for (const e of entries) {
    if (e.startsWith('.')) continue;
    if (e.startsWith('@')) {
      try {
        for (const s of readdirSync(childPath(nm, e))) if (!s.startsWith('.')) dirs.push(childPath(childPath(nm, e), s));
      } catch {
        // not a directory
      }
    } else dirs.push(childPath(nm, e));
  }
  return dirs;
}
