/**
 * The README's install lines, verbatim, against a real local registry: every package is published to
 * verdaccio with changesets (pnpm publish rewrites the workspace: ranges), then npm (not pnpm) installs
 * the CLI and plugins globally into a temporary prefix, and a TypeScript consumer compiles against the
 * published types. Nothing touches the user's npm config, cache or global prefix.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, fixturePath, makeTempDir } from '@cvdevkit/test-utils';
import { startRegistry, type LocalRegistry } from './verdaccio.js';

const built = existsSync(join(REPO_ROOT, 'apps', 'cli', 'bundle', 'bin.js'));
const skip = !built || process.env.CVDEVKIT_SKIP_REGISTRY_TEST === '1';
if (skip) console.log(`registry install test skipped: ${!built ? 'build first (pnpm test builds)' : 'CVDEVKIT_SKIP_REGISTRY_TEST=1'}`);

let dir: string;
let registry: LocalRegistry | undefined;
let env: NodeJS.ProcessEnv;

/** The pnpm that runs the tests (npx puts it on PATH), else the one `npx pnpm@10.34.9` caches. */
function findPnpm(): string {
  const onPath = spawnSync('sh', ['-c', 'command -v pnpm'], { encoding: 'utf8' });
  if (onPath.status === 0 && onPath.stdout.trim()) return onPath.stdout.trim();
  return execFileSync('npx', ['--yes', 'pnpm@10.34.9', 'exec', 'sh', '-c', 'command -v pnpm'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
}

/** The environment of every npm/pnpm child: our registry and config only (no inherited npm_config_*). */
function isolatedEnv(reg: LocalRegistry, binDirs: string[]): NodeJS.ProcessEnv {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_config_|^npm_package_|^pnpm_config_/i.test(k)));
  const globalconfig = join(dir, 'npmrc-global');
  writeFileSync(globalconfig, '');
  return {
    ...clean,
    npm_config_registry: reg.url,
    npm_config_userconfig: reg.npmrc,
    npm_config_globalconfig: globalconfig,
    npm_config_cache: join(dir, 'npm-cache'),
    npm_config_store_dir: join(dir, 'pnpm-store'),
    PATH: [...binDirs, process.env.PATH].join(':'),
  };
}

function run(cmd: string, args: string[], cwd: string, extraEnv: NodeJS.ProcessEnv = {}): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(cmd, args, { cwd, env: { ...env, ...extraEnv }, encoding: 'utf8', timeout: 300_000, maxBuffer: 1 << 26 });
  return { code: r.status, stdout: r.stdout ?? '', stderr: (r.stderr ?? '') + (r.error ? String(r.error) : '') };
}

function ok(r: { code: number | null; stdout: string; stderr: string }, what: string): string {
  expect(r.code, `${what}\n${r.stderr.slice(-3000)}`).toBe(0);
  return r.stdout;
}

