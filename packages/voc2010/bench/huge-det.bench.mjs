// Benchmark (issue 14): voc2010/det with 1 M and 10 M detections, `--format json`, through the built CLI:
// wall time, peak RSS (of the child, /usr/bin/time), bytes per detection above the baseline (the same CLI
// printing `list`, i.e. start-up and plugins), and the exit code (never 3). 10 M needs ~350 MB of disk
// and minutes: set HUGE=1 (or SIZES=1000000,10000000). Data under bench-data/ (git-ignored) or $VOC_BENCH_DATA.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeDetCase } from './make-det-case.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const CLI = join(here, '../../../apps/cli/dist/bin.js');
const DATA = process.env.VOC_BENCH_DATA ?? join(here, '../bench-data');
const sizes = (process.env.SIZES ?? (process.env.HUGE ? '1000000,10000000' : '1000000')).split(',').map(Number);

/** Runs the CLI under /usr/bin/time; stdout is counted, not kept. */
export function measure(args) {
  const r = spawnSync('/usr/bin/time', ['-f', '%e %M', process.execPath, CLI, ...args], { encoding: 'latin1', maxBuffer: 4 << 30, stdio: ['ignore', 'pipe', 'pipe'] });
  const last = r.stderr.trim().split('\n').pop();
  const [sec, kb] = last.split(' ').map(Number);
  return { status: r.status, seconds: sec, rssMB: kb / 1024, outMB: (r.stdout?.length ?? 0) / 1048576, stderr: r.stderr };
}

const base = measure(['list', '--format', 'json']);
console.log(`baseline (cvdevkit list): ${base.seconds.toFixed(2)} s, ${base.rssMB.toFixed(0)} MB peak RSS`);
console.log('detections  wall s  peak RSS MB  bytes/detection (above baseline)  JSON MB  exit');
for (const n of sizes) {
  const dir = join(DATA, `det-${n}`);
  if (!existsSync(join(dir, 'results'))) {
    mkdirSync(dir, { recursive: true });
    makeDetCase(dir, n);
  }
  const m = measure(['eval', 'voc2010/det', '--root', dir, '--format', 'json', '--no-cache', '-q']);
  const perDet = ((m.rssMB - base.rssMB) * 1048576) / n;
  console.log(`${String(n).padStart(10)}  ${m.seconds.toFixed(1).padStart(6)}  ${m.rssMB.toFixed(0).padStart(11)}  ${perDet.toFixed(0).padStart(33)}  ${m.outMB.toFixed(0).padStart(7)}  ${m.status}`);
  if (m.status !== 0) console.log(m.stderr.slice(-500));
}
