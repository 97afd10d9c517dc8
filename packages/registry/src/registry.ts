import {
  codeUnitOrder,
  DevkitError,
  type Report,
  type RunContext,
  type TaskDefinition,
  type TaskId,
  type TaskOptionsOf,
  type TaskOptionValues,
} from '@cvdevkit/core';
import { discoverPlugins, type DiscoverOptions, type DiscoveryResult, type FoundPlugin, type LoadedPlugin } from './discover.js';
import { contractError, Shown } from './contract.js';
import type { TaskHook, TaskSummary } from './manifest.js';
import { prepareTaskHook, type HookCalls, type HookName, type PreparedHook } from './task-hook.js';

/** A task together with the plugin that provides it. */
export interface RegisteredTask {
  id: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  task: TaskDefinition<any>;
  plugin: LoadedPlugin;
}

/** A task as listed, whether or not its plugin is imported yet. */
export interface TaskListing extends TaskSummary {
  plugin: FoundPlugin;
}

export interface PluginRegistry extends DiscoveryResult {
  /** Every task of every discovered plugin, sorted by id, without importing any plugin. */
  tasks(): TaskListing[];
  /** Whether some discovered plugin provides the task (no import). */
  hasTask(id: string): boolean;
  /** Imports the plugin providing `id` (once) and returns the task; an unknown id is a usage error. */
  loadTask(id: string): Promise<RegisteredTask>;
  /** Imports every discovered plugin. */
  loadAll(): Promise<void>;
  /** Every task of the imported plugins (all of them unless discovered `lazy`), sorted by id (for duplicate ids, the first plugin's). */
  listTasks(): RegisteredTask[];
  /** A task of an imported plugin. */
  findTask(id: string): RegisteredTask | undefined;
  /**
   * Like `findTask`, but an unknown id is a usage error listing the known ids (with "did you mean"); a
   * task whose plugin is not imported yet (lazy discovery) is an internal error: `loadTask` it first.
   */
  getTask(id: string): RegisteredTask;
  /**
   * A hook of a loaded task (`loadTask` it first), ready to run: a task without the hook is a usage error naming
   * the tasks that have it, `metric` (default the task's official one) is resolved once and checked against the
   * task's accepted metrics. Every hook goes through here (what `runHook` and `evaluate` do), so a caller can check
   * before reading any file and run later.
   */
  prepareHook<H extends HookName>(id: string, hook: H, metric?: string): PreparedHook<H>;
  /**
   * Runs a task's hook (`evaluate`, `validate`, `analyze`, `merge`, `sample`) the one way: loads the task, resolves
   * the metric (`context.metric`), builds the RunContext, calls the hook, checks the result's shape and stamps the
   * plugin's version (see `PreparedHook.call`).
   */
  runHook<H extends HookName>(id: string, hook: H, input: HookCalls[H]['input'], context?: Partial<RunContext>): Promise<HookCalls[H]['result']>;
  /** The installed tasks whose manifests declare an optional hook (`validate`, `analyze`, `merge`, `replicate`), comma-separated, or "none". */
  tasksWithHook(hook: TaskHook): string;
  /** Typed evaluation: `options` are checked against the plugin's `TaskRegistry` augmentation. */
  evaluate<K extends TaskId>(id: K, options: TaskOptionsOf<K>, context?: Partial<RunContext>): Promise<Report>;
  /** Untyped evaluation (what the CLI uses). */
  evaluateTask(id: string, options: TaskOptionValues, context?: Partial<RunContext>): Promise<Report>;
}

/** Levenshtein distance (for "did you mean"). */
export function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length];
}

/** Known names close to `name`: same prefix before `/`, or a small edit distance. */
export function suggest(name: string, known: readonly string[]): string[] {
  const lower = name.toLowerCase();
  const scored = known
    .map((k) => {
      const kl = k.toLowerCase();
      const d = editDistance(lower, kl);
      const related = kl.startsWith(lower + '/') || kl.split('/').pop() === lower || d <= Math.max(2, Math.floor(kl.length / 4));
      return { k, d, related };
    })
    .filter((s) => s.related)
    .sort((a, b) => a.d - b.d || codeUnitOrder(a.k, b.k));
  return scored.slice(0, 5).map((s) => s.k);
}

/**
 * The packages that provide a task by the naming convention of docs/plugins.md: task `<dataset>/<task>` is
 * in `@cvdevkit/<dataset>-<task>` (a package of one task) or `@cvdevkit/<dataset>` (a package of several).
 * Empty for an id that is not `<dataset>/<task>`.
 */
export function conventionalPackages(id: string): string[] {
  const m = /^([a-z0-9][a-z0-9._-]*)\/([a-z0-9][a-z0-9._-]*)$/.exec(id.toLowerCase());
  return m ? [`@cvdevkit/${m[1]}-${m[2]}`, `@cvdevkit/${m[1]}`] : [];
}

/**
 * The usage error for an unknown task id (exit code 1): the installed tasks close to it, and the packages that
 * would provide it by the naming convention (`usage/plugin-not-installed` when nothing installed is close).
 */
