// End-to-end tests: spawn the BUILT binary (apps/cli/bundle/bin.js, the package's bin; the root `pnpm test` builds first).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '@cvdevkit/test-utils';

const here = dirname(fileURLToPath(import.meta.url));
// The CLI's parse cache for these runs: removed after this file (vitest setup file of @cvdevkit/test-utils).
const cacheDir = makeTempDir('cvdevkit-cli-test-cache-');
const bin = resolve(here, '../bundle/bin.js');
const fixtures = join(here, 'fixtures');
const repoRoot = resolve(here, '../../..');
const plugin = ['--plugin', './test-plugin'];

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `cvdevkit` in `cwd` (default: the fixtures dir) with automatic discovery off unless `auto`. */
function cvdevkit(args: string[], opts: { cwd?: string; auto?: boolean } = {}): Result {
  const env: NodeJS.ProcessEnv = { ...process.env, CVDEVKIT_CACHE_DIR: cacheDir };
  if (opts.auto) delete env.CVDEVKIT_NO_AUTOLOAD;
  else env.CVDEVKIT_NO_AUTOLOAD = '1';
  const r = spawnSync(process.execPath, [bin, ...args], { cwd: opts.cwd ?? fixtures, env, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

// What the test plugin computes: AP = mean precision at the hits (cat: 1 and 2/3; dog: 1/2 and 2/3).
const apCat = (1 + 2 / 3) / 2;
const apDog = (1 / 2 + 2 / 3) / 2;
const mAP = (0 + apCat + apDog) / 2;

const noStack = (s: string) => expect(s).not.toMatch(/^\s+at /m);

let tmp: string;
beforeAll(() => {
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run \`pnpm build\` at the repo root first`);
  tmp = mkdtempSync(join(tmpdir(), 'cvdevkit-cli-e2e-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('cvdevkit list / info', () => {
  it('list shows every task of a --plugin with package and version', () => {
    const r = cvdevkit(['list', ...plugin]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('test/echo');
    expect(r.stdout).toContain('test/crash');
    expect(r.stdout).toContain('devkit-plugin-test@0.0.7');
    expect(r.stdout).toContain('ap-11point');
  });

  it('list --format json', () => {
    const r = cvdevkit(['list', '--format', 'json', ...plugin]);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.plugins[0]).toMatchObject({ package: 'devkit-plugin-test', version: '0.0.7', source: 'flag' });
    expect(j.plugins[0].tasks.map((t: { id: string }) => t.id)).toEqual(['test/echo', 'test/crash']);
  });

  it('finds plugins through devkit.config.json in the cwd', () => {
    const r = cvdevkit(['list'], { cwd: join(fixtures, 'config-dir') });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('test/echo');
    expect(r.stdout).toContain('(config)');
  });

  it('list from the repo root exits 0 (workspace plugins discovered automatically)', () => {
    const r = cvdevkit(['list', '--plugin', join(fixtures, 'test-plugin')], { cwd: repoRoot, auto: true });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('test/echo');
    noStack(r.stderr);
  });

  it('plain list from the repo root starts no ES module loader (bundle/list-fast.cjs is CommonJS)', () => {
    // Node's internal modules loaded by the end of the run: `list` must not need the loader's module jobs
    const probe = `process.on('exit', () => process.stderr.write('\\nloaded: ' + process.moduleLoadList.filter((m) => m.includes('/esm/')).join(' ') + '\\n')); process.argv.splice(1, Infinity, ${JSON.stringify(bin)}, 'list'); require(${JSON.stringify(bin)});`;
    const r = spawnSync(process.execPath, ['-e', probe], { cwd: repoRoot, encoding: 'utf8', timeout: 60_000 });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('voc2010/cls');
    const loaded = /loaded: (.*)/.exec(r.stderr)?.[1] ?? '';
    expect(loaded).toContain('esm/loader'); // part of Node's own start: the probe sees the list
    expect(loaded).not.toContain('esm/module_job');
  });

  it('info lists inputs with types, defaults and required, and the metrics', () => {
    const r = cvdevkit(['info', 'test/echo', ...plugin]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/--input <path>\s+path\s+required/);
    expect(r.stdout).toMatch(/--scale <number>\s+number\s+default 1/);
    expect(r.stdout).toMatch(/official metric\s+ap\n/);
    expect(r.stdout).toMatch(/accepted metrics\s+ap, ap-11point/);
    const j = JSON.parse(cvdevkit(['info', 'test/echo', '--format', 'json', ...plugin]).stdout);
    expect(j.options.find((o: { name: string }) => o.name === 'onlyClass').flag).toBe('--only-class');
  });

  it('eval <task> --help lists the task options', () => {
    const r = cvdevkit(['eval', 'test/echo', '--help', ...plugin]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('--input <path>');
    expect(r.stdout).toContain('--only-class <string>');
    expect(r.stdout).toContain('--metric <name>');
  });
});

describe('cvdevkit eval', () => {
  const args = ['eval', 'test/echo', '--input', 'data/dets.txt', ...plugin];

  it('prints an aligned table with the summary', () => {
    const r = cvdevkit(args);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('test/echo (metric ap)');
    expect(r.stdout).toMatch(/^key\s+ap\s+npos\s+ndet$/m);
    expect(r.stdout).toMatch(/^cat\s+0\.833333\s+2\s+3$/m);
    expect(r.stdout).toMatch(/^mAP\s+0\.708333$/m);
    expect(r.stdout).not.toContain('recall');
  });

  it('--format json is the report at full precision, NaN as null', () => {
    const r = cvdevkit([...args, '--format', 'json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.schema).toBe('cvdevkit.report/1');
    expect(j.task).toBe('test/echo');
    expect(j.summary.mAP).toBe(mAP);
    expect(j.rows[0]).toEqual({ key: 'cat', ap: apCat, npos: 2, ndet: 3 });
    expect(j.curves).toHaveLength(2);
    expect(j.versions['devkit-plugin-test']).toBe('0.0.7');
    const nan = JSON.parse(cvdevkit(['eval', 'test/echo', '--input', 'data/nopos.txt', '--format', 'json', ...plugin]).stdout);
    expect(nan.summary.mAP).toBeNull();
    expect(nan.diagnostics[0].code).toBe('test/no-positives');
  });

  it('--format csv: header, rows, then a summary section', () => {
    const r = cvdevkit([...args, '--format', 'csv']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      ['key,ap,npos,ndet', `cat,${apCat},2,3`, `dog,${apDog},2,3`, '', 'summary,value', `mAP,${mAP}`, ''].join('\n'),
    );
  });

  it('--format markdown: a table and the summary', () => {
    const r = cvdevkit([...args, '--format', 'markdown']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('| key | ap | npos | ndet |');
    expect(r.stdout).toContain('| cat | 0.833333 | 2 | 3 |');
    expect(r.stdout).toContain('| mAP | 0.708333 |');
  });

  it('typed task options: numbers, integers, booleans, camelCase → kebab-case; --metric', () => {
    const r = cvdevkit([...args, '--scale', '2', '--npos', '4', '--only-class', 'cat', '--verbose', '--metric', 'ap-11point', '--format', 'json', '--workers', '1']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.metric).toBe('ap-11point');
    expect(j.rows.map((x: { key: string }) => x.key)).toEqual(['cat']);
    expect(j.rows[0].npos).toBe(4);
    expect(j.diagnostics.map((d: { message: string }) => d.message)).toEqual(['scored cat']);
  });

  it('diagnostics go to stderr in table mode', () => {
    const r = cvdevkit(['eval', 'test/echo', '--input', 'data/nopos.txt', ...plugin]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('warning: nopos.txt: class bird has no positives');
    expect(r.stdout).toMatch(/^mAP\s+NaN$/m);
  });

  it('--out writes the report to a file (stdout gets the table)', () => {
    const out = join(tmp, 'report.json');
    const r = cvdevkit([...args, '--format', 'json', '--out', out]);
    expect(r.code).toBe(0);
    const written = JSON.parse(readFileSync(out, 'utf8'));
    const printed = JSON.parse(cvdevkit([...args, '--format', 'json']).stdout);
    expect({ rows: written.rows, summary: written.summary }).toEqual({ rows: printed.rows, summary: printed.summary });
    expect(r.stdout).toBe(cvdevkit(args).stdout);
    expect(readdirSync(tmp).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('--out picks the format from its extension unless --format is given', () => {
    const md = join(tmp, 'report.md');
    const r = cvdevkit([...args, '--out', md]);
    expect(r.code).toBe(0);
    expect(readFileSync(md, 'utf8')).toMatch(/^## test\/echo/);
    const txt = join(tmp, 'report-table.txt');
    const t = cvdevkit([...args, '--format', 'table', '--out', txt]);
    expect(readFileSync(txt, 'utf8')).toBe(t.stdout);
    expect(t.stdout).toContain('(metric ');
  });

  it('--out leaves nothing behind when the evaluation fails or the directory is missing', () => {
    const out = join(tmp, 'failed.json');
    expect(cvdevkit(['eval', 'test/echo', '--input', 'data/bad.txt', '--out', out, ...plugin]).code).toBe(2);
    expect(existsSync(out)).toBe(false);
    const r = cvdevkit([...args, '--out', join(tmp, 'no-such-dir', 'x.json')]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('errors and exit codes', () => {
  const oneLine = (r: Result, code: number, pattern: RegExp) => {
    expect(r.code).toBe(code);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(pattern);
    noStack(r.stderr);
  };

  it('unknown option → 1', () => oneLine(cvdevkit(['eval', 'test/echo', '--input', 'data/dets.txt', '--bogus', ...plugin]), 1, /unknown option '--bogus'/));
  it('bad number → 1', () => oneLine(cvdevkit(['eval', 'test/echo', '--input', 'data/dets.txt', '--scale', '1.5x', ...plugin]), 1, /--scale.*1\.5x/));
  it('bad integer → 1', () => oneLine(cvdevkit(['eval', 'test/echo', '--input', 'data/dets.txt', '--npos', '2.5', ...plugin]), 1, /expected an integer/));
  it('missing required option → 1', () => oneLine(cvdevkit(['eval', 'test/echo', ...plugin]), 1, /--input/));
  it('unaccepted metric → 1', () => oneLine(cvdevkit(['eval', 'test/echo', '--input', 'data/dets.txt', '--metric', 'iou', ...plugin]), 1, /accepted: ap, ap-11point/));
  it('bad --workers → 1', () => oneLine(cvdevkit(['eval', 'test/echo', '--input', 'data/dets.txt', '--workers', 'many', ...plugin]), 1, /--workers/));
  it('unknown task → 1 with "did you mean" and the known tasks', () =>
    oneLine(cvdevkit(['eval', 'test/ech', '--input', 'x', ...plugin]), 1, /unknown task "test\/ech"\. Did you mean "test\/echo"\?.*Known tasks: test\/crash, test\/echo/));
  it('missing --plugin file → 1', () => oneLine(cvdevkit(['list', '--plugin', './nope.js']), 1, /nope\.js/));

  it('broken plugin → 3, one line naming the package and the field', () =>
    oneLine(
      cvdevkit(['list', '--plugin', './broken-plugin.js']),
      3,
      /^error: plugin "broken-plugin" \(\.\/broken-plugin\.js\): tasks\["broken\/task"\]\.evaluate: expected a function, found nothing$/m,
    ));

  it('a plugin throwing a plain Error → 3 without a stack; --debug shows it', () => {
    oneLine(cvdevkit(['eval', 'test/crash', ...plugin]), 3, /internal error: task "test\/crash" .*boom/);
    const r = cvdevkit(['eval', 'test/crash', '--debug', ...plugin]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^\s+at /m);
  });

  it('invalid input data → 2 listing every problem, no stack', () => {
    const r = cvdevkit(['eval', 'test/echo', '--input', 'data/bad.txt', ...plugin]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('3 problems found');
    expect(r.stderr).toContain('bad.txt:2: expected 3 fields');
    expect(r.stderr).toContain('bad.txt:3: expected a number, found "x"');
    expect(r.stderr).toContain('bad.txt:4: expected 0 or 1, found "2"');
    noStack(r.stderr);
  });
});

describe('cvdevkit validate / demo', () => {
  it('validate prints every problem and exits 2; a valid file exits 0', () => {
    const bad = cvdevkit(['validate', 'test/echo', '--input', 'data/bad.txt', ...plugin]);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toContain('bad.txt:2:');
    expect(bad.stdout).toContain('bad.txt:4:');
    expect(bad.stdout).toContain('3 errors');
    const good = cvdevkit(['validate', 'test/echo', '--input', 'data/dets.txt', '--format', 'json', ...plugin]);
    expect(good.code).toBe(0);
    expect(JSON.parse(good.stdout)).toMatchObject({ task: 'test/echo', valid: true, diagnostics: [] });
  });

  it('demo <task> evaluates the embedded sample', () => {
    const r = cvdevkit(['demo', 'test/echo', '--format', 'json', ...plugin]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).summary.mAP).toBe(mAP);
  });

  it('demo without a task runs every task that has a sample; --dir keeps the files', () => {
    const dir = join(tmp, 'demo');
    const r = cvdevkit(['demo', '--dir', dir, ...plugin]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('test/echo (metric ap)');
    expect(readdirSync(dir)).toEqual(['test-echo']);
    expect(existsSync(join(dir, 'test-echo', 'dets.txt'))).toBe(true);
  });

  it('merge passes the task options given on its command line (none required) to the hook; the plugin version is stamped', () => {
    const r = cvdevkit(['merge', 'test/echo', 'data/dets.txt', 'data/bad.txt', '--scale', '2', '--format', 'json', ...plugin]);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.summary).toEqual({ files: 2, scale: 2 });
    expect(report.versions['devkit-plugin-test']).toBe('0.0.7');
  });

  it('demo of a task without a sample → 1', () => {
    const r = cvdevkit(['demo', 'test/crash', ...plugin]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('no embedded sample');
  });
});
