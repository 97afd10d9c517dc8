// Startup cost of the CLI: `cvdevkit list` and `cvdevkit eval` on the tiny test plugin, next to the
// baseline of starting Node itself. Run after a build: `pnpm --filter @cvdevkit/cli bench`.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
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

time('baseline: node -e ""', ['-e', '']);
time('cvdevkit --version', [bin, '--version'], { CVDEVKIT_NO_AUTOLOAD: '1' });
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
