export {
  discoverPlugins,
  findConfigFile,
  readConfigPlugins,
  nodeModulesPath,
  CONFIG_FILE,
  type DiscoverOptions,
  type DiscoveryResult,
  type LoadedPlugin,
  type PluginSource,
} from './discover.js';
export { assertPluginContract, contractError, describeValue } from './contract.js';
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
  packageForTask,
  KNOWN_PLUGIN_PACKAGES,
  type PluginRegistry,
  type RegisteredTask,
} from './registry.js';
