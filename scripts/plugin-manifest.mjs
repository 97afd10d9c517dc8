// Build step of a plugin package (run in its directory after tsc): imports the built plugin, checks the
// contract and writes its manifest (package.json "cvdevkit.manifest", e.g. dist/devkit.json), which lets the
// CLI list the plugin's tasks without importing it. The manifest is generated, never written by hand, so it
// cannot drift from the task definitions.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const dir = process.cwd();
const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
const { plugin: entry, manifest } = pkg.cvdevkit ?? {};
if (typeof entry !== 'string' || typeof manifest !== 'string') {
  console.error(`${pkg.name}: package.json needs "cvdevkit": { "plugin": "<module>", "manifest": "<file>" }`);
  process.exit(1);
}
const registry = await import(pathToFileURL(createRequire(join(dir, 'package.json')).resolve('@cvdevkit/registry')).href);
const plugin = (await import(pathToFileURL(resolve(dir, entry)).href)).default;
registry.assertPluginContract(plugin, `${JSON.stringify(pkg.name)} (${entry})`);
registry.writePluginManifest(resolve(dir, manifest), plugin);
