/**
 * A light install: the CLI and a plugin without @cvdevkit/report-html evaluate; the options that draw
 * (`--format html`, `--plots`, `--images`, `compare --format html`) exit 1 naming the package to add.
 * The built bundle is copied into a folder whose node_modules hold every external but report-html.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, symlinkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '@cvdevkit/test-utils';

const here = dirname(fileURLToPath(import.meta.url));
const cli = resolve(here, '..');
const repo = resolve(cli, '../..');
let dir = '';

function run(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(dir, 'bundle', 'bin.js'), ...args], { cwd: dir, env: { ...process.env, CVDEVKIT_NO_AUTOLOAD: '1', CVDEVKIT_CACHE_DIR: join(dir, 'cache') }, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(() => {
  dir = makeTempDir('cvdevkit-light-');
  cpSync(join(cli, 'bundle'), join(dir, 'bundle'), { recursive: true });
  cpSync(join(cli, 'package.json'), join(dir, 'package.json')); // an installed package has its manifest (the version is read from it)
  mkdirSync(join(dir, 'node_modules', '@cvdevkit'), { recursive: true });
  for (const name of ['@cvdevkit/core', '@cvdevkit/formats', '@cvdevkit/analysis', 'cli-progress']) symlinkSync(realpathSync(join(cli, 'node_modules', name)), join(dir, 'node_modules', name), 'dir');
});

describe('without @cvdevkit/report-html', () => {
  const voc = ['--plugin', join(repo, 'packages', 'voc2010')];
  it('evaluates (demo, JSON)', () => {
    const r = run(['demo', 'voc2010/cls', '--dir', join(dir, 'demo'), '--format', 'json', ...voc]);
    expect(r.stderr).not.toMatch(/report-html/);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).task).toBe('voc2010/cls');
  });
  it('evaluates every task of every plugin in the repository (the demo of each, JSON)', () => {
    // every workspace package that declares a plugin (package.json "cvdevkit": { "plugin" }): found, not listed
    const plugins = readdirSync(join(repo, 'packages'))
      .map((name) => join(repo, 'packages', name))
      .filter((folder) => existsSync(join(folder, 'package.json')) && (JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { cvdevkit?: { plugin?: string } }).cvdevkit?.plugin);
    const listed = run(['list', '--format', 'json', ...plugins.flatMap((p) => ['--plugin', p])]);
    expect(listed.code, listed.stderr).toBe(0);
    const tasks = (JSON.parse(listed.stdout) as { plugins: { tasks: { id: string }[] }[] }).plugins.flatMap((p) => p.tasks.map((t) => t.id));
    const r = run(['demo', '--dir', join(dir, 'demo-all'), '--format', 'json', ...plugins.flatMap((p) => ['--plugin', p])]);
    expect(r.stderr).not.toMatch(/report-html/);
    expect(r.code, r.stderr).toBe(0);
    const evaluated = new Set((JSON.parse(r.stdout) as { task: string }[]).map((report) => report.task));
    // every task with a sample (the deprecated alias and seg-from-det, which reads det's output, have none)
    expect(evaluated.size).toBeGreaterThanOrEqual(13);
    for (const id of evaluated) expect(tasks).toContain(id);
  });
  it.each([
    [['--format', 'html'], '--format html'],
    [['--plots', 'plots'], '--plots'],
  ])('%j exits 1 naming the package', (extra, feature) => {
    const r = run(['demo', 'voc2010/cls', '--dir', join(dir, 'demo'), ...extra, ...voc]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${feature} needs the package @cvdevkit/report-html, which is not installed: npm install @cvdevkit/report-html`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
  it('analyze --images exits 1 before reading anything', () => {
    const r = run(['analyze', 'voc2010/det', '--root', join(dir, 'nowhere'), '--images', dir, ...voc]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--images needs the package @cvdevkit/report-html');
  });
});
