// `cvdevkit list`'s short path (list-fast.ts) against the commander path (main.ts's run), in-process: the same
// stdout, stderr and exit code, byte for byte, for every argv form it accepts; anything else is left to commander.
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { makeTempDir } from '@cvdevkit/test-utils';
import { reservedAttributes } from './common-options.js';
import type { CliIo } from './io.js';
import { LIST_RESERVED_OPTIONS, listArgs, runList } from './list-fast.js';
import { run } from './main.js';

const fixtures = resolve(dirname(fileURLToPath(import.meta.url)), '../test/fixtures');
const repoRoot = resolve(fixtures, '../../../..');

function capture(cwd: string, auto: boolean) {
  const text = { stdout: '', stderr: '' };
  const sink = (key: 'stdout' | 'stderr') => ({ write: (s: string) => ((text[key] += s), true) }) as unknown as NodeJS.WriteStream;
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (auto) delete env.CVDEVKIT_NO_AUTOLOAD;
  else env.CVDEVKIT_NO_AUTOLOAD = '1';
  const io: CliIo = { stdout: sink('stdout'), stderr: sink('stderr'), cwd, env, handleSignals: false };
  return { io, text };
}

/** Both paths on `argv`; the short one must accept it. Stack frames (--debug) name different callers: left out. */
async function both(argv: string[], cwd = fixtures, auto = false) {
  const fast = capture(cwd, auto);
  const slow = capture(cwd, auto);
  const fastCode = await runList(argv, fast.io);
  expect(fastCode, `runList accepts ${argv.join(' ')}`).not.toBeUndefined();
  const slowCode = await run(argv, slow.io);
  const noFrames = (s: string) => s.replace(/^\s+at .*\n/gm, '');
  expect({ code: fastCode, stdout: fast.text.stdout, stderr: noFrames(fast.text.stderr) }).toEqual({ code: slowCode, stdout: slow.text.stdout, stderr: noFrames(slow.text.stderr) });
  return { code: fastCode, ...fast.text };
}

describe('cvdevkit list without commander', () => {
  it('prints what the commander path prints, in every format and option form', async () => {
    const p = ['--plugin', './test-plugin'];
    expect((await both(['list', ...p])).stdout).toMatch(/test\/echo/);
    for (const f of ['table', 'json', 'csv', 'markdown']) {
      await both(['list', '--format', f, ...p]);
      await both(['list', `--format=${f}`, '--plugin=./test-plugin']);
    }
    await both(['list', '-q', '--format', 'json', '--format', 'csv', '--debug', ...p]);
    await both(['list', '--quiet', ...p, '--plugin', '../fixtures/test-plugin']);
    await both(['list'], join(fixtures, 'config-dir'));
    expect((await both(['list'], makeTempDir('cvdevkit-list-none-'))).stderr).toMatch(/no cvdevkit plugins found/);
    expect((await both(['list', '--format', 'json'], repoRoot, true)).stdout).toMatch(/@cvdevkit\/voc2010/);
  });

  it('fails and warns as the commander path does', async () => {
    expect((await both(['list', '--plugin', './broken-plugin.js'])).code).toBe(3);
    expect((await both(['list', '--debug', '--plugin', './broken-plugin.js'])).stderr).toMatch(/evaluate: expected a function/);
    expect((await both(['list', '--plugin', './nope.js'])).code).toBe(1);
    // an auto-discovered broken plugin: skipped with a warning (none with --quiet)
    const project = makeTempDir('cvdevkit-list-warn-');
    const broken = join(project, 'node_modules', 'devkit-plugin-broken');
    mkdirSync(broken, { recursive: true });
    cpSync(join(fixtures, 'broken-plugin.js'), join(broken, 'index.js'));
    writeFileSync(join(broken, 'package.json'), JSON.stringify({ name: 'devkit-plugin-broken', version: '1.0.0', type: 'module', cvdevkit: { plugin: './index.js' } }));
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'p', private: true, dependencies: { 'devkit-plugin-broken': '1.0.0' } }));
    const warned = await both(['list', '--plugin', join(fixtures, 'test-plugin')], project, true);
    expect(warned.stderr).toMatch(/^warning: .*devkit-plugin-broken.*\(skipped\)$/m);
    expect((await both(['list', '-q', '--plugin', join(fixtures, 'test-plugin')], project, true)).stderr).not.toMatch(/warning/);
  });

  it('leaves every other argv to commander', () => {
    for (const argv of [[], ['info'], ['list', '--help'], ['list', 'x'], ['list', '--format', 'yaml'], ['list', '--format'], ['list', '--plugin'], ['list', '--plugin='], ['list', '--plugin', '-q'], ['list', '--'], ['list', '-qq'], ['list', '--quiet=1'], ['list', '--out', 'x.json'], ['-q', 'list']])
      expect(listArgs(argv), argv.join(' ')).toBeUndefined();
    expect(listArgs(['list', '--debug', '--plugin=a', '-q', '--plugin', 'b', '--format', 'csv'])).toEqual({ format: 'csv', quiet: true, debug: true, plugins: ['a', 'b'] });
  });

  it('passes discovery the reserved option names commander derives', () => {
    expect(new Set(LIST_RESERVED_OPTIONS)).toEqual(reservedAttributes());
  });
});
