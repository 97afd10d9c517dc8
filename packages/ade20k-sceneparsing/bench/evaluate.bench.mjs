// Speed of ade20k/sceneparsing on a generated case (bench/generate.mjs; kept in the git-ignored bench-data/):
// CPU time (process.cpuUsage: main thread + workers) and wall time, one thread and two workers, alternated.
//
//   pnpm --filter @cvdevkit/ade20k-sceneparsing bench      (needs the build)
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createRunContext } from '@cvdevkit/core';
import plugin from '../dist/index.js';
import { generateCase } from './generate.mjs';

const IMAGES = Number(process.env.SCENEPARSING_BENCH_IMAGES ?? 200);
const dir = join(import.meta.dirname, '..', 'bench-data', `generated-${IMAGES}`);
const options = existsSync(join(dir, 'predictions'))
  ? { gt: join(dir, 'annotations', 'validation'), pred: join(dir, 'predictions', 'validation') }
  : generateCase(dir, { images: IMAGES, height: 384, width: 512, seed: 1 });
const task = plugin.tasks['ade20k/sceneparsing'];

async function once(workers) {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const report = await task.evaluate(options, createRunContext({ workers }));
  const cpu = process.cpuUsage(cpu0);
  return { wall: performance.now() - t0, cpu: (cpu.user + cpu.system) / 1000, score: report.summary.score, pixels: report.summary.pixelsLabeled };
}

const runs = { 1: [], 2: [] };
for (let round = 0; round < 3; round++) for (const w of [1, 2]) runs[w].push(await once(w));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const w of [1, 2]) {
  const cpu = median(runs[w].map((r) => r.cpu));
  const wall = median(runs[w].map((r) => r.wall));
  console.log(`${IMAGES} images (≤384×512), workers ${w}: CPU ${cpu.toFixed(0)} ms (${((cpu / IMAGES) * 1).toFixed(2)} ms/image), wall ${wall.toFixed(0)} ms; score ${runs[w][0].score}`);
}
