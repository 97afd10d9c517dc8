import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DevkitError, isDevkitError, type DatasetPlugin } from '@cvdevkit/core';
import { assertPluginContract, contractError, Shown } from './contract.js';

/** Where a plugin was found. */
export type PluginSource = 'dependency' | 'cli-install' | 'config' | 'flag';

export interface LoadedPlugin {
  /** npm package name (or the file name without extension for a plain file plugin). */
  packageName: string;
  /** The package version (package.json), or `meta.version` for a plain file plugin. */
  version: string;
  source: PluginSource;
  plugin: DatasetPlugin;
  /** Absolute path of the module that was imported. */
  entry: string;
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
}

export interface DiscoveryResult {
  /** Loaded plugins, in priority order (flag, config, dependency, cli-install). */
  plugins: LoadedPlugin[];
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
function declaredPluginEntry(pkg: PackageJson): { claims: boolean; entry?: unknown } {
  if (pkg.devkit === undefined || pkg.devkit === null) return { claims: false };
  if (typeof pkg.devkit !== 'object') return { claims: true, entry: pkg.devkit };
  return { claims: 'plugin' in pkg.devkit, entry: (pkg.devkit as { plugin?: unknown }).plugin };
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
    pkg = readJson(pkgFile) as PackageJson;
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

function dependencyCandidates(cwd: string): { candidates: Candidate[]; failures: DevkitError[] } {
  const candidates: Candidate[] = [];
  const failures: DevkitError[] = [];
  const pkgDir = ancestors(cwd).find((d) => isFile(join(d, 'package.json')));
  if (pkgDir === undefined) return { candidates, failures };
  const pkg = tryReadPackageJson(pkgDir);
  if (pkg === undefined) return { candidates, failures };
  // The package itself may be a plugin (a plugin author running `cvdevkit demo` in its folder).
  const own = packageCandidate(pkgDir, 'dependency', false, relative(cwd, pkgDir) || '.', basename(pkgDir));
  if (own instanceof DevkitError) failures.push(own);
  else if (own) candidates.push(own);
  const names = new Set([
    ...Object.keys(pkg.dependencies ?? {}),
    ...Object.keys(pkg.devDependencies ?? {}),
    ...Object.keys(pkg.optionalDependencies ?? {}),
  ]);
  for (const name of names) {
    const dir = findPackageDir(name, [pkgDir]);
    if (dir === undefined) continue;
    const c = packageCandidate(dir, 'dependency', false, relative(cwd, dir) || dir, name);
    if (c instanceof DevkitError) failures.push(c);
    else if (c) candidates.push(c);
  }
  return { candidates, failures };
}

function installCandidates(installPath: string, cwd: string): { candidates: Candidate[]; failures: DevkitError[] } {
  const candidates: Candidate[] = [];
  const failures: DevkitError[] = [];
  const start = isDirectory(installPath) ? installPath : dirname(installPath);
  for (const nm of nodeModulesPath(start)) {
    let entries: string[];
    try {
      entries = readdirSync(nm);
    } catch {
      continue;
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
    for (const dir of dirs) {
      const pkg = tryReadPackageJson(dir);
      if (pkg === undefined || !declaredPluginEntry(pkg).claims) continue;
      const rel = relative(cwd, dir);
      const c = packageCandidate(dir, 'cli-install', false, rel.split(sep).length > 4 ? dir : rel, basename(dir));
      if (c instanceof DevkitError) failures.push(c);
      else if (c) candidates.push(c);
    }
  }
  return { candidates, failures };
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

async function loadCandidate(c: Candidate): Promise<LoadedPlugin> {
  let mod: { default?: unknown };
  try {
    mod = (await import(pathToFileURL(c.entry).href)) as { default?: unknown };
  } catch (e) {
    throw loadFailure(c, e);
  }
  const plugin = mod.default;
  assertPluginContract(plugin, c.label);
  return {
    packageName: c.packageName,
    version: c.version ?? plugin.meta.version,
    source: c.source,
    plugin,
    entry: c.entry,
  };
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
 * the dependencies of the nearest package.json, the CLI's own install. The same module found twice
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
    const dep = dependencyCandidates(cwd);
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
  const settled = await Promise.allSettled(unique.map((c) => loadCandidate(c)));
  const plugins: LoadedPlugin[] = [];
  settled.forEach((r, i) => {
    if (r.status === 'fulfilled') plugins.push(r.value);
    else if (unique[i].strict) throw r.reason;
    else failures.push(r.reason as DevkitError);
  });

  const warnings = failures.map((f) => `${f.message} (skipped)`);
  const owner = new Map<string, LoadedPlugin>();
  for (const p of plugins) {
    for (const id of Object.keys(p.plugin.tasks)) {
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