/** The workspace's public packages (not `private`), as names under @cvdevkit/: what a release publishes. */
function publicPackageNames(): string[] {
  const names: string[] = [];
  for (const folder of ['packages', 'apps']) {
    for (const entry of readdirSync(join(REPO_ROOT, folder))) {
      const manifest = join(REPO_ROOT, folder, entry, 'package.json');
      if (!existsSync(manifest)) continue;
      const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { name: string; private?: boolean };
      if (!pkg.private) names.push(pkg.name.replace(/^@cvdevkit\//, ''));
    }
  }
  return names.sort();
}

/** `npm i -g --prefix <prefix> …` and the prefix's bin directory. */
function globalInstall(prefix: string, packages: string[]): void {
  ok(run('npm', ['i', '-g', '--prefix', prefix, ...packages], dir), `npm i -g ${packages.join(' ')}`);
}

/** Bytes on disk under a prefix (`du -sb`). */
function installSize(prefix: string): number {
  return Number(ok(run('du', ['-sb', prefix], dir), 'du').split(/\s/)[0]);
}

function listedTasks(prefix: string, cwd: string): string[] {
  const out = ok(run(join(prefix, 'bin', 'cvdevkit'), ['list', '--format', 'json'], cwd), 'cvdevkit list');
  return (JSON.parse(out) as { plugins: { tasks: { id: string }[] }[] }).plugins.flatMap((p) => p.tasks.map((t) => t.id)).sort();
}

beforeAll(async () => {
  if (skip) return;
  dir = makeTempDir('cvdevkit-registry-install-');
  registry = await startRegistry(join(dir, 'verdaccio'));
  const shims = join(dir, 'bin');
  mkdirSync(shims);
  symlinkSync(findPnpm(), join(shims, 'pnpm'));
  env = isolatedEnv(registry, [shims]);
  // A release: changesets publishes every package whose version is not on the registry yet, through pnpm.
  const changeset = join(REPO_ROOT, 'node_modules', '@changesets', 'cli', 'bin.js');
  ok(run(process.execPath, [changeset, 'publish', '--no-git-tag'], REPO_ROOT), 'changeset publish');
}, 360_000);

afterAll(async () => {
  await registry?.stop();
});

describe.skipIf(skip)('install through a real registry (verdaccio)', () => {
  it('published every public package, with ranges instead of workspace: and a clean publint', () => {
    const scope = join(registry!.storage, '@cvdevkit');
    const names = readdirSync(scope).sort();
    // every public workspace package, found rather than listed: a new plugin package needs no edit here
    expect(names).toEqual(publicPackageNames());
    expect(names).toContain('cli');
    const tarballs = names.flatMap((n) => readdirSync(join(scope, n)).filter((f) => f.endsWith('.tgz')).map((f) => join(scope, n, f)));
    for (const n of names) {
      const meta = JSON.parse(readFileSync(join(scope, n, 'package.json'), 'utf8')) as { versions: Record<string, { dependencies?: Record<string, string>; peerDependencies?: Record<string, string> }> };
      for (const v of Object.values(meta.versions)) expect(JSON.stringify({ ...v.dependencies, ...v.peerDependencies })).not.toContain('workspace:');
    }
    const publint = spawnSync(process.execPath, [join(REPO_ROOT, 'scripts', 'publint-packages.mjs'), ...tarballs], { encoding: 'utf8' });
    expect(publint.status, publint.stdout).toBe(0);
    expect(publint.stdout).toContain(`publint: ${tarballs.length} of ${tarballs.length} tarballs clean`);
  });

  it('npm i -g @cvdevkit/cli @cvdevkit/voc2010: list, demo, eval with the official mAP; then + @cvdevkit/ade20k-boundary', () => {
    const prefix = join(dir, 'prefix-voc');
    const project = join(dir, 'empty-project');
    mkdirSync(project);
    globalInstall(prefix, ['@cvdevkit/cli', '@cvdevkit/voc2010']);
    const bin = join(prefix, 'bin', 'cvdevkit');
    expect(listedTasks(prefix, project)).toEqual(['voc2010/action', 'voc2010/cls', 'voc2010/det', 'voc2010/layout', 'voc2010/seg', 'voc2010/seg-from-det']);
    ok(run(bin, ['demo', 'voc2010/det', '--no-cache'], project), 'cvdevkit demo voc2010/det');
    const root = fixturePath('voc2010', 'medium');
    const report = JSON.parse(ok(run(bin, ['eval', 'voc2010/det', '--root', root, '--format', 'json', '--no-cache'], project), 'cvdevkit eval')) as { summary: { mAP: number } };
    const expected = JSON.parse(readFileSync(join(root, 'expected.json'), 'utf8')) as { det: Record<string, { ap: number | string }> };
    const aps = Object.values(expected.det).map((c) => (c.ap === 'NaN' ? NaN : Number(c.ap)));
    const official = aps.reduce((a, b) => a + b, 0) / aps.length;
    expect(Math.abs(report.summary.mAP - official)).toBeLessThanOrEqual(1e-12);
    // a light install (no report-html): the HTML page is a usage error naming the package to add
    const page = join(project, 'report.html');
    const light = run(bin, ['eval', 'voc2010/det', '--root', root, '--out', page, '--no-cache', '--quiet'], project);
    expect(light.code).toBe(1);
    expect(light.stderr).toContain('needs the package @cvdevkit/report-html, which is not installed');
    const lightSize = installSize(prefix);
    // the HTML page from the installed packages: Vega's bundles and the one-file chart worker found in npm's layout
    globalInstall(prefix, ['@cvdevkit/report-html']);
    console.log(`install size: @cvdevkit/cli + @cvdevkit/voc2010 ${(lightSize / 1e6).toFixed(1)} MB; + @cvdevkit/report-html ${(installSize(prefix) / 1e6).toFixed(1)} MB (du of the prefix)`);
    ok(run(bin, ['eval', 'voc2010/det', '--root', root, '--out', page, '--no-cache', '--quiet'], project), 'cvdevkit eval --out report.html');
    const html = readFileSync(page, 'utf8');
    for (const id of ['pr-curves', 'pr-curves-per-class', 'ap-per-class']) expect(html).toMatch(new RegExp(`<figure class="chart" id="chart-${id}"><div class="svg"><svg `));

    globalInstall(prefix, ['@cvdevkit/ade20k-boundary']);
    const tasks = listedTasks(prefix, project);
    expect(tasks).toContain('ade20k/boundary');
    expect(tasks).toContain('ade20k/boundary-merge');
    expect(tasks).toContain('voc2010/det');
  });

  it('a VID-only install lists only VID (DET is not pulled in)', () => {
    const prefix = join(dir, 'prefix-vid');
    globalInstall(prefix, ['@cvdevkit/cli', '@cvdevkit/ilsvrc2015-vid']);
    expect(listedTasks(prefix, dir)).toEqual(['ilsvrc2015/vid']);
  });

  it('a strict NodeNext TypeScript consumer compiles against the published types and runs', () => {
    const app = join(dir, 'consumer');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    ok(run('npm', ['i', '@cvdevkit/core', '@cvdevkit/registry', '@cvdevkit/voc2010'], app), 'npm i (consumer)');
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, types: [], outDir: 'dist' }, include: ['index.ts'] }),
    );
    const root = fixturePath('voc2010', 'medium');
    writeFileSync(
      join(app, 'index.ts'),
      `import voc from '@cvdevkit/voc2010';
import { createRunContext } from '@cvdevkit/core';
import { loadRegistry } from '@cvdevkit/registry';

// The README's library snippet.
const report = await voc.tasks['voc2010/det'].evaluate({ root: ${JSON.stringify(root)}, set: 'val' }, createRunContext());
console.log(report.summary.mAP);

// The typed registry: the options of 'voc2010/det' are checked at compile time.
const registry = await loadRegistry({ plugins: ['@cvdevkit/voc2010'], autoDiscover: false });
const again = await registry.evaluate('voc2010/det', { root: ${JSON.stringify(root)}, set: 'val' });
// @ts-expect-error: 'rot' is not an option of voc2010/det
void (() => registry.evaluate('voc2010/det', { rot: 'x' }));
console.log(again.summary.mAP === report.summary.mAP ? 'same' : 'different');
`,
    );
    ok(run(process.execPath, [join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', app], app), 'tsc');
    const out = ok(run(process.execPath, [join(app, 'dist', 'index.js')], app), 'node dist/index.js').trim().split('\n');
    expect(Number(out[0])).toBeGreaterThan(0);
    expect(out[1]).toBe('same');
  });
});
