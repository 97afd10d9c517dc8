// Startup cost of the CLI: `cvdevkit list` and `cvdevkit eval` on the tiny test plugin, next to the
// baseline of starting Node itself. Run after a build: `pnpm --filter @cvdevkit/cli bench`.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const bin = join(here, '../dist/bin.js');
const fixtures = join(here, '../test/fixtures');
const runs = Number(process.env.BENCH_RUNS ?? 10);

function time(label, args, env = {}) {
  const ms = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    const r = spawnSync(process.execPath, args, { cwd: fixtures, env: { ...process.env, ...env }, encoding: 'utf8' });
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
