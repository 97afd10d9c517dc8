/**
 * Candidate collection: which packages and files are plugin modules, found without importing them.
 * - A package is a plugin when its package.json has a `cvdevkit` field (`cvdevkit.plugin`, `cvdevkit.manifest`);
 *   an explicitly requested package without it falls back to its main ESM entry. The old key `devkit` is still
 *   read for one release (the candidate records it, discovery warns once per package).
 * - Requested plugins: `--plugin` specifiers and the `plugins` list of `devkit.config.json` (package names
 *   resolved like Node does, or paths); one that cannot be found is a usage error.
 * - Auto-discovered plugins: the current project (itself, its direct dependencies, its workspace packages
 *   when it is a workspace root) and what was installed with the CLI (global siblings, the owning project's
 *   dependencies, or the cvdevkit workspace of a checkout). Their failures are collected, not thrown.
 * One file for the three on purpose: every module on the discovery path costs start-up time (on Node 20 an
 * extra module measured roughly 0.5 to 1.5 ms of CPU, the more when it imports a workspace package by name).
 */
import { readFileSync } from 'node:fs';
import { basename, dirname, extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DevkitError } from '@cvdevkit/core';
import { contractError, Shown } from './contract.js';
import type { PluginSource } from './discover.js';
import { ancestors, childPath, findPackageDir, findPackageIn, isDirectory, isFile, nodeModulesPath, readJson, topLevelPackages, tryReadPackageJson, type PackageJson } from './package-files.js';
import { isWorkspaceRoot, workspacePackageDirs } from './workspace.js';

// ---- is a package a plugin ----

/** A plugin module found on disk, not imported yet. */
export interface Candidate {
  packageName: string;
  version?: string;
  entry: string;
  source: PluginSource;
  /** Explicitly requested: a failure is thrown instead of collected. */
  strict: boolean;
  /** `"name" (where)` used in messages. */
  label: string;
  /** Absolute path of the declared manifest (`cvdevkit.manifest`), if any. */
  manifest?: string;
  /** The package.json declares the plugin under the old key `devkit` (read for one release, with a warning). */
  oldKey?: boolean;
}

/** Candidates and the failures of packages that claim to be plugins but are malformed. */
interface Found {
  candidates: Candidate[];
  failures: DevkitError[];
  /** The workspace root whose packages were scanned, if any (so that a second scan of it is skipped). */
  workspaceRoot?: string;
}

/** The package.json key that makes a package a plugin. */
export const PLUGIN_KEY = 'cvdevkit';
/** The key before 0.2 (`"devkit"`), still read for one release with a warning. */
export const OLD_PLUGIN_KEY = 'devkit';

/** The `cvdevkit.plugin` entry a package.json declares (or the old `devkit.plugin`), or undefined if it is not a plugin package. */
function declaredPluginEntry(pkg: PackageJson): { claims: boolean; entry?: unknown; manifest?: string; key?: string } {
  const key = pkg.cvdevkit !== undefined && pkg.cvdevkit !== null ? PLUGIN_KEY : pkg.devkit !== undefined && pkg.devkit !== null ? OLD_PLUGIN_KEY : undefined;
  if (key === undefined) return { claims: false };
  const value = key === PLUGIN_KEY ? pkg.cvdevkit : pkg.devkit;
  if (typeof value !== 'object') return { claims: true, entry: value, key };
  const declared = value as { plugin?: unknown; manifest?: unknown };
  return { claims: 'plugin' in declared, entry: declared.plugin, manifest: typeof declared.manifest === 'string' ? declared.manifest : undefined, key };
}

/** The warning for a package that declares its plugin under the old key. */
export function oldPluginKeyWarning(packageName: string): string {
  return `${packageName}: package.json key "${OLD_PLUGIN_KEY}" is deprecated; rename it to "${PLUGIN_KEY}" (the old key is read until the next minor release)`;
}

/** The main ESM entry of a package without a `cvdevkit.plugin` field: exports["."], then main, then index.js. */
function mainEntry(pkg: PackageJson): string {
  const pick = (e: unknown): string | undefined => {
    if (typeof e === 'string') return e;
    if (typeof e === 'object' && e !== null && !Array.isArray(e)) {
      const o = e as Record<string, unknown>;
      if ('.' in o) return pick(o['.']);
      for (const cond of ['import', 'node', 'default']) if (cond in o) return pick(o[cond]);
    }
    return undefined;
  };
  return pick(pkg.exports) ?? (typeof pkg.main === 'string' ? pkg.main : 'index.js');
}

