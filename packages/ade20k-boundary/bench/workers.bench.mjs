// Worker counts side by side on the real-size case (bench/real-size-case.mjs): 1 worker, 2 workers and the
// default (chosen from the work), each a whole process, in alternated rounds; quiet, then busy (`yes > /dev/null`
// on one core during the runs, started by this script and stopped by its pid). Prints wall and CPU (user + system of
// the whole process, worker threads included) per run, medians, and the load average before each round. Run after
// `pnpm build`:   node bench/workers.bench.mjs      (BENCH_ROUNDS = 3, BENCH_IMAGES = 6, BENCH_BUSY = both | quiet | busy)
import { execFileSync, spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

const bench = fileURLToPath(new URL('./real-size.bench.mjs', import.meta.url));
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const modes = (process.env.BENCH_BUSY ?? 'both') === 'both' ? ['quiet', 'busy'] : [process.env.BENCH_BUSY];
const configs = ['1', '2', 'auto'];
const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];

function run(workers) {
  const out = execFileSync(process.execPath, [bench], { env: { ...process.env, BENCH_WORKERS: workers, BENCH_RUNS: '1', BENCH_JSON: '1' }, encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').at(-1));
}

run('1'); // writes the case if needed, warms the file cache
for (const mode of modes) {
  const yes = mode === 'busy' ? spawn('yes', [], { stdio: ['ignore', 'ignore', 'ignore'] }) : null;
  try {
    const res = Object.fromEntries(configs.map((c) => [c, { wall: [], cpu: [] }]));
    const scores = new Set();
    for (let r = 0; r < rounds; r++) {
      const order = r % 2 === 0 ? configs : [...configs].reverse();
      const load = loadavg()[0].toFixed(1);
      const line = [];
      for (const c of order) {
        const o = run(c);
        res[c].wall.push(o.wallMs[0]);
        res[c].cpu.push(o.cpuMs[0]);
        scores.add(o.score);
        line.push(`${c}: ${(o.wallMs[0] / 1000).toFixed(2)} s wall, ${(o.cpuMs[0] / 1000).toFixed(2)} s CPU`);
      }
      console.log(`${mode} round ${r + 1} (load ${load}): ${line.join('; ')}`);
    }
    for (const c of configs) {
      const w = median(res[c].wall);
      const cp = median(res[c].cpu);
      console.log(`${mode} workers ${c}: median wall ${(w / 1000).toFixed(2)} s (vs 1: ${(w / median(res['1'].wall)).toFixed(2)}), CPU ${(cp / 1000).toFixed(2)} s (vs 1: ${(cp / median(res['1'].cpu)).toFixed(2)})`);
    }
    console.log(`${mode}: ${scores.size === 1 ? 'the same score in every run' : `SCORES DIFFER: ${[...scores].join(', ')}`}`);
  } finally {
    yes?.kill();
  }
}
