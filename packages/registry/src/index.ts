export {
  discoverPlugins,
  type DiscoverOptions,
  type DiscoveryResult,
  type FoundPlugin,
  type LoadedPlugin,
  type PluginSource,
} from './discover.js';
export { findConfigFile, readConfigPlugins, CONFIG_FILE, PLUGIN_KEY, OLD_PLUGIN_KEY } from './plugin-candidates.js';
export { nodeModulesPath } from './package-files.js';
export { readPluginManifest, writePluginManifest, summarizePlugin, MANIFEST_SCHEMA, type PluginSummary, type TaskSummary, TASK_HOOKS, type TaskHook } from './manifest.js';
export { workspacePackageDirs } from './workspace.js';
export { assertPluginContract, contractError, RESERVED_OPTION_NAMES } from './contract.js';
export {
  createRegistry,
  loadRegistry,
  getDefaultRegistry,
  resetDefaultRegistry,
  findTask,
  listTasks,
  evaluate,
  suggest,
  editDistance,
  unknownTaskError,
  conventionalPackages,
  type PluginRegistry,
  type RegisteredTask,
  type TaskListing,
} from './registry.js';
export { HOOK_NAMES, resolveMetric, type HookCalls, type HookName, type MergeInput, type PreparedHook } from './task-hook.js';