function packageCandidate(dir: string, source: PluginSource, strict: boolean, where: string, fallbackName: string): Candidate | DevkitError | undefined {
  const pkgFile = childPath(dir, 'package.json');
  let pkg: PackageJson;
  try {
    const text = readFileSync(pkgFile, 'utf8');
    // most dependencies are no plugins: a package.json without the "cvdevkit" (or old "devkit") key is not parsed at all
    if (!strict && !text.includes('"cvdevkit"') && !text.includes('"devkit"')) return undefined;
    pkg = JSON.parse(text) as PackageJson;
  } catch (e) {
    const name = JSON.stringify(fallbackName);
    return contractError(`${name} (${where})`, 'package.json', 'valid JSON', new Shown((e as Error).message.split('\n')[0]));
  }
  const packageName = typeof pkg.name === 'string' ? pkg.name : fallbackName;
  const label = `${JSON.stringify(packageName)} (${where})`;
  const declared = declaredPluginEntry(pkg);
  let entry: string;
  if (declared.claims) {
    if (typeof declared.entry !== 'string' || declared.entry === '')
      return contractError(label, `package.json ${declared.key}.plugin`, 'a path to the plugin module, for example "./dist/index.js"', declared.entry);
    entry = declared.entry;
  } else if (strict) {
    entry = mainEntry(pkg);
  } else {
    return undefined;
  }
  return {
    packageName,
    version: typeof pkg.version === 'string' ? pkg.version : undefined,
    entry: resolve(dir, entry),
    source,
    strict,
    label,
    manifest: declared.manifest !== undefined ? resolve(dir, declared.manifest) : undefined,
    ...(declared.key === OLD_PLUGIN_KEY ? { oldKey: true } : {}),
  };
}

/** Adds the package in `dir` to `found` when it is a plugin (auto-discovery: failures are collected). */
function addPackage(found: Found, dir: string, source: PluginSource, where: string, fallbackName: string): void {
  const c = packageCandidate(dir, source, false, where, fallbackName);
  if (c instanceof DevkitError) found.failures.push(c);
  else if (c) found.candidates.push(c);
}

// ---- requested plugins: --plugin and devkit.config.json ----

/** The config file name looked up in the cwd and its ancestors. */
export const CONFIG_FILE = 'devkit.config.json';

function isPathSpecifier(spec: string): boolean {
  return (
    spec.startsWith('.') ||
    spec.startsWith('/') ||
    spec.startsWith('file:') ||
    isAbsolute(spec) ||
    /^[A-Za-z]:[\\/]/.test(spec) ||
    /\.(m|c)?js$/.test(spec)
  );
}

function notFound(spec: string, origin: string, detail: string): DevkitError {
  return new DevkitError({
    kind: 'usage',
    code: 'plugin/not-found',
    field: origin,
    message: `plugin ${JSON.stringify(spec)} (${origin}): ${detail}`,
  });
}

/** Resolves an explicit specifier (package name or path) relative to `baseDir`. */
export function resolveSpecifier(spec: string, baseDir: string, source: PluginSource, origin: string, extraDirs: string[]): Candidate {
  let result: Candidate | DevkitError | undefined;
  if (isPathSpecifier(spec)) {
    const abs = spec.startsWith('file:') ? fileURLToPath(spec) : resolve(baseDir, spec);
    if (isDirectory(abs)) {
      if (!isFile(join(abs, 'package.json'))) {
        const index = join(abs, 'index.js');
        if (!isFile(index)) throw notFound(spec, origin, `${abs} is a directory without package.json or index.js`);
        return { packageName: basename(abs), entry: index, source, strict: true, label: `${JSON.stringify(basename(abs))} (${spec})` };
      }
      result = packageCandidate(abs, source, true, spec, basename(abs));
    } else if (isFile(abs)) {
      const name = basename(abs, extname(abs));
      return { packageName: name, entry: abs, source, strict: true, label: `${JSON.stringify(name)} (${spec})` };
    } else {
      throw notFound(spec, origin, `no such file: ${abs}`);
    }
  } else {
    const dir = findPackageDir(spec, [baseDir, ...extraDirs]);
    if (dir === undefined) throw notFound(spec, origin, `package not found from ${baseDir} (is it installed?)`);
    result = packageCandidate(dir, source, true, spec, spec);
  }
  if (result instanceof DevkitError) throw result;
  return result!;
}

/** The nearest `devkit.config.json` from `cwd` up, or undefined. */
export function findConfigFile(cwd: string): string | undefined {
  for (const d of ancestors(cwd)) {
    const f = childPath(d, CONFIG_FILE);
    if (isFile(f)) return f;
  }
  return undefined;
}

