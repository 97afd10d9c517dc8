// Worker counts side by side (issue 29, "workers that never slow a run"): VOC det `large` (cold) and ADE20K `medium`,
// each with --workers 1, --workers 2 and the default (chosen from the work), whole CLI processes in alternated rounds
// (1, 2, default, then default, 2, 1, …), quiet and then busy (`yes > /dev/null` on one core during the runs, started
// by this script and stopped by its pid). Prints per configuration the median wall and CPU (user + system of the whole
// process, worker threads included), both against 1 worker, the peak RSS, the worker threads the run started, whether
// the default was ever slower than 1 worker, and a projection for 16 cores from the measured per-unit cost and the
// measured cost of a worker. Run after `pnpm build`, from the repository root:
//
//   node packages/ade20k-boundary/bench/workers.bench.mjs
//
// Environment: VOCROOT (the VOC case; default packages/voc2010/bench-data/large, made by that package's
// large.bench.mjs; the VOC rows are skipped without it), ROUNDS (default 5), MODES (default `quiet,busy`),
// TASKS (default `voc det,ade20k medium`), BENCH_JSON (also write the results there).
// About 2-3 minutes on a quiet 2-core machine with the default 5 rounds.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const REPO = resolve(here, '../../..');
const BIN = join(REPO, 'apps/cli/bundle/bin.js');
const env = process.env;
const ROUNDS = Math.max(1, Number(env.ROUNDS ?? 5) || 5);
const MODES = (env.MODES ?? 'quiet,busy').split(',').map((s) => s.trim());
const ONLY = new Set((env.TASKS ?? 'voc det,ade20k medium').split(',').map((s) => s.trim()));
const VOCROOT = env.VOCROOT ?? join(REPO, 'packages/voc2010/bench-data/large');
const ADE = join(REPO, 'fixtures/ade20k/medium');
const CONFIGS = ['1', '2', 'default'];
const TIME = '/usr/bin/time';
const hasTime = spawnSync(TIME, ['-f', '%e', 'true'], { stdio: 'ignore' }).status === 0;
const { chooseWorkerCount } = await import(pathToFileURL(join(REPO, 'packages/core/dist/index.js')).href);

const tmp = mkdtempSync(join(tmpdir(), 'cvdevkit-workers-'));
const timeFile = join(tmp, 'time');
const countFile = join(tmp, 'threads');
// Preloaded into each run (NODE_OPTIONS=--import): counts the worker threads the main thread starts, written at exit.
const hook = join(tmp, 'count-workers.mjs');
writeFileSync(
  hook,
  `import { createRequire, syncBuiltinESMExports } from 'node:module';
import { writeFileSync } from 'node:fs';
const wt = createRequire(import.meta.url)('node:worker_threads');
if (wt.isMainThread && process.env.COUNT_WORKERS_FILE) {
  let n = 0;
  const Base = wt.Worker;
  wt.Worker = class extends Base { constructor(...a) { super(...a); n++; } };
  syncBuiltinESMExports();
  process.on('exit', () => writeFileSync(process.env.COUNT_WORKERS_FILE, String(n)));
}
`,
);

/**
 * The tasks: their CLI arguments, the units the workers share, and the part of the run they share (ms, from the
 * report's timings): VOC det's annotation files (read, less the results files read meanwhile), ADE20K's units.
 * `mainComputes`: the calling thread takes a share too (VOC det) or only hands out work (ADE20K).
 */
const TASKS = [
  {
    name: 'voc det',
    label: 'VOC det `large`, cold',
    missing: () => (existsSync(join(VOCROOT, 'VOC2010')) ? undefined : `no VOC case at ${VOCROOT} (set VOCROOT, or run packages/voc2010/bench/large.bench.mjs)`),
    args: ['eval', 'voc2010/det', '--root', VOCROOT, '--no-cache', '--format', 'json', '-q'],
    units: (r) => r.extra.images,
    unitName: 'annotation files',
    sharedMs: (r) => r.timings.readMs - r.timings.resultsMs,
    mainComputes: true,
  },
  {
    name: 'ade20k medium',
    label: 'ADE20K `medium`',
    missing: () => (existsSync(ADE) ? undefined : `no fixture at ${ADE}`),
    args: ['eval', 'ade20k/boundary', '--gt', join(ADE, 'annotations_boundary/validation'), '--pred', join(ADE, 'predictions_boundary/validation'), '--format', 'json', '-q'],
    units: (r) => r.summary.images * r.summary.classes,
    unitName: '(image, class) units',
    sharedMs: (r) => r.timings.evaluateMs,
    mainComputes: false,
  },
];

