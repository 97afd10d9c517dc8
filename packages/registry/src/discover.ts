/**
 * Plugin discovery, the orchestrator: collects candidates in priority order (`--plugin` flags,
 * `devkit.config.json`, the current project, the CLI's install), keeps one candidate per module, lists or
 * lists each from its manifest or imports it (once, with the contract checked), and warns about task ids two
 * plugins provide. Beside it: `plugin-candidates.ts` (which packages and files are plugins: flags, config
 * file, the project, the CLI install) and `package-files.ts` (package.json and node_modules on disk).
 * Loading stays here rather than in a file of its own: every module on the discovery path costs start-up
 * time (see `plugin-candidates.ts`).
 */
import { existsSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DevkitError, isDevkitError, type DatasetPlugin } from '@cvdevkit/core';
import { assertPluginContract } from './contract.js';
import { readPluginManifest, summarizePlugin, type PluginSummary } from './manifest.js';
import { isDirectory } from './package-files.js';
import { findConfigFile, installCandidates, oldPluginKeyWarning, projectCandidates, readConfigPlugins, resolveSpecifier, type Candidate } from './plugin-candidates.js';

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

function loadFailure(c: Candidate, e: unknown): DevkitError {
  if (isDevkitError(e)) return e as DevkitError;
  const err = e as NodeJS.ErrnoException;
  let reason = String(err?.message ?? e).split('\n')[0];
  if ((err?.code === 'ERR_MODULE_NOT_FOUND' || err?.code === 'MODULE_NOT_FOUND') && !existsSync(c.entry)) reason = `${c.entry} does not exist (is the package built?)`;
  return new DevkitError({
    kind: 'internal',
    code: 'plugin/load',
    field: 'import',
    message: `plugin ${c.label}: cannot be loaded: ${reason}`,
    cause: e,
  });
}

/**
 * Failures of `require` where `import()` may succeed: the module needs the asynchronous loader (top-level await), or a
 * file was not resolved or not understood, which a loader hook registered with `--import` (seen by `import()` only)
 * may do. An ES module graph fails these while it is resolved and linked, before any of its code runs.
 */
const RETRY_WITH_IMPORT = new Set([
  'ERR_REQUIRE_ASYNC_MODULE',
  'ERR_REQUIRE_ESM',
  'ERR_UNKNOWN_FILE_EXTENSION',
  'ERR_UNKNOWN_MODULE_FORMAT',
  'ERR_MODULE_NOT_FOUND',
  'ERR_UNSUPPORTED_DIR_IMPORT',
  'ERR_UNSUPPORTED_ESM_URL_SCHEME',
  'ERR_PACKAGE_PATH_NOT_EXPORTED',
  'ERR_PACKAGE_IMPORT_NOT_DEFINED',
  'ERR_INVALID_MODULE_SPECIFIER',
]);

/**
 * The plugin's module as `import()` gives it (its namespace; a CommonJS module's exports as `default`), loaded with
 * `require` where Node can (Node >= 20.19 loads an ES module graph without top-level await synchronously that way:
 * its files are read at once instead of through the thread pool and a turn of the event loop each, as `import()`
 * reads them, and Node's asynchronous module loader is not started); with `import()` for an entry not named
 * `.js`/`.mjs`/`.cjs` and after a failure in RETRY_WITH_IMPORT. Any other failure (the module's own error, a syntax
 * error) is the one `import()` would report.
 */
async function loadModule(entry: string): Promise<{ default?: unknown }> {
  if (/\.(?:m|c)?js$/.test(entry)) {
    let loaded: unknown;
    try {
      loaded = createRequire(entry)(entry);
    } catch (e) {
      if (!RETRY_WITH_IMPORT.has((e as NodeJS.ErrnoException)?.code ?? '')) throw e;
      return (await import(pathToFileURL(entry).href)) as { default?: unknown };
    }
    // an ES module's namespace (its Symbol.toStringTag is 'Module'), else a CommonJS module's exports, as import() wraps them
    return Object.prototype.toString.call(loaded) === '[object Module]' ? (loaded as { default?: unknown }) : { default: loaded };
  }
  return (await import(pathToFileURL(entry).href)) as { default?: unknown };
}

async function importPlugin(c: Candidate, reserved: Iterable<string>): Promise<DatasetPlugin> {
  let mod: { default?: unknown };
  try {
    mod = await loadModule(c.entry);
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
    return realpathSync.native(p); // one realpath(3) call, not an lstat per path segment
  } catch {
    return p;
  }
}

/** Every candidate in priority order: flags, config file, the current project, the CLI's install. */
function collectCandidates(options: DiscoverOptions, cwd: string): { candidates: Candidate[]; failures: DevkitError[] } {
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
      const inst = installCandidates(options.installPath, cwd, dep.workspaceRoot);
      candidates.push(...inst.candidates);
      failures.push(...inst.failures);
    }
  }
  return { candidates, failures };
}

/** One candidate per module (by real path), the first in priority order. */
function uniqueByModule(candidates: Candidate[]): Candidate[] {
  const seen = new Set<string>();
  return candidates.filter((c) => {
    const key = realEntry(c.entry);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Lists or imports every candidate; a strict (requested) one that fails throws, the others go to `failures`. */
async function settleCandidates(unique: Candidate[], options: DiscoverOptions, failures: DevkitError[]): Promise<FoundPlugin[]> {
  const settled = await Promise.allSettled(unique.map((c) => settleCandidate(c, options.lazy === true, options.reservedOptions ?? [])));
  const plugins: FoundPlugin[] = [];
  settled.forEach((r, i) => {
    if (r.status === 'fulfilled') plugins.push(r.value);
    else if (unique[i].strict) throw r.reason;
    else failures.push(r.reason as DevkitError);
  });
  return plugins;
}

/** One warning per skipped failure, then one per task id provided by two plugins (the first wins). */
function discoveryWarnings(plugins: FoundPlugin[], failures: DevkitError[]): string[] {
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
  return warnings;
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
  const { candidates, failures } = collectCandidates(options, cwd);
  const unique = uniqueByModule(candidates);
  const plugins = await settleCandidates(unique, options, failures);
  const warnings = [...unique.filter((c) => c.oldKey === true).map((c) => oldPluginKeyWarning(c.packageName)), ...discoveryWarnings(plugins, failures)];
  return { plugins, warnings, failures };
}
