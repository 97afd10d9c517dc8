import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir } from '@cvdevkit/test-utils';
import { describe, expect, it } from 'vitest';
import { discoverPlugins } from './discover.js';
import { assertPluginContract } from './contract.js';
import { MANIFEST_SCHEMA } from './manifest.js';
import { loadRegistry } from './registry.js';

/** A plugin module with one task per id; `throwOnImport` makes importing it fail (to prove it is not imported). */
function pluginSource(name: string, ids: string[], throwOnImport = false): string {
  const tasks = ids.map((id) => `${JSON.stringify(id)}: { id: ${JSON.stringify(id)}, title: 'T', options: [], metric: 'm', metrics: ['m'], async evaluate() { return { task: ${JSON.stringify(id)}, summary: {}, rows: [] }; } }`);
  return (throwOnImport ? `globalThis.__imported = (globalThis.__imported ?? 0) + 1;\n` : '') + `export default { meta: { name: ${JSON.stringify(name)}, version: '1.0.0', title: 'T' }, tasks: { ${tasks.join(', ')} } };\n`;
}

function manifest(name: string, ids: string[]): string {
  return JSON.stringify({ schema: MANIFEST_SCHEMA, name, title: `${name} title`, version: '1.0.0', tasks: ids.map((id) => ({ id, title: `title of ${id}`, metric: 'm', metrics: ['m'], sample: false })), metrics: [] });
}

/** Writes a package at `dir`: a plugin when `ids` is given (with a manifest when `withManifest`). */
function pkg(dir: string, name: string, opts: { ids?: string[]; deps?: Record<string, string>; withManifest?: boolean; importCounts?: boolean; key?: string } = {}): string {
  mkdirSync(dir, { recursive: true });
  const devkit = opts.ids ? { [opts.key ?? 'cvdevkit']: { plugin: './index.js', ...(opts.withManifest ? { manifest: './devkit.json' } : {}) } } : {};
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, version: '1.0.0', type: 'module', dependencies: opts.deps ?? {}, ...devkit }));
  writeFileSync(join(dir, 'index.js'), opts.ids ? pluginSource(name, opts.ids, opts.importCounts) : 'export default 1;\n');
  if (opts.ids && opts.withManifest) writeFileSync(join(dir, 'devkit.json'), manifest(name, opts.ids));
  return dir;
}

const ids = (plugins: { summary: { tasks: { id: string }[] } }[]) => plugins.flatMap((p) => p.summary.tasks.map((t) => t.id)).sort();

