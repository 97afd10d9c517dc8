import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDevkitError } from '@cvdevkit/core';
import { discoverPlugins } from './discover.js';
import { createRegistry, loadRegistry } from './registry.js';

function pluginSource(name: string, taskIds: string[], opts: { evaluate?: boolean; version?: string } = {}): string {
  const tasks = taskIds
    .map(
      (id) => `${JSON.stringify(id)}: {
        id: ${JSON.stringify(id)}, title: 'Task ${id}',
        options: [{ name: 'value', type: 'number', description: 'a number', default: 1 }],
        metric: 'm', metrics: ['m', 'm2'],
        ${opts.evaluate === false ? '' : `async evaluate(o, ctx) { return { schema: 'cvdevkit.report/1', task: ${JSON.stringify(id)}, metric: ctx.metric, summary: { score: o.value * 2 }, rows: [], curves: [], matrices: {}, diagnostics: [], versions: {}, timings: { totalMs: 0 } }; },`}
      }`,
    )
    .join(',\n');
  return `export default { meta: { name: ${JSON.stringify(name)}, version: ${JSON.stringify(opts.version ?? '1.2.3')}, title: 'T' }, tasks: { ${tasks} } };\n`;
}

function writePackage(root: string, name: string, body: string, devkit: unknown = { plugin: './index.js' }): string {
  const dir = join(root, 'node_modules', ...name.split('/'));
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, version: '0.9.0', type: 'module', ...(devkit ? { cvdevkit: devkit } : {}) }));
  writeFileSync(join(dir, 'index.js'), body);
  return dir;
}

let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'cvdevkit-registry-'));
  writeFileSync(join(root, 'good.js'), pluginSource('good', ['good/a', 'good/b']));
  writeFileSync(join(root, 'no-eval.js'), pluginSource('noeval', ['noeval/x'], { evaluate: false }));
  writeFileSync(join(root, 'dup.js'), pluginSource('dup', ['good/a', 'dup/c']));
  writeFileSync(join(root, 'syntax.js'), 'export default {{{;\n');
  writeFileSync(join(root, 'bad-compiler.js'), pluginSource('badcompiler', ['badcompiler/x']).replace("metric: 'm'", "metric: 'm', optimisingCompiler: 'no'"));
  writeFileSync(join(root, 'not-object.js'), 'export default 42;\n');
  // loaded by import() after require refuses it (top-level await), and a CommonJS plugin (its exports are the default)
  writeFileSync(join(root, 'tla.mjs'), `await Promise.resolve();\n${pluginSource('tla', ['tla/t'])}`);
  writeFileSync(join(root, 'common.cjs'), pluginSource('common', ['common/t']).replace('export default', 'module.exports ='));

  // A project with dependencies: one plugin, one ordinary package, one broken plugin.
  const project = join(root, 'project');
  mkdirSync(join(project, 'sub'), { recursive: true });
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'project', dependencies: { '@scope/dep-plugin': '1', 'plain-lib': '1' }, devDependencies: { 'broken-dep': '1' } }),
  );
  writePackage(project, '@scope/dep-plugin', pluginSource('dep', ['dep/t']));
  writePackage(project, 'plain-lib', 'export default 1;\n', null);
  writePackage(project, 'broken-dep', pluginSource('broken', ['broken/t'], { evaluate: false }));

  // A config dir.
  const conf = join(root, 'conf');
  mkdirSync(join(conf, 'deep', 'er'), { recursive: true });
  mkdirSync(join(conf, 'plugins'), { recursive: true });
  writeFileSync(join(conf, 'plugins', 'local.js'), pluginSource('local', ['local/t']));
  writeFileSync(join(conf, 'devkit.config.json'), JSON.stringify({ plugins: ['./plugins/local.js', '@scope/conf-pkg'] }));
  writePackage(conf, '@scope/conf-pkg', pluginSource('confpkg', ['confpkg/t']));

  // A fake global install: <prefix>/node_modules/@cvdevkit/cli/dist/bin.js next to a plugin.
  const prefix = join(root, 'global');
  const cliDir = writePackage(prefix, '@cvdevkit/cli', 'export {};\n', null);
  mkdirSync(join(cliDir, 'dist'), { recursive: true });
  writeFileSync(join(cliDir, 'dist', 'bin.js'), '');
  writePackage(prefix, '@cvdevkit/globalplug', pluginSource('globalplug', ['globalplug/t']));
  writePackage(prefix, 'other-global', pluginSource('otherglobal', ['otherglobal/t']));
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