export function unknownTaskError(id: string, known: readonly string[]): DevkitError {
  const close = suggest(id, known);
  const pkgs = conventionalPackages(id);
  const install = pkgs.length > 0 ? `npm install ${pkgs[0]} (or ${pkgs[1]}, by the plugin naming convention), or pass --plugin <path>` : undefined;
  if (close.length === 0 && install !== undefined) {
    return new DevkitError({
      kind: 'usage',
      code: 'usage/plugin-not-installed',
      field: 'task',
      message: `task "${id}" is not provided by any installed plugin: ${install}`,
    });
  }
  const mean = close.length > 0 ? ` Did you mean ${close.map((c) => `"${c}"`).join(' or ')}?` : '';
  const list = known.length > 0 ? ` Known tasks: ${known.join(', ')}.` : ' No plugins are installed (see `cvdevkit list`).';
  const hint = install !== undefined ? ` If its plugin is not installed: ${install}.` : '';
  return new DevkitError({ kind: 'usage', code: 'usage/unknown-task', field: 'task', message: `unknown task "${id}".${mean}${list}${hint}` });
}

/** Task ids in code-unit order (ids are ASCII, where it agrees with a locale's order on letters, digits, "-" and "/"). */
const compareIds = (a: { id: string }, b: { id: string }) => codeUnitOrder(a.id, b.id);

/** Builds the lookup functions over a discovery result. */
export function createRegistry(discovery: DiscoveryResult): PluginRegistry {
  const listed = new Map<string, TaskListing>();
  for (const plugin of discovery.plugins) for (const t of plugin.summary.tasks) if (!listed.has(t.id)) listed.set(t.id, { ...t, plugin });
  const listing = [...listed.values()].sort(compareIds);
  const ids = listing.map((t) => t.id);
  const byId = new Map<string, RegisteredTask>();
  const register = (plugin: LoadedPlugin) => {
    for (const [id, task] of Object.entries(plugin.plugin.tasks)) if (listed.get(id)?.plugin === plugin) byId.set(id, { id, task, plugin });
  };
  for (const plugin of discovery.plugins) if (plugin.plugin !== undefined) register(plugin as LoadedPlugin);
  const sortedLoaded = () => [...byId.values()].sort(compareIds);
  const getTask = (id: string): RegisteredTask => {
    const t = byId.get(id);
    if (t !== undefined) return t;
    if (!listed.has(id)) throw unknownTaskError(id, ids);
    throw new DevkitError({ kind: 'internal', code: 'internal/task-not-loaded', field: 'task', message: `task "${id}" is not loaded yet (call loadTask first)` });
  };
  const loadTask = async (id: string): Promise<RegisteredTask> => {
    const t = byId.get(id);
    if (t !== undefined) return t;
    const entry = listed.get(id);
    if (entry === undefined) throw unknownTaskError(id, ids);
    register(await entry.plugin.load());
    const loaded = byId.get(id);
    if (loaded === undefined)
      throw contractError(`${JSON.stringify(entry.plugin.packageName)} (${entry.plugin.entry})`, `tasks[${JSON.stringify(id)}]`, 'the task its manifest lists', new Shown('no such task (rebuild the plugin to refresh its manifest)'));
    return loaded;
  };
  const tasksWithHook = (hook: TaskHook): string =>
    listing
      .filter((t) => t.hooks.includes(hook))
      .map((t) => t.id)
      .join(', ') || 'none';
  const prepareHook = <H extends HookName>(id: string, hook: H, metric?: string): PreparedHook<H> =>
    prepareTaskHook(getTask(id), hook, metric, (h) => tasksWithHook(h as TaskHook));
  const runHook = async <H extends HookName>(id: string, hook: H, input: HookCalls[H]['input'], context: Partial<RunContext> = {}): Promise<HookCalls[H]['result']> => {
    await loadTask(id);
    return prepareHook(id, hook, context.metric).call(input, context);
  };
  const evaluateTask = (id: string, options: TaskOptionValues, context: Partial<RunContext> = {}): Promise<Report> => runHook(id, 'evaluate', options, context);
  return {
    ...discovery,
    tasks: () => listing.slice(),
    hasTask: (id) => listed.has(id),
    loadTask,
    loadAll: async () => {
      await Promise.all(discovery.plugins.map(async (p) => register(await p.load())));
    },
    listTasks: sortedLoaded,
    findTask: (id) => byId.get(id),
    getTask,
    prepareHook,
    runHook,
    tasksWithHook,
    evaluateTask,
    evaluate: (id, options, context) => evaluateTask(id, options as TaskOptionValues, context),
  };
}

/** Discovers plugins (see `discoverPlugins`) and builds a registry over them. */
export async function loadRegistry(options: DiscoverOptions = {}): Promise<PluginRegistry> {
  return createRegistry(await discoverPlugins(options));
}

let defaultRegistry: Promise<PluginRegistry> | undefined;

/** The registry for `process.cwd()`, discovered once and cached. */
export function getDefaultRegistry(): Promise<PluginRegistry> {
  defaultRegistry ??= loadRegistry();
  return defaultRegistry;
}

/** Forgets the cached default registry (after installing a plugin, or in tests). */
export function resetDefaultRegistry(): void {
  defaultRegistry = undefined;
}

/** Finds a task among the plugins discoverable from `process.cwd()`. */
export async function findTask(id: string): Promise<RegisteredTask | undefined> {
  return (await getDefaultRegistry()).findTask(id);
}

/** Every task discoverable from `process.cwd()`, sorted by id. */
export async function listTasks(): Promise<RegisteredTask[]> {
  return (await getDefaultRegistry()).listTasks();
}

/**
 * Evaluates a task found from `process.cwd()`. Typed by the plugins' `TaskRegistry` augmentation:
 * `evaluate('voc2010/det', { root: '…' })` is checked at compile time.
 */
export async function evaluate<K extends TaskId>(id: K, options: TaskOptionsOf<K>, context?: Partial<RunContext>): Promise<Report> {
  return (await getDefaultRegistry()).evaluate(id, options, context);
}
