// Wall time of the whole `medium` fixture case (3 images of 256x341 x 150 classes x 99 thresholds),
// through the plugin as the CLI runs it. Run after `pnpm build`: `pnpm --filter @cvdevkit/ade20k-boundary bench`.
// Options: BENCH_WORKERS (default: all cores), BENCH_CASE (default medium), BENCH_RUNS (default 1).
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRunContext } from '@cvdevkit/core';
import plugin from '../dist/index.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const name = process.env.BENCH_CASE ?? 'medium';
const root = join(here, '../../../fixtures/ade20k', name);
const workers = Number(process.env.BENCH_WORKERS ?? availableParallelism());
const runs = Number(process.env.BENCH_RUNS ?? 1);
const task = plugin.tasks['ade20k/boundary'];

const times = [];
let report;
for (let i = 0; i < runs; i++) {
  const t0 = performance.now();
  report = await task.evaluate(
    { gt: join(root, 'annotations_boundary/validation'), pred: join(root, 'predictions_boundary/validation') },
    createRunContext({ workers }),
  );
  times.push(performance.now() - t0);
}
const images = report.summary.images;
const units = images * report.summary.classes;
const best = Math.min(...times);
console.log(`ade20k/boundary ${name}: ${images} images x ${report.summary.classes} classes = ${units} units, ${workers} worker(s)`);
console.log(`  wall time   ${(best / 1000).toFixed(2)} s (best of ${runs}; runs: ${times.map((t) => (t / 1000).toFixed(2)).join(', ')} s)`);
console.log(`  per unit    ${(best / units).toFixed(1)} ms wall (image x class, 99 thresholds)`);
console.log(`  score       ${report.summary.score}`);
console.log(`  baseline    official devkit under Octave 7.3: about 9 min for medium with 2 jobs on 2 cores (specs §8)`);
const perImage = best / images;
console.log(`  projection  2,000 images x 150 classes of medium's size (256x341, 5-6 GT classes each): ${((perImage * 2000) / 3600e3).toFixed(2)} h on ${workers} worker(s); full-size ADE images (512x683): see README`);
