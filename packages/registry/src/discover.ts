import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DevkitError, isDevkitError, type DatasetPlugin } from '@cvdevkit/core';
import { assertPluginContract, contractError, Shown } from './contract.js';
import { readPluginManifest, summarizePlugin, type PluginSummary } from './manifest.js';
import { workspacePackageDirs } from './workspace.js';

/**
 * Where a plugin was found: `flag` (`--plugin`), `config` (devkit.config.json), `dependency` (a direct
 * dependency of the current project, or the project itself), `workspace` (a package of the workspace
 * whose root is the current project), `cli-install` (installed next to the CLI: `npm i -g`).
 */
export type PluginSource = 'dependency' | 'workspace' | 'cli-install' | 'config' | 'flag';

/** A discovered plugin; its code is imported only by `load()` (or at discovery when it has no manifest). */
export interface FoundPlugin {
  /** npm package name (or the file name without extension for a plain file plugin). */
  packageName: string;
  /** The package version (package.json), or `meta.version` for a plain file plugin. */
  version: string;
  source: PluginSource;
  /** Absolute path of the plugin module. */
  entry: string;
  /** Dataset, tasks and metrics as listed (from the manifest, or from the imported plugin). */
  summary: PluginSummary;
  /** The plugin object, once imported. */
  plugin?: DatasetPlugin;
  /** Imports the plugin (once) and checks the contract. */
  load(): Promise<LoadedPlugin>;
}

/** A plugin whose code is imported and checked. */
export interface LoadedPlugin extends FoundPlugin {
  plugin: DatasetPlugin;
}

export interface DiscoverOptions {
  /** Directory discovery starts from (default `process.cwd()`). */
  cwd?: string;
  /** Explicit plugin specifiers (`--plugin`): package names or file paths relative to `cwd`. */
  plugins?: string[];
  /**
   * A file or directory inside the CLI's own install (the CLI passes its `import.meta.url` path).
   * Every `node_modules` directory on its resolution path is scanned for plugin packages, so that
   * `npm i -g @cvdevkit/cli @cvdevkit/voc2010` works.
   */
  installPath?: string;
  /**
   * Scan the dependencies of the nearest package.json and the CLI install (default true).
   * `false` keeps only `devkit.config.json` and explicit `plugins`.
   */
  autoDiscover?: boolean;
  /** Read `devkit.config.json` from `cwd` or an ancestor (default true). */
  config?: boolean;
  /**
   * Import plugins only when they are used (`FoundPlugin.load`, the registry's `loadTask`); plugins with a
   * manifest are then listed without importing them. Default false: every plugin is imported and checked.
   */
  lazy?: boolean;
  /**
   * Option names tasks may not declare, besides `RESERVED_OPTION_NAMES` (the CLI passes the attribute
   * names of its common-options table); a plugin declaring one breaks the contract.
   */
  reservedOptions?: Iterable<string>;
}

export interface DiscoveryResult {
  /** Plugins, in priority order (flag, config, dependency, workspace, cli-install); all loaded unless `lazy`. */
  plugins: FoundPlugin[];
  /** Human-readable warnings: duplicate task ids, auto-discovered plugins that failed to load. */
  warnings: string[];
  /** Auto-discovered plugins that claim to be plugins but could not be loaded or break the contract. */
  failures: DevkitError[];
}

/** The config file name looked up in the cwd and its ancestors. */
export const CONFIG_FILE = 'devkit.config.json';

interface Candidate {
  packageName: string;
  version?: string;
  entry: string;
  source: PluginSource;
  /** Explicitly requested: a failure is thrown instead of collected. */
  strict: boolean;
  /** `"name" (where)` used in messages. */
  label: string;
  /** Absolute path of the declared manifest (`devkit.manifest`), if any. */
  manifest?: string;
}