async function rejection(p: Promise<unknown>): Promise<{ message: string; kind?: string; code?: string }> {
  try {
    await p;
  } catch (e) {
    expect(isDevkitError(e)).toBe(true);
    return e as { message: string; kind: string; code: string };
  }
  throw new Error('expected a rejection');
}

describe('discoverPlugins', () => {
  it('loads a valid plugin given by path (flag)', async () => {
    const { plugins, warnings } = await discoverPlugins({ cwd: root, plugins: ['./good.js'], autoDiscover: false });
    expect(warnings).toEqual([]);
    expect(plugins).toHaveLength(1);
    expect(plugins[0]).toMatchObject({ packageName: 'good', version: '1.2.3', source: 'flag' });
    expect(Object.keys(plugins[0].plugin!.tasks)).toEqual(['good/a', 'good/b']);
  });

  it('rejects a plugin missing evaluate with a one-line contract error naming it and the field', async () => {
    const e = await rejection(discoverPlugins({ cwd: root, plugins: ['./no-eval.js'], autoDiscover: false }));
    expect(e.kind).toBe('internal');
    expect(e.code).toBe('plugin/contract');
    expect(e.message).toBe('plugin "no-eval" (./no-eval.js): tasks["noeval/x"].evaluate: expected a function, found nothing');
  });

  it('rejects an optimisingCompiler hint that is not a boolean', async () => {
    const e = await rejection(discoverPlugins({ cwd: root, plugins: ['./bad-compiler.js'], autoDiscover: false }));
    expect(e.message).toBe('plugin "bad-compiler" (./bad-compiler.js): tasks["badcompiler/x"].optimisingCompiler: expected true, false or undefined, found "no"');
  });

  it('rejects a default export that is not a plugin object', async () => {
    const e = await rejection(discoverPlugins({ cwd: root, plugins: ['./not-object.js'], autoDiscover: false }));
    expect(e.message).toBe('plugin "not-object" (./not-object.js): default export: expected a plugin object { meta, tasks }, found 42');
  });

  it('loads a plugin with top-level await (import() after require) and a CommonJS one (module.exports as the default)', async () => {
    const { plugins } = await discoverPlugins({ cwd: root, plugins: ['./tla.mjs', './common.cjs'], autoDiscover: false });
    expect(plugins.map((p) => Object.keys(p.plugin!.tasks))).toEqual([['tla/t'], ['common/t']]);
  });

  it('reports a module that does not load as an internal error on one line', async () => {
    const e = await rejection(discoverPlugins({ cwd: root, plugins: ['./syntax.js'], autoDiscover: false }));
    expect(e.kind).toBe('internal');
    expect(e.code).toBe('plugin/load');
    expect(e.message).toMatch(/^plugin "syntax" \(\.\/syntax\.js\): cannot be loaded: /);
    expect(e.message).not.toContain('\n');
  });

  it('a missing file or package is a usage error', async () => {
    const e1 = await rejection(discoverPlugins({ cwd: root, plugins: ['./nope.js'], autoDiscover: false }));
    expect(e1.kind).toBe('usage');
    const e2 = await rejection(discoverPlugins({ cwd: root, plugins: ['no-such-package'], autoDiscover: false }));
    expect(e2.kind).toBe('usage');
    expect(e2.message).toContain('no-such-package');
  });

  it('keeps the first plugin for a duplicate task id and warns', async () => {
    const { plugins, warnings } = await discoverPlugins({ cwd: root, plugins: ['./good.js', './dup.js'], autoDiscover: false });
    expect(plugins).toHaveLength(2);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('"good/a"');
    const reg = createRegistry({ plugins, warnings, failures: [] });
    expect(reg.findTask('good/a')!.plugin.packageName).toBe('good');
    expect(reg.findTask('dup/c')!.plugin.packageName).toBe('dup');
  });

  it('loads the same module once', async () => {
    const { plugins } = await discoverPlugins({ cwd: root, plugins: ['./good.js', join(root, 'good.js')], autoDiscover: false });
    expect(plugins).toHaveLength(1);
  });

  it('finds plugin dependencies of the nearest package.json; a broken one is skipped with a warning', async () => {
    const { plugins, warnings, failures } = await discoverPlugins({ cwd: join(root, 'project', 'sub') });
    expect(plugins.map((p) => [p.packageName, p.version, p.source])).toEqual([['@scope/dep-plugin', '0.9.0', 'dependency']]);
    expect(failures).toHaveLength(1);
    expect(warnings[0]).toContain('"broken-dep"');
    expect(warnings[0]).toContain('tasks["broken/t"].evaluate: expected a function, found nothing');
  });

  it('reads devkit.config.json from an ancestor, paths relative to the config file', async () => {
    const { plugins } = await discoverPlugins({ cwd: join(root, 'conf', 'deep', 'er') });
    expect(plugins.map((p) => [p.packageName, p.source])).toEqual([
      ['local', 'config'],
      ['@scope/conf-pkg', 'config'],
    ]);
  });

  it('a malformed config file is a usage error', async () => {
    const dir = join(root, 'badconf');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'devkit.config.json'), '{ "plugins": [1] }');
    const e = await rejection(discoverPlugins({ cwd: dir }));
    expect(e.kind).toBe('usage');
    expect(e.message).toContain('devkit.config.json');
  });

  it('scans the node_modules holding the CLI install (scoped and unscoped)', async () => {
    const installPath = join(root, 'global', 'node_modules', '@cvdevkit', 'cli', 'dist', 'bin.js');
    const { plugins } = await discoverPlugins({ cwd: tmpdir(), installPath, config: false });
    expect(plugins.filter((p) => p.source === 'cli-install').map((p) => [p.packageName, p.source]).sort()).toEqual([
      ['@cvdevkit/globalplug', 'cli-install'],
      ['other-global', 'cli-install'],
    ]);
    // --plugin by package name also resolves next to the CLI.
    const flagged = await discoverPlugins({ cwd: tmpdir(), installPath, plugins: ['@cvdevkit/globalplug'], autoDiscover: false });
    expect(flagged.plugins.map((p) => p.source)).toEqual(['flag']);
  });
});

describe('registry', () => {
  it('lists, finds and evaluates tasks; unknown ids and metrics are usage errors', async () => {
    const reg = await loadRegistry({ cwd: root, plugins: ['./good.js'], autoDiscover: false });
    expect(reg.listTasks().map((t) => t.id)).toEqual(['good/a', 'good/b']);
    const report = await reg.evaluateTask('good/a', { value: 21 });
    expect(report.summary.score).toBe(42);
    expect(report.metric).toBe('m');
    expect(report.versions).toEqual({ good: '1.2.3' });
    expect(report.dataset).toBe('good');
    expect((await reg.evaluateTask('good/a', { value: 1 }, { metric: 'm2' })).metric).toBe('m2');
    const e1 = await rejection(reg.evaluateTask('good/a', { value: 1 }, { metric: 'nope' }));
    expect(e1.kind).toBe('usage');
    const e2 = await rejection(reg.evaluateTask('good/c', {}));
    expect(e2.kind).toBe('usage');
    expect(e2.message).toContain('Did you mean "good/a" or "good/b"?');
  });
});