describe('discovery lists what the user installed', () => {
  it('reads the old "devkit" key for one release, with one warning naming the package and the new key', async () => {
    const root = makeTempDir('cvdevkit-disc-');
    const project = pkg(join(root, 'project'), 'project', { deps: { 'old-plugin': '1', 'new-plugin': '1' } });
    pkg(join(project, 'node_modules', 'old-plugin'), 'old-plugin', { ids: ['x/old'], key: 'devkit' });
    pkg(join(project, 'node_modules', 'new-plugin'), 'new-plugin', { ids: ['x/new'] });
    const { plugins, warnings } = await discoverPlugins({ cwd: project, config: false });
    expect(ids(plugins)).toEqual(['x/new', 'x/old']);
    expect(warnings).toEqual(['old-plugin: package.json key "devkit" is deprecated; rename it to "cvdevkit" (the old key is read until the next minor release)']);
  });

  it("a project's direct dependencies, not a plugin that is only another plugin's dependency (hoisted)", async () => {
    const root = makeTempDir('cvdevkit-disc-');
    const project = pkg(join(root, 'project'), 'project', { deps: { 'vid-plugin': '1' } });
    pkg(join(project, 'node_modules', 'vid-plugin'), 'vid-plugin', { ids: ['x/vid'], deps: { 'det-plugin': '1' } });
    pkg(join(project, 'node_modules', 'det-plugin'), 'det-plugin', { ids: ['x/det'] });
    const { plugins } = await discoverPlugins({ cwd: project, config: false });
    expect(ids(plugins)).toEqual(['x/vid']);
  });

  it('a global install: the packages installed next to the CLI, not their nested dependencies', async () => {
    const root = makeTempDir('cvdevkit-disc-');
    const nm = join(root, 'prefix', 'lib', 'node_modules');
    const cli = pkg(join(nm, '@cvdevkit', 'cli'), '@cvdevkit/cli');
    pkg(join(nm, '@cvdevkit', 'vid'), '@cvdevkit/vid', { ids: ['x/vid'] });
    pkg(join(nm, '@cvdevkit', 'vid', 'node_modules', '@cvdevkit', 'det'), '@cvdevkit/det', { ids: ['x/det'] });
    pkg(join(cli, 'node_modules', 'some-dep'), 'some-dep', { ids: ['x/cli-dep'] });
    const empty = join(root, 'empty');
    mkdirSync(empty);
    const { plugins } = await discoverPlugins({ cwd: empty, installPath: join(cli, 'dist', 'bin.js'), config: false });
    expect(plugins.map((p) => [p.packageName, p.source])).toEqual([['@cvdevkit/vid', 'cli-install']]);
  });

  it("a CLI installed in a project's node_modules: the project's direct dependencies", async () => {
    const root = makeTempDir('cvdevkit-disc-');
    const project = pkg(join(root, 'project'), 'project', { deps: { '@cvdevkit/cli': '1', 'vid-plugin': '1' } });
    const cli = pkg(join(project, 'node_modules', '@cvdevkit', 'cli'), '@cvdevkit/cli');
    pkg(join(project, 'node_modules', 'vid-plugin'), 'vid-plugin', { ids: ['x/vid'], deps: { 'det-plugin': '1' } });
    pkg(join(project, 'node_modules', 'det-plugin'), 'det-plugin', { ids: ['x/det'] });
    const elsewhere = join(root, 'elsewhere');
    mkdirSync(elsewhere);
    const { plugins } = await discoverPlugins({ cwd: elsewhere, installPath: join(cli, 'dist', 'bin.js'), config: false });
    expect(ids(plugins)).toEqual(['x/vid']);
  });

  it('a workspace root lists a new plugin folder of its globs with no other edit', async () => {
    const root = makeTempDir('cvdevkit-disc-');
    pkg(root, 'monorepo');
    writeFileSync(join(root, 'pnpm-workspace.yaml'), "packages:\n  - packages/*\n  - 'apps/*' # comment\n\ncatalog:\n  x: 1\n");
    pkg(join(root, 'packages', 'toy'), '@me/toy', { ids: ['toy/t'] });
    pkg(join(root, 'packages', 'lib'), '@me/lib');
    pkg(join(root, 'apps', 'tool'), '@me/tool', { ids: ['tool/t'] });
    pkg(join(root, 'other', 'stray'), '@me/stray', { ids: ['stray/t'] });
    const { plugins } = await discoverPlugins({ cwd: root, config: false });
    expect(plugins.map((p) => [p.packageName, p.source]).sort()).toEqual([
      ['@me/tool', 'workspace'],
      ['@me/toy', 'workspace'],
    ]);
    // npm/yarn workspaces in package.json work the same way
    const npmRoot = makeTempDir('cvdevkit-disc-');
    mkdirSync(npmRoot, { recursive: true });
    writeFileSync(join(npmRoot, 'package.json'), JSON.stringify({ name: 'r', workspaces: ['plugins/*'] }));
    pkg(join(npmRoot, 'plugins', 'a'), 'a', { ids: ['a/t'] });
    expect(ids((await discoverPlugins({ cwd: npmRoot, config: false })).plugins)).toEqual(['a/t']);
  });
});

