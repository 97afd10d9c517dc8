// Benchmark (issue 14): voc2010/det with 1 M and 10 M detections, `--format json`, through the built CLI:
// wall time, peak RSS (of the child, /usr/bin/time), bytes per detection, and the exit code (never 3).
// Bytes per detection are counted above a run of the same task on the same images with no detections
// (start-up, plugins, annotations and worker threads cost the same at any size) and, between two sizes,
// as the slope (what one more detection costs, without the fixed garbage-collector slack).
// BASELINE_CLI=/path/to/apps/cli/dist/bin.js (e.g. main's build) measures that CLI side by side.
// 10 M needs ~350 MB of disk and minutes: set HUGE=1 (or SIZES=1000000,10000000).
// Data under bench-data/ (git-ignored) or $VOC_BENCH_DATA.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeDetCase } from './make-det-case.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const CLI = join(here, '../../../apps/cli/dist/bin.js');
const DATA = process.env.VOC_BENCH_DATA ?? join(here, '../bench-data');
const sizes = (process.env.SIZES ?? (process.env.HUGE ? '1000000,10000000' : '1000000')).split(',').map(Number);
const builds = [['this build', CLI], ...(process.env.BASELINE_CLI ? [['baseline', process.env.BASELINE_CLI]] : [])];

/** Runs a CLI under /usr/bin/time; stdout is counted, not kept. */
export function measure(cli, args) {
  const r = spawnSync('/usr/bin/time', ['-f', '%e %M', process.execPath, cli, ...args], { encoding: 'latin1', maxBuffer: 4 << 30, stdio: ['ignore', 'pipe', 'pipe'] });
  const last = r.stderr.trim().split('\n').pop();
  const [sec, kb] = last.split(' ').map(Number);
  return { status: r.status, seconds: sec, rssMB: kb / 1024, outMB: (r.stdout?.length ?? 0) / 1048576, stderr: r.stderr };
}

function detCase(n) {
  const dir = join(DATA, `det-${n}`);
  if (!existsSync(join(dir, 'results'))) {
    mkdirSync(dir, { recursive: true });
    makeDetCase(dir, n);
  }
  return dir;
}

const evalArgs = (dir) => ['eval', 'voc2010/det', '--root', dir, '--format', 'json', '--no-cache', '-q'];
const perDet = (mb, baseMB, n) => ((mb - baseMB) * 1048576) / n;

console.log('build        detections  wall s  peak RSS MB  B/det above 0-det run  B/det slope  JSON MB  exit');
for (const [name, cli] of builds) {
  const zero = measure(cli, evalArgs(detCase(0)));
  console.log(`${name.padEnd(11)}  ${'0'.padStart(10)}  ${zero.seconds.toFixed(1).padStart(6)}  ${zero.rssMB.toFixed(0).padStart(11)}  ${'-'.padStart(21)}  ${'-'.padStart(11)}  ${zero.outMB.toFixed(0).padStart(7)}  ${zero.status}`);
  let prev;
  for (const n of sizes) {
    const m = measure(cli, evalArgs(detCase(n)));
    const slope = prev ? perDet(m.rssMB, prev.rssMB, n - prev.n).toFixed(0) : '-';
    console.log(
      `${name.padEnd(11)}  ${String(n).padStart(10)}  ${m.seconds.toFixed(1).padStart(6)}  ${m.rssMB.toFixed(0).padStart(11)}  ${perDet(m.rssMB, zero.rssMB, n).toFixed(0).padStart(21)}  ${slope.padStart(11)}  ${m.outMB.toFixed(0).padStart(7)}  ${m.status}`,
    );
    if (m.status !== 0) console.log(m.stderr.slice(-500));
    prev = { n, rssMB: m.rssMB };
  }
}