/** One whole CLI run: wall s, CPU s (user + system), peak RSS MiB, worker threads started, the report. */
function run(task, config) {
  const args = config === 'default' ? task.args : [...task.args, '--workers', config];
  rmSync(countFile, { force: true });
  const e = { ...env, COUNT_WORKERS_FILE: countFile, NODE_OPTIONS: `${env.NODE_OPTIONS ?? ''} --import=${pathToFileURL(hook).href}`.trim() };
  const t = performance.now();
  const r = hasTime
    ? spawnSync(TIME, ['-f', '%e %U %S %M', '-o', timeFile, process.execPath, BIN, ...args], { cwd: REPO, env: e, maxBuffer: 1 << 30, encoding: 'utf8' })
    : spawnSync(process.execPath, [BIN, ...args], { cwd: REPO, env: e, maxBuffer: 1 << 30, encoding: 'utf8' });
  const wall = (performance.now() - t) / 1000;
  if (r.status !== 0) throw new Error(`cvdevkit ${args.join(' ')} exited ${r.status}: ${String(r.stderr).slice(-400)}`);
  const report = JSON.parse(r.stdout);
  const threads = existsSync(countFile) ? Number(readFileSync(countFile, 'utf8')) : NaN;
  if (!hasTime) return { wall, cpu: NaN, rss: NaN, threads, report };
  const [, user, sys, kb] = readFileSync(timeFile, 'utf8').trim().split('\n').pop().split(' ').map(Number);
  return { wall, cpu: user + sys, rss: kb / 1024, threads, report };
}

const median = (xs) => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const f = (x, d = 2) => (Number.isFinite(x) ? x.toFixed(d) : '–');
const load1 = () => loadavg()[0].toFixed(1);
/** The numbers of a report that must not depend on the worker count. */
const fingerprint = (r) => JSON.stringify({ summary: r.summary, rows: r.rows });

const results = [];
const startedAt = performance.now();
let yes;
try {
  for (const task of TASKS) {
    if (!ONLY.has(task.name)) continue;
    const why = task.missing();
    if (why) {
      console.log(`skip ${task.name}: ${why}`);
      results.push({ task: task.name, skipped: why });
      continue;
    }
    run(task, '1'); // warms the file cache
    for (const mode of MODES) {
      yes = mode === 'busy' ? spawn('yes', [], { stdio: ['ignore', 'ignore', 'ignore'] }) : undefined;
      if (yes) await new Promise((r) => setTimeout(r, 1000)); // the hog is running (and seen) before the first run
      const runs = Object.fromEntries(CONFIGS.map((c) => [c, []]));
      const prints = new Set();
      const loads = [];
      for (let k = 0; k < ROUNDS; k++) {
        loads.push(load1());
        const order = k % 2 === 0 ? CONFIGS : [...CONFIGS].reverse();
        const line = [];
        for (const c of order) {
          const o = run(task, c);
          runs[c].push(o);
          prints.add(fingerprint(o.report));
          line.push(`${c}: ${f(o.wall)} s wall, ${f(o.cpu)} s CPU, ${o.threads} worker threads`);
        }
        console.log(`${task.name} ${mode} round ${k + 1} (load ${loads.at(-1)}): ${line.join('; ')}`);
      }
      if (yes) {
        yes.kill();
        yes = undefined;
      }
      const one = runs['1'];
      const row = { task: task.name, label: task.label, mode, rounds: ROUNDS, loads, sameNumbers: prints.size === 1, configs: {} };
      for (const c of CONFIGS) {
        const rs = runs[c];
        row.configs[c] = {
          wall: median(rs.map((x) => x.wall)),
          cpu: median(rs.map((x) => x.cpu)),
          rss: median(rs.map((x) => x.rss)),
          threads: [...new Set(rs.map((x) => x.threads))].join('/'),
          // pair by pair against the 1-worker run of the same round
          wallVs1: median(rs.map((x, i) => x.wall / one[i].wall)),
          cpuVs1: median(rs.map((x, i) => x.cpu / one[i].cpu)),
          walls: rs.map((x) => x.wall),
        };
      }
      const r1 = one[0].report;
      row.units = task.units(r1);
      row.sharedMs1 = median(one.map((x) => task.sharedMs(x.report)));
      row.workersAt2 = median(runs['2'].map((x) => x.threads));
      results.push(row);
    }
  }
} finally {
  yes?.kill();
  rmSync(tmp, { recursive: true, force: true });
}

