// CPU cost per (image, class) unit at the real ADE20K image size (bench/real-size-case.mjs: the `medium` fixture's
// statistics at 512x683), through the plugin as the CLI runs it, and the projection to the validation set
// (2,000 images x 150 classes = 300,000 units). CPU time (user + system of this process), so other load on the
// machine disturbs it little. Run after `pnpm build`:
//   node bench/real-size.bench.mjs            (BENCH_IMAGES = 6, BENCH_RUNS = 3, BENCH_WORKERS = 1 | n | auto)
// BENCH_JSON=1 prints one JSON line instead (bench/workers.bench.mjs runs it that way).
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { createRunContext } from '@cvdevkit/core';
import plugin from '../dist/index.js';
import { makeRealSizeCase } from './real-size-case.mjs';

const imagesWanted = Number(process.env.BENCH_IMAGES ?? 6);
const runs = Number(process.env.BENCH_RUNS ?? 3);
const workersEnv = process.env.BENCH_WORKERS ?? '1';
// auto: the default of the CLI and of createRunContext (the count chosen from the work)
const workers = workersEnv === 'auto' ? undefined : Number(workersEnv);
const { gtDir, predDir, stats } = makeRealSizeCase(process.env.BENCH_DIR ?? join(tmpdir(), 'cvdevkit-ade20k-real-size'), imagesWanted);
const task = plugin.tasks['ade20k/boundary'];

const cpu = [];
const wall = [];
let report;
for (let i = 0; i < runs; i++) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  report = await task.evaluate({ gt: gtDir, pred: predDir }, createRunContext(workers === undefined ? {} : { workers }));
  wall.push(performance.now() - t0);
  const c = process.cpuUsage(c0);
  cpu.push((c.user + c.system) / 1000);
}
const units = report.summary.images * report.summary.classes;
const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
const perUnit = median(cpu) / units;
const gtUnits = stats.images.reduce((s, im) => s + im.gtClasses.length, 0);
if (process.env.BENCH_JSON) {
  console.log(JSON.stringify({ units, cpuMs: cpu, wallMs: wall, score: report.summary.score }));
  process.exit(0);
}
console.log(`ade20k/boundary real size: ${report.summary.images} images (${stats.images.map((im) => im.size).join(', ')}) x 150 classes = ${units} units, ${gtUnits} with GT, workers ${workersEnv}`);
console.log(`  CPU         ${median(cpu).toFixed(0)} ms median of ${runs} (runs: ${cpu.map((t) => t.toFixed(0)).join(', ')} ms; wall ${wall.map((t) => t.toFixed(0)).join(', ')} ms)`);
console.log(`  per unit    ${perUnit.toFixed(2)} ms CPU (image x class, 99 thresholds; the first run includes JIT warm-up)`);
console.log(`  projection  300,000 units (2,000 images x 150 classes): ${((perUnit * 300000) / 3600e3).toFixed(2)} CPU-hours (target <= 0.5, i.e. <= 6 ms per unit)`);
console.log(`  score       ${report.summary.score}`);
