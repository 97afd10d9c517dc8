// Startup cost of the CLI: `cvdevkit list` and `--version` against `node -e 0` in alternated pairs, then
// `cvdevkit eval` on the tiny test plugin and on VOC, next to the baseline of starting Node itself. Run after a
// build: `pnpm --filter @cvdevkit/cli bench` (PAIRS=n pairs, default 7; STARTUP_ONLY=1 stops after the pairs).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const bin = join(here, '../bundle/bin.js');
const fixtures = join(here, '../test/fixtures');
const runs = Number(process.env.BENCH_RUNS ?? 10);

const repoRoot = join(here, '../../..');

function time(label, args, env = {}, cwd = fixtures) {
  const ms = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    const r = spawnSync(process.execPath, args, { cwd, env: { ...process.env, ...env }, encoding: 'utf8', maxBuffer: 1 << 28 });
    ms.push(performance.now() - t);
    if (r.status !== 0) throw new Error(`${label} failed: ${r.stderr}`);
  }
  ms.sort((a, b) => a - b);
  console.log(`${label.padEnd(56)} median ${ms[ms.length >> 1].toFixed(1).padStart(7)} ms  (min ${ms[0].toFixed(1)} ms, ${runs} runs)`);
}

// Issue 29's targets, whole processes from the repository root, alternated with `node -e 0` in pairs (the
// ratio of each pair, then the median): `cvdevkit list` <= 1.5x and `cvdevkit --version` <= 1.2x. CPU (user + sys,
// from GNU time when present) is the steadier figure on a shared machine.
const PAIRS = Number(process.env.PAIRS ?? 7);
const TIME = '/usr/bin/time';
const hasTime = spawnSync(TIME, ['-f', '%e', 'true'], { stdio: 'ignore' }).status === 0;
const timeFile = join(mkdtempSync(join(tmpdir(), 'cvdevkit-startup-time-')), 't');
function once(args, cwd) {
  const t = performance.now();
  const r = hasTime
    ? spawnSync(TIME, ['-f', '%U %S %M', '-o', timeFile, process.execPath, ...args], { cwd, stdio: ['ignore', 'ignore', 'pipe'] })
    : spawnSync(process.execPath, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
  const wall = performance.now() - t;
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} failed: ${r.stderr}`);
  if (!hasTime) return { wall, cpu: NaN, rss: NaN };
  const [u, sys, kb] = readFileSync(timeFile, 'utf8').trim().split('\n').pop().split(' ').map(Number);
  return { wall, cpu: (u + sys) * 1000, rss: kb / 1024 };
}
const med = (xs) => {
  const v = [...xs].sort((a, b) => a - b);
  const m = v.length >> 1;
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
};
function pairs(label, args, target) {
  const a = [];
  const b = [];
  for (let i = 0; i < PAIRS; i++) {
    a.push(once(args, repoRoot));
    b.push(once(['-e', '0'], repoRoot));
  }
  const ratios = a.map((x, i) => x.wall / b[i].wall);
  const f = (x) => x.toFixed(2);
  console.log(
    `${label.padEnd(24)} ${med(a.map((x) => x.wall)).toFixed(0).padStart(4)} ms vs node -e 0 ${med(b.map((x) => x.wall)).toFixed(0).padStart(4)} ms: ratio ${f(med(ratios))} (target ${target === '-' ? 'none' : `<= ${target}`}; pairs ${ratios.map(f).join(' ')})` +
      (hasTime ? `; CPU ${f(med(a.map((x) => x.cpu)) / med(b.map((x) => x.cpu)))}x (${med(a.map((x) => x.cpu)).toFixed(0)} vs ${med(b.map((x) => x.cpu)).toFixed(0)} ms), peak RSS ${med(a.map((x) => x.rss)).toFixed(0)} vs ${med(b.map((x) => x.rss)).toFixed(0)} MiB` : ''),
  );
}
pairs('cvdevkit list', [bin, 'list'], 1.5);
pairs('cvdevkit --version', [bin, '--version'], 1.2);
// a light task, start-dominated: the VOC `medium` fixture (60-odd images), table output, no cache
pairs('eval voc2010/cls medium', [bin, 'eval', 'voc2010/cls', '--root', join(repoRoot, 'fixtures/voc2010/medium'), '--no-cache', '-q'], '-');
if (process.env.STARTUP_ONLY === '1') process.exit(0);

time('baseline: node -e ""', ['-e', '']);
time('cvdevkit list --plugin ./test-plugin (no auto-discovery)', [bin, 'list', '--plugin', './test-plugin'], { CVDEVKIT_NO_AUTOLOAD: '1' });
time('cvdevkit list (auto-discovery from the repo)', [bin, 'list', '--plugin', './test-plugin']);
time('cvdevkit eval test/echo --format json', [bin, 'eval', 'test/echo', '--plugin', './test-plugin', '--input', 'data/dets.txt', '--format', 'json'], {
  CVDEVKIT_NO_AUTOLOAD: '1',
});

// The issue-13 targets, whole process: `cvdevkit list` from the repository root (every workspace plugin,
// listed from the manifests) ≤ 0.15 s, and `eval voc2010/cls` on the generated VOC `large` case ≤ 0.25 s.
time('cvdevkit list (repo root: every workspace plugin)', [bin, 'list'], {}, repoRoot);
const large = join(repoRoot, 'fixtures', '.unpacked', 'voc2010-gen');
if (!existsSync(join(large, 'large', 'case.json'))) {
  console.log('generating the VOC large case (python3 fixtures/voc2010/gen/gen_cases.py, once)…');
  execFileSync('python3', [join(repoRoot, 'fixtures/voc2010/gen/gen_cases.py'), '--out', large, 'large'], { stdio: 'inherit' });
}
// the default configuration (a cache directory: the bench's own, warmed by one run) and the first run on a machine
const cacheDir = mkdtempSync(join(tmpdir(), 'cvdevkit-startup-'));
const cls = [bin, 'eval', 'voc2010/cls', '--root', join(large, 'large')];
spawnSync(process.execPath, [...cls, '--cache-dir', cacheDir], { cwd: repoRoot });
time('cvdevkit eval voc2010/cls --root <large> (warm cache dir)', [...cls, '--cache-dir', cacheDir], {}, repoRoot);
time('cvdevkit eval voc2010/cls --root <large> --no-cache', [...cls, '--no-cache'], {}, repoRoot);
time('cvdevkit eval voc2010/cls --root <large> --format json (5.6 MB)', [...cls, '--cache-dir', cacheDir, '--format', 'json'], {}, repoRoot);
rmSync(cacheDir, { recursive: true, force: true });