describe('a CLI run from the root of the workspace it is part of', () => {
  it('scans the workspace once: each plugin listed once as a workspace package, a broken one warned about once', async () => {
    const root = makeTempDir('cvdevkit-disc-');
    pkg(root, 'monorepo');
    writeFileSync(join(root, 'pnpm-workspace.yaml'), 'packages:\n  - packages/*\n  - apps/*\n');
    pkg(join(root, 'packages', 'toy'), '@me/toy', { ids: ['toy/t'], withManifest: true });
    mkdirSync(join(root, 'packages', 'bad'), { recursive: true });
    writeFileSync(join(root, 'packages', 'bad', 'package.json'), JSON.stringify({ name: '@me/bad', cvdevkit: { plugin: 42 } }));
    pkg(join(root, 'apps', 'cli'), '@me/cli');
    const { plugins, failures, warnings } = await discoverPlugins({ cwd: root, config: false, lazy: true, installPath: join(root, 'apps', 'cli') });
    expect(plugins.map((p) => [p.packageName, p.source])).toEqual([['@me/toy', 'workspace']]);
    expect(failures).toHaveLength(1);
    expect(warnings.filter((w) => w.includes('@me/bad'))).toHaveLength(1);
  });
});

describe('lazy discovery', () => {
  it('lists a plugin from its manifest without importing it; loadTask imports it once', async () => {
    const root = makeTempDir('cvdevkit-disc-');
    const project = pkg(join(root, 'project'), 'project', { deps: { lazy: '1', eager: '1' } });
    pkg(join(project, 'node_modules', 'lazy'), 'lazy', { ids: ['lazy/a', 'lazy/b'], withManifest: true, importCounts: true });
    pkg(join(project, 'node_modules', 'eager'), 'eager', { ids: ['eager/a'] });
    const g = globalThis as { __imported?: number };
    g.__imported = 0;
    const reg = await loadRegistry({ cwd: project, config: false, lazy: true });
    expect(reg.tasks().map((t) => [t.id, t.title])).toEqual([
      ['eager/a', 'T'],
      ['lazy/a', 'title of lazy/a'],
      ['lazy/b', 'title of lazy/b'],
    ]);
    expect(g.__imported).toBe(0);
    expect(reg.hasTask('lazy/b')).toBe(true);
    expect(reg.findTask('lazy/b')).toBeUndefined();
    expect(() => reg.getTask('lazy/b')).toThrow(/not loaded/);
    const t = await reg.loadTask('lazy/b');
    expect(t.task.id).toBe('lazy/b');
    await reg.loadTask('lazy/a');
    expect(g.__imported).toBe(1);
    await expect(reg.loadTask('lazy/c')).rejects.toMatchObject({ kind: 'usage' });
    expect(reg.getTask('lazy/a').plugin.packageName).toBe('lazy');
  });
});

describe('reserved option names', () => {
  const withOption = (name: string) => ({
    meta: { name: 'p', version: '1.0.0', title: 'P' },
    tasks: { 'p/t': { id: 'p/t', title: 'T', options: [{ name, type: 'path', required: true, description: 'x' }], metric: 'm', metrics: ['m'], evaluate: async () => ({}) } },
  });

  it('rejects a task option named like a common option, naming the plugin and the option', () => {
    for (const name of ['out', 'format', 'workers', 'metric', 'cacheDir', 'plots']) {
      expect(() => assertPluginContract(withOption(name), '"my-plugin" (./my-plugin.js)')).toThrow(
        new RegExp(`^plugin "my-plugin" \\(\\./my-plugin\\.js\\): tasks\\["p/t"\\]\\.options\\[0\\]\\.name: expected a name no common option uses, found "${name}" \\(.*reserved`),
      );
    }
    expect(() => assertPluginContract(withOption('pred'), 'x')).not.toThrow();
  });

  it('the front end adds its own names (the CLI passes its options table)', async () => {
    expect(() => assertPluginContract(withOption('shard'), 'x', ['shard'])).toThrow(/"shard" is reserved/);
    const root = makeTempDir('cvdevkit-disc-');
    writeFileSync(join(root, 'p.js'), `export default ${JSON.stringify(withOption('colour')).replace('"evaluate":{}', '')};`.replace('}}}', ',evaluate: async () => ({})}}}'));
    await expect(discoverPlugins({ cwd: root, plugins: ['./p.js'], autoDiscover: false, reservedOptions: ['colour'] })).rejects.toMatchObject({ code: 'plugin/contract' });
  });
});