/** Reads the `plugins` list of a config file; a malformed file is a usage error (exit 1). */
export function readConfigPlugins(file: string): string[] {
  let value: unknown;
  try {
    value = readJson(file);
  } catch (e) {
    throw new DevkitError({ kind: 'usage', code: 'config/invalid', file, expected: 'valid JSON', found: (e as Error).message.split('\n')[0] });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new DevkitError({ kind: 'usage', code: 'config/invalid', file, expected: 'an object { "plugins": [...] }', found: Array.isArray(value) ? 'an array' : String(value) });
  const plugins = (value as { plugins?: unknown }).plugins;
  if (plugins === undefined) return [];
  if (!Array.isArray(plugins) || !plugins.every((p) => typeof p === 'string' && p.length > 0))
    throw new DevkitError({ kind: 'usage', code: 'config/invalid', file, field: 'plugins', expected: 'an array of package names or paths', found: JSON.stringify(plugins) });
  return plugins as string[];
}

// ---- auto-discovered plugins: the project and the CLI install ----

function where(cwd: string, dir: string): string {
  // a folder below cwd (both normalized): relative() is that tail, without normalizing both paths again
  const rel = dir.length > cwd.length + 1 && dir.startsWith(cwd) && dir[cwd.length] === sep && !cwd.endsWith(sep) ? dir.slice(cwd.length + 1) : relative(cwd, dir);
  return rel === '' ? '.' : rel.split(sep).length > 4 ? dir : rel;
}

/** The plugins among the direct dependencies of the package in `pkgDir` (resolved like Node does). */
function directDependencies(found: Found, pkgDir: string, pkg: PackageJson, source: PluginSource, cwd: string): void {
  const names = new Set([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.devDependencies ?? {}), ...Object.keys(pkg.optionalDependencies ?? {})]);
  const nodeModules = nodeModulesPath(pkgDir);
  for (const name of names) {
    const dir = findPackageIn(name, nodeModules);
    if (dir !== undefined) addPackage(found, dir, source, where(cwd, dir), name);
  }
}

/** The plugin packages of the workspace rooted at `root` (none when `root` is no workspace root). */
function workspacePlugins(found: Found, root: string, cwd: string): boolean {
  const dirs = workspacePackageDirs(root);
  if (dirs === undefined) return false;
  for (const dir of dirs) addPackage(found, dir, 'workspace', where(cwd, dir), basename(dir));
  found.workspaceRoot = root;
  return true;
}

/**
 * The current project: the nearest package.json from `cwd` (itself when it is a plugin), its direct
 * dependencies, and, when it is a workspace root, the workspace's plugin packages. A package that is only
 * some dependency's dependency is not listed.
 */
export function projectCandidates(cwd: string): Found {
  const found: Found = { candidates: [], failures: [] };
  const pkgDir = ancestors(cwd).find((d) => isFile(childPath(d, 'package.json')));
  if (pkgDir === undefined) return found;
  const pkg = tryReadPackageJson(pkgDir);
  if (pkg === undefined) return found;
  // The package itself may be a plugin (a plugin author running `cvdevkit demo` in its folder).
  addPackage(found, pkgDir, 'dependency', relative(cwd, pkgDir) || '.', basename(pkgDir));
  directDependencies(found, pkgDir, pkg, 'dependency', cwd);
  workspacePlugins(found, pkgDir, cwd);
  return found;
}

/**
 * What was installed together with the CLI. The CLI's package directory is found from `installPath`:
 * - in a global install (`npm i -g @cvdevkit/cli @cvdevkit/voc2010`: `<prefix>/lib/node_modules` with no
 *   package.json beside it), the packages installed next to it at the top level, that is, what the user
 *   named; the plugins' own dependencies live in their nested node_modules and are not listed;
 * - in a project's node_modules, the project's direct dependencies;
 * - in a checkout of the cvdevkit workspace, the workspace's plugin packages (none when `scannedWorkspace`, the
 *   workspace the project scan already listed, is that same workspace: its candidates came first and win).
 */
export function installCandidates(installPath: string, cwd: string, scannedWorkspace?: string): Found {
  const found: Found = { candidates: [], failures: [] };
  const start = isDirectory(installPath) ? installPath : dirname(installPath);
  const cliDir = ancestors(start).find((d) => isFile(childPath(d, 'package.json')));
  if (cliDir === undefined) return found;
  const parent = dirname(cliDir);
  const nm = basename(parent) === 'node_modules' ? parent : basename(dirname(parent)) === 'node_modules' && basename(parent).startsWith('@') ? dirname(parent) : undefined;
  if (nm === undefined) {
    const root = ancestors(cliDir).find((d) => isWorkspaceRoot(d));
    if (root !== undefined && root !== scannedWorkspace) workspacePlugins(found, root, cwd);
    for (const c of found.candidates) c.source = 'cli-install';
    return found;
  }
  const owner = dirname(nm);
  const ownerPkg = tryReadPackageJson(owner);
  if (ownerPkg !== undefined) {
    directDependencies(found, owner, ownerPkg, 'cli-install', cwd);
    return found;
  }
  for (const dir of topLevelPackages(nm)) {
    const pkg = tryReadPackageJson(dir);
    if (pkg !== undefined && declaredPluginEntry(pkg).claims) addPackage(found, dir, 'cli-install', where(cwd, dir), basename(dir));
  }
  return found;
}
