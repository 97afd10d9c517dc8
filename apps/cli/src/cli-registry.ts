/** The plugin registry as every command sees it (main.ts, and `list`'s short path in list-fast.ts): one set of discovery options. */
import { fileURLToPath } from 'node:url';
import { loadRegistry, type PluginRegistry } from '@cvdevkit/registry';
import type { CliIo } from './io.js';

/** Discovers the plugins: `--plugin` values, the config file, the project and the CLI's install, listed lazily from manifests. */
export function loadCliRegistry(io: CliIo, plugins: string[], reservedOptions: Iterable<string>): Promise<PluginRegistry> {
  return loadRegistry({
    cwd: io.cwd,
    plugins,
    // the CLI's package folder (bundle/ and dist/ sit one level below it; bundle/ has a package.json of its own)
    installPath: fileURLToPath(new URL('..', import.meta.url)),
    autoDiscover: io.env.CVDEVKIT_NO_AUTOLOAD !== '1',
    lazy: true,
    reservedOptions,
  });
}
