// Wall time of the whole `medium` fixture case (3 images of 256x341 x 150 classes x 99 thresholds),
// through the plugin as the CLI runs it. Run after `pnpm build`: `pnpm --filter @cvdevkit/ade20k-boundary bench`.
// Options: BENCH_WORKERS (n; default: the default of the CLI, chosen from the work), BENCH_CASE (default medium),
// BENCH_RUNS (default 1). Prints wall and CPU (user + system, worker threads included).
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRunContext } from '@cvdevkit/core';
import plugin from '../dist/index.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const name = process.env.BENCH_CASE ?? 'medium';
const root = join(here, '../../../fixtures/ade20k', name);
const workers = process.env.BENCH_WORKERS === undefined ? undefined : Number(process.env.BENCH_WORKERS);
const runs = Number(process.env.BENCH_RUNS ?? 1);
const task = plugin.tasks['ade20k/boundary'];

const times = [];
const cpu = [];
let report;
for (let i = 0; i < runs; i++) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  report = await task.evaluate(
    { gt: join(root, 'annotations_boundary/validation'), pred: join(root, 'predictions_boundary/validation') },
    createRunContext(workers === undefined ? {} : { workers }),
  );
  times.push(performance.now() - t0);
  const c = process.cpuUsage(c0);
  cpu.push((c.user + c.system) / 1000);
}
const images = report.summary.images;
const units = images * report.summary.classes;
const best = Math.min(...times);
console.log(`ade20k/boundary ${name}: ${images} images x ${report.summary.classes} classes = ${units} units, workers ${workers ?? 'default'}`);
console.log(`  wall time   ${(best / 1000).toFixed(2)} s (best of ${runs}; runs: ${times.map((t) => (t / 1000).toFixed(2)).join(', ')} s)`);
console.log(`  CPU         ${cpu.map((t) => (t / 1000).toFixed(2)).join(', ')} s (worker threads included)`);
console.log(`  per unit    ${(best / units).toFixed(1)} ms wall (image x class, 99 thresholds)`);
console.log(`  score       ${report.summary.score}`);
console.log(`  baseline    official devkit under Octave 7.3: about 9 min for medium with 2 jobs on 2 cores (specs §8)`);
const perImage = best / images;
console.log(`  projection  2,000 images x 150 classes of medium's size (256x341, 5-6 GT classes each): ${((perImage * 2000) / 3600e3).toFixed(2)} h (workers ${workers ?? 'default'}); full-size ADE images (512x683): see README`);