interface PackageJson {
  name?: unknown;
  version?: unknown;
  main?: unknown;
  exports?: unknown;
  devkit?: unknown;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

function readJson(file: string): unknown {
  return JSON.parse(readFileSync(file, 'utf8'));
}

function tryReadPackageJson(dir: string): PackageJson | undefined {
  const file = join(dir, 'package.json');
  if (!existsSync(file)) return undefined;
  try {
    const value = readJson(file);
    return typeof value === 'object' && value !== null ? (value as PackageJson) : undefined;
  } catch {
    return undefined;
  }
}

function ancestors(dir: string): string[] {
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
    .map((d) => join(d, 'node_modules'))
    .filter((d) => isDirectory(d));
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

function findPackageDir(name: string, fromDirs: string[]): string | undefined {
  for (const from of fromDirs) {
    for (const nm of nodeModulesPath(from)) {
      const dir = join(nm, ...name.split('/'));
      if (isFile(join(dir, 'package.json'))) return dir;
    }
  }
  return undefined;
}

/** The `devkit.plugin` entry a package.json declares, or undefined if it is not a plugin package. */
function declaredPluginEntry(pkg: PackageJson): { claims: boolean; entry?: unknown; manifest?: string } {
  if (pkg.devkit === undefined || pkg.devkit === null) return { claims: false };
  if (typeof pkg.devkit !== 'object') return { claims: true, entry: pkg.devkit };
  const devkit = pkg.devkit as { plugin?: unknown; manifest?: unknown };
  return { claims: 'plugin' in devkit, entry: devkit.plugin, manifest: typeof devkit.manifest === 'string' ? devkit.manifest : undefined };
}

/** The main ESM entry of a package without a `devkit.plugin` field: exports["."], then main, then index.js. */
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

function packageCandidate(dir: string, source: PluginSource, strict: boolean, where: string, fallbackName: string): Candidate | DevkitError | undefined {
  const pkgFile = join(dir, 'package.json');
  let pkg: PackageJson;
  try {
    const text = readFileSync(pkgFile, 'utf8');
    // most dependencies are no plugins: a package.json without the "devkit" key is not parsed at all
    if (!strict && !text.includes('"devkit"')) return undefined;
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
      return contractError(label, 'package.json devkit.plugin', 'a path to the plugin module, for example "./dist/index.js"', declared.entry);
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
  };
}

/** Resolves an explicit specifier (package name or path) relative to `baseDir`. */
function resolveSpecifier(spec: string, baseDir: string, source: PluginSource, origin: string, extraDirs: string[]): Candidate {
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
    const f = join(d, CONFIG_FILE);
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

interface Found {
  candidates: Candidate[];
  failures: DevkitError[];
}

function addPackage(found: Found, dir: string, source: PluginSource, where: string, fallbackName: string): void {
  const c = packageCandidate(dir, source, false, where, fallbackName);
  if (c instanceof DevkitError) found.failures.push(c);
  else if (c) found.candidates.push(c);
}

function where(cwd: string, dir: string): string {
  const rel = relative(cwd, dir);
  return rel === '' ? '.' : rel.split(sep).length > 4 ? dir : rel;
}

/** The plugins among the direct dependencies of the package in `pkgDir` (resolved like Node does). */
function directDependencies(found: Found, pkgDir: string, pkg: PackageJson, source: PluginSource, cwd: string): void {
  const names = new Set([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.devDependencies ?? {}), ...Object.keys(pkg.optionalDependencies ?? {})]);
  for (const name of names) {
    const dir = findPackageDir(name, [pkgDir]);
    if (dir !== undefined) addPackage(found, dir, source, where(cwd, dir), name);
  }
}

/** The plugin packages of the workspace rooted at `root` (none when `root` is no workspace root). */
function workspacePlugins(found: Found, root: string, cwd: string): boolean {
  const dirs = workspacePackageDirs(root);
  if (dirs === undefined) return false;
  for (const dir of dirs) addPackage(found, dir, 'workspace', where(cwd, dir), basename(dir));
  return true;
}

/**
 * The current project: the nearest package.json from `cwd` (itself when it is a plugin), its direct
 * dependencies, and, when it is a workspace root, the workspace's plugin packages. A package that is only
 * some dependency's dependency is not listed.
 */
function projectCandidates(cwd: string): Found {
  const found: Found = { candidates: [], failures: [] };
  const pkgDir = ancestors(cwd).find((d) => isFile(join(d, 'package.json')));
  if (pkgDir === undefined) return found;
  const pkg = tryReadPackageJson(pkgDir);
  if (pkg === undefined) return found;
  // The package itself may be a plugin (a plugin author running `cvdevkit demo` in its folder).
  addPackage(found, pkgDir, 'dependency', relative(cwd, pkgDir) || '.', basename(pkgDir));
  directDependencies(found, pkgDir, pkg, 'dependency', cwd);
  workspacePlugins(found, pkgDir, cwd);
  return found;
}

/** The top-level packages of a `node_modules` directory (scoped ones included). */
function topLevelPackages(nm: string): string[] {
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
        for (const s of readdirSync(join(nm, e))) if (!s.startsWith('.')) dirs.push(join(nm, e, s));
      } catch {
        // not a directory
      }
    } else dirs.push(join(nm, e));
  }
  return dirs;
}