console.log(`\n${ROUNDS} alternated rounds per task and mode, whole CLI processes, ${availableParallelism()} cores; medians; "vs 1" = median of the round-by-round ratios to the 1-worker run; busy = \`yes > /dev/null\` running during the runs`);
console.table(
  results.flatMap((r) =>
    r.skipped
      ? [{ task: r.task, note: `skipped: ${r.skipped}` }]
      : CONFIGS.map((c) => {
          const x = r.configs[c];
          return {
            task: r.label,
            mode: `${r.mode} (load ${r.loads[0]}–${r.loads.at(-1)})`,
            workers: c,
            'worker threads': x.threads,
            'wall s': f(x.wall),
            'wall vs 1': f(x.wallVs1),
            'CPU s': f(x.cpu),
            'CPU vs 1': f(x.cpuVs1),
            'peak MiB': f(x.rss, 0),
          };
        }),
  ),
);
for (const r of results) {
  if (r.skipped) continue;
  const d = r.configs.default;
  const slower = d.walls.filter((w, i) => w > r.configs['1'].walls[i] * 1.05).length;
  const numbers = r.sameNumbers ? 'the same numbers in every run' : 'NUMBERS DIFFER between runs';
  if (d.threads === r.configs['1'].threads) {
    console.log(
      `${r.label}, ${r.mode}: the default started ${d.threads} worker threads, as --workers 1 did (the same run: its wall ratio ${f(d.wallVs1)} is the machine's noise), CPU ratio ${f(d.cpuVs1)}; ${numbers}`,
    );
  } else {
    console.log(
      `${r.label}, ${r.mode}: default (${d.threads} worker threads) ${d.wallVs1 <= 1.05 ? 'not slower than' : 'SLOWER than'} 1 worker (median wall ratio ${f(d.wallVs1)}; ${slower} of ${r.rounds} rounds more than 5 % slower), CPU ratio ${f(d.cpuVs1)}; ${numbers}`,
    );
  }
}

// Projection: the measured cost of a unit (the shared part of the 1-worker run, quiet, over its units), the serial
// rest of the run, and the measured CPU one worker thread adds (2 workers less 1, per worker thread started). The
// 1-worker run is one thread: its wall is scaled by its CPU / wall so that a loaded machine's waits are not counted
// as work (idle cores assumed, each as fast as one of this machine's).
console.log('\nProjection from the quiet runs (CPU per unit and per worker as measured here; idle cores as fast as these):');
const proj = [];
for (const r of results) {
  if (r.skipped || r.mode !== 'quiet') continue;
  const task = TASKS.find((t) => t.name === r.task);
  const one = r.configs['1'];
  const two = r.configs['2'];
  const busyShare = Math.min(1, one.cpu / one.wall); // 1 on an idle machine; less when the run waited for a core
  const unitMs = (r.sharedMs1 * busyShare) / r.units;
  const serialMs = Math.max(0, (one.wall * 1000 - r.sharedMs1) * busyShare);
  const workerCpuMs = r.workersAt2 > 0 ? Math.max(0, ((two.cpu - one.cpu) * 1000) / r.workersAt2) : NaN;
  const cases = [{ name: r.label, units: r.units }];
  if (r.task === 'ade20k medium') cases.push({ name: 'ADE20K validation set (2,000 images x 150 classes) at `medium` unit cost', units: 300_000 });
  for (const c of cases) {
    const work = c.units * unitMs;
    const at = (n) => {
      // n computing threads: the main one and n - 1 workers (VOC det), or n workers (ADE20K); a worker's start delays its share
      const workers = n <= 1 ? 0 : task.mainComputes ? n - 1 : n;
      return { n, wall: (serialMs + work / n + (workers > 0 ? workerCpuMs : 0)) / 1000, cpu: one.cpu + (work - r.units * unitMs) / 1000 + (workers * workerCpuMs) / 1000 };
    };
    const chosen = (cores, load) => chooseWorkerCount({ cap: cores, cores, load, units: c.units, unitCpuMs: unitMs, workerCpuMs });
    const row = {
      case: c.name,
      units: c.units,
      'ms per unit': f(unitMs, 3),
      'serial s': f(serialMs / 1000),
      'worker CPU ms': f(workerCpuMs, 0),
      'chosen: 2 cores quiet / busy': `${chosen(2, 0)} / ${chosen(2, 1)}`,
      'chosen: 16 cores quiet / 8 busy': `${chosen(16, 0)} / ${chosen(16, 8)}`,
    };
    for (const n of [1, 2, 16]) {
      const p = at(n);
      row[`${n} cores: wall s, CPU s`] = `${f(p.wall)}, ${f(p.cpu)}`;
    }
    const best = at(chosen(16, 0));
    row['16 cores, chosen: wall s, CPU s'] = `${f(best.wall)}, ${f(best.cpu)}`;
    proj.push(row);
  }
}
console.table(proj);
console.log(`load average at the end ${loadavg().map((x) => x.toFixed(1)).join(' ')}; ${((performance.now() - startedAt) / 1000).toFixed(0)} s in all`);
if (env.BENCH_JSON) writeFileSync(env.BENCH_JSON, `${JSON.stringify({ results, projection: proj }, null, 2)}\n`);
