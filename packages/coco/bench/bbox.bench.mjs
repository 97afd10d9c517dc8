#!/usr/bin/env node
/**
 * The benchmark: coco/bbox on 5,000 images × 100 detections (and coco/segm on 500 images with
 * masks), whole process, side by side with the peers in alternated pairs; CPU time (user + sys) and peak
 * RSS from /usr/bin/time, since the machine is shared.
 *
 *   node bench/bbox.bench.mjs [--case bbox|segm] [--pairs 3] [--data DIR]
 * Peers (optional; a peer whose variables are not set is skipped with a note):
 *   RUN_COCO_EVAL=<run_coco_eval.py>, the peers' one-evaluation script (../shared/peers/coco/run_coco_eval.py)
 *   PYCOCOTOOLS=<dir on PYTHONPATH holding pycocotools>            (pycocotools 2.0.11)
 *   FASTER_COCO_EVAL=<dir on PYTHONPATH holding faster_coco_eval>  (faster-coco-eval 1.7.1, run with --impl faster)
 * Each pair runs every tool once, in turn (whole processes); printed: each run, the median of each tool,
 * and per pair the ratios of the peers' CPU time, wall time and peak RSS to cvdevkit's.
 * Needs the built CLI (apps/cli/bundle/bin.js) and this package.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values: a } = parseArgs({ options: { case: { type: 'string', default: 'bbox' }, pairs: { type: 'string', default: '3' }, data: { type: 'string', default: '/tmp/cvdevkit-coco-bench' } } });
const here = import.meta.dirname;
const pkg = resolve(here, '..');
const cli = resolve(pkg, '../../apps/cli/bundle/bin.js');
const dir = join(a.data, a.case === 'segm' ? 'segm500' : 'bbox5k');
if (!existsSync(join(dir, 'results.json'))) {
  const args = a.case === 'segm' ? ['--images', '500', '--seed', '2', '--masks'] : ['--images', '5000', '--seed', '1'];
  const g = spawnSync(process.execPath, [join(here, 'generate.mjs'), '--out', dir, '--dets', '100', ...args], { encoding: 'utf8' });
  if (g.status !== 0) throw new Error(g.stderr);
  console.log('case:', g.stdout.trim());
}
const iouType = a.case === 'segm' ? 'segm' : 'bbox';

/** Runs a command under /usr/bin/time; CPU seconds (user + sys), wall seconds, peak RSS in MiB. */
function timed(cmd, args, env = {}) {
  const r = spawnSync('/usr/bin/time', ['-f', '%U %S %e %M', cmd, ...args], { encoding: 'utf8', env: { ...process.env, ...env }, maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr.slice(-500)}`);
  const [user, sys, wall, rssKb] = r.stderr.trim().split('\n').pop().split(' ').map(Number);
  return { cpu: user + sys, wall, rssMiB: rssKb / 1024, stdout: r.stdout };
}

const runners = [['cvdevkit', () => timed(process.execPath, [cli, 'eval', `coco/${iouType}`, '--plugin', pkg, '--gt', join(dir, 'gt.json'), '--results', join(dir, 'results.json'), '--format', 'json'], { CVDEVKIT_NO_AUTOLOAD: '1' })]];
if (!process.env.RUN_COCO_EVAL) console.log('note: RUN_COCO_EVAL not set: the peers are skipped');
else {
  if (!process.env.PYCOCOTOOLS) console.log('note: PYCOCOTOOLS not set: pycocotools skipped');
  if (!process.env.FASTER_COCO_EVAL) console.log('note: FASTER_COCO_EVAL not set: faster-coco-eval skipped');
}
if (process.env.PYCOCOTOOLS && process.env.RUN_COCO_EVAL) {
  runners.push(['pycocotools', () => timed('python3', [process.env.RUN_COCO_EVAL, join(dir, 'gt.json'), join(dir, 'results.json'), iouType], { PYTHONPATH: process.env.PYCOCOTOOLS })]);
}
if (process.env.FASTER_COCO_EVAL && process.env.RUN_COCO_EVAL) {
  runners.push(['faster-coco-eval', () => timed('python3', [process.env.RUN_COCO_EVAL, join(dir, 'gt.json'), join(dir, 'results.json'), iouType, '--impl', 'faster'], { PYTHONPATH: process.env.FASTER_COCO_EVAL })]);
}
const results = Object.fromEntries(runners.map(([n]) => [n, []]));
for (let p = 0; p < Number(a.pairs); p++) {
  for (const [name, run] of runners) {
    const r = run();
    results[name].push(r);
    console.log(`pair ${p + 1} ${name}: ${r.cpu.toFixed(2)} s CPU, ${r.wall.toFixed(2)} s wall, ${r.rssMiB.toFixed(0)} MiB peak`);
  }
}
const median = (v) => v.slice().sort((x, y) => x - y)[Math.floor(v.length / 2)];
for (const [name, rs] of Object.entries(results)) {
  console.log(`${name.padEnd(17)} median ${median(rs.map((r) => r.cpu)).toFixed(2)} s CPU, ${median(rs.map((r) => r.wall)).toFixed(2)} s wall, ${median(rs.map((r) => r.rssMiB)).toFixed(0)} MiB peak`);
}
for (const [name] of runners.slice(1)) {
  const ratios = results[name].map((r, p) => {
    const o = results.cvdevkit[p];
    return `pair ${p + 1}: ${(r.cpu / o.cpu).toFixed(1)}× CPU, ${(r.wall / o.wall).toFixed(1)}× wall, ${(r.rssMiB / o.rssMiB).toFixed(1)}× peak RSS`;
  });
  console.log(`${name} / cvdevkit: ${ratios.join('; ')}`);
}
// the targets, on the medians of the per-pair ratios: >= 50x pycocotools and >= 10x faster-coco-eval, wall and CPU
const targets = { pycocotools: 50, 'faster-coco-eval': 10 };
for (const [name] of runners.slice(1)) {
  const target = targets[name];
  if (a.case !== 'bbox' || target === undefined) continue;
  const ratio = (f) => median(results[name].map((r, p) => r[f] / results.cvdevkit[p][f]));
  const line = ['wall', 'cpu'].map((f) => `${ratio(f).toFixed(1)}x ${f === 'cpu' ? 'CPU' : 'wall'} (${ratio(f) >= target ? 'met' : 'not met'})`).join(', ');
  console.log(`target ${name} / cvdevkit >= ${target}x: median of the pairs ${line}`);
}
// cvdevkit's phases, medians over the pairs: CPU time per phase, and what lies outside the timed phases
const phases = results.cvdevkit.map((r) => {
  const t = JSON.parse(r.stdout).timings;
  return {
    startCpuMs: t.processCpuMs - t.totalCpuMs,
    readGtCpuMs: t.readGtCpuMs,
    readResultsCpuMs: t.readResultsCpuMs,
    matchCpuMs: t.matchCpuMs,
    accumulateCpuMs: t.accumulateCpuMs,
    reportOutputExitCpuMs: r.cpu * 1000 - t.processCpuMs,
  };
});
const phaseMedians = Object.fromEntries(Object.keys(phases[0]).map((k) => [k, Math.round(median(phases.map((p) => p[k])))]));
console.log('cvdevkit phases, CPU ms, medians of the pairs (start = Node + CLI + plugin load; report/output/exit = /usr/bin/time - processCpuMs):', JSON.stringify(phaseMedians));
const ours = JSON.parse(results.cvdevkit[0].stdout);
console.log('cvdevkit timings of the first pair (ms; *CpuMs = CPU time, the others wall):', JSON.stringify(ours.timings));