/**
 * What was installed together with the CLI. The CLI's package directory is found from `installPath`:
 * - in a global install (`npm i -g @cvdevkit/cli @cvdevkit/voc2010`: `<prefix>/lib/node_modules` with no
 *   package.json beside it), the packages installed next to it at the top level, that is, what the user
 *   named; the plugins' own dependencies live in their nested node_modules and are not listed;
 * - in a project's node_modules, the project's direct dependencies;
 * - in a checkout of the cvdevkit workspace, the workspace's plugin packages.
 */
function installCandidates(installPath: string, cwd: string): Found {
  const found: Found = { candidates: [], failures: [] };
  const start = isDirectory(installPath) ? installPath : dirname(installPath);
  const cliDir = ancestors(start).find((d) => isFile(join(d, 'package.json')));
  if (cliDir === undefined) return found;
  const parent = dirname(cliDir);
  const nm = basename(parent) === 'node_modules' ? parent : basename(dirname(parent)) === 'node_modules' && basename(parent).startsWith('@') ? dirname(parent) : undefined;
  if (nm === undefined) {
    const root = ancestors(cliDir).find((d) => workspacePackageDirs(d) !== undefined);
    if (root !== undefined) workspacePlugins(found, root, cwd);
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

function loadFailure(c: Candidate, e: unknown): DevkitError {
  if (isDevkitError(e)) return e as DevkitError;
  const err = e as NodeJS.ErrnoException;
  let reason = String(err?.message ?? e).split('\n')[0];
  if (err?.code === 'ERR_MODULE_NOT_FOUND' && !existsSync(c.entry)) reason = `${c.entry} does not exist (is the package built?)`;
  return new DevkitError({
    kind: 'internal',
    code: 'plugin/load',
    field: 'import',
    message: `plugin ${c.label}: cannot be loaded: ${reason}`,
    cause: e,
  });
}

async function importPlugin(c: Candidate, reserved: Iterable<string>): Promise<DatasetPlugin> {
  let mod: { default?: unknown };
  try {
    mod = (await import(pathToFileURL(c.entry).href)) as { default?: unknown };
  } catch (e) {
    throw loadFailure(c, e);
  }
  const plugin = mod.default;
  assertPluginContract(plugin, c.label, reserved);
  return plugin;
}

/** A FoundPlugin over a candidate: imported now (`plugin` given) or on its first `load()`. */
function foundPlugin(c: Candidate, reserved: Iterable<string>, summary: PluginSummary, plugin?: DatasetPlugin): FoundPlugin {
  let loading: Promise<LoadedPlugin> | undefined;
  const found: FoundPlugin = {
    packageName: c.packageName,
    version: c.version ?? summary.version,
    source: c.source,
    entry: c.entry,
    summary,
    plugin,
    load() {
      loading ??= (found.plugin ? Promise.resolve(found.plugin) : importPlugin(c, reserved)).then((p) => {
        found.plugin = p;
        return found as LoadedPlugin;
      });
      return loading;
    },
  };
  return found;
}

/** Lists a candidate: from its manifest when lazy and it has one, else by importing it. */
async function settleCandidate(c: Candidate, lazy: boolean, reserved: Iterable<string>): Promise<FoundPlugin> {
  const manifest = lazy && c.manifest !== undefined ? readPluginManifest(c.manifest) : undefined;
  if (manifest !== undefined) return foundPlugin(c, reserved, manifest);
  const plugin = await importPlugin(c, reserved);
  return foundPlugin(c, reserved, summarizePlugin(plugin), plugin);
}

function realEntry(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/**
 * Finds, loads and checks every plugin, in priority order: `--plugin` flags, `devkit.config.json`,
 * the nearest package.json (itself, its direct dependencies, its workspace packages when it is a workspace
 * root), the CLI's own install. With `lazy`, plugins that ship a manifest are listed from it and imported
 * only by `load()`. The same module found twice
 * is loaded once (first source wins). A plugin that was asked for explicitly (flag, config) and
 * breaks the contract throws a `plugin/contract` DevkitError (kind `internal`, exit code 3); an
 * auto-discovered one is reported in `failures` and `warnings` so the other plugins stay usable.
 * Task ids provided by two plugins: the first wins, with a warning.
 */
export async function discoverPlugins(options: DiscoverOptions = {}): Promise<DiscoveryResult> {
  const cwd = resolve(options.cwd ?? process.cwd());
  const installDirs = options.installPath ? [isDirectory(options.installPath) ? options.installPath : dirname(options.installPath)] : [];
  const candidates: Candidate[] = [];
  const failures: DevkitError[] = [];
  for (const spec of options.plugins ?? []) candidates.push(resolveSpecifier(spec, cwd, 'flag', '--plugin', installDirs));
  if (options.config !== false) {
    const configFile = findConfigFile(cwd);
    if (configFile !== undefined) {
      for (const spec of readConfigPlugins(configFile))
        candidates.push(resolveSpecifier(spec, dirname(configFile), 'config', configFile, installDirs));
    }
  }
  if (options.autoDiscover !== false) {
    const dep = projectCandidates(cwd);
    candidates.push(...dep.candidates);
    failures.push(...dep.failures);
    if (options.installPath) {
      const inst = installCandidates(options.installPath, cwd);
      candidates.push(...inst.candidates);
      failures.push(...inst.failures);
    }
  }

  const seen = new Set<string>();
  const unique = candidates.filter((c) => {
    const key = realEntry(c.entry);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const settled = await Promise.allSettled(unique.map((c) => settleCandidate(c, options.lazy === true, options.reservedOptions ?? [])));
  const plugins: FoundPlugin[] = [];
  settled.forEach((r, i) => {
    if (r.status === 'fulfilled') plugins.push(r.value);
    else if (unique[i].strict) throw r.reason;
    else failures.push(r.reason as DevkitError);
  });

  const warnings = failures.map((f) => `${f.message} (skipped)`);
  const owner = new Map<string, FoundPlugin>();
  for (const p of plugins) {
    for (const id of p.summary.tasks.map((t) => t.id)) {
      const first = owner.get(id);
      if (first === undefined) owner.set(id, p);
      else
        warnings.push(
          `task "${id}" is provided by both ${first.packageName}@${first.version} (${first.source}) and ${p.packageName}@${p.version} (${p.source}); using ${first.packageName}`,
        );
    }
  }
  return { plugins, warnings, failures };
}
