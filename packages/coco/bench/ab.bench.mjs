#!/usr/bin/env node
/**
 * Two builds of this plugin side by side: whole `cvdevkit eval coco/<case>` processes in alternated pairs (the
 * order swapped every pair), CPU time per phase (`timings.*CpuMs`) and of the whole process (`/usr/bin/time`),
 * medians; and whether the two reports agree (timings aside). For a change's before/after on a shared machine,
 * where CPU time holds and wall time does not.
 *
 *   node bench/ab.bench.mjs --base <dir of the other build of packages/coco> [--pairs 5] [--case bbox|segm] [--data DIR]
 * The other build: a copy of packages/coco (its dist/ built, node_modules linking the same workspace packages).
 * Needs the built CLI (apps/cli/bundle/bin.js) and the case's files (bbox.bench.mjs writes them).
 */
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values: a } = parseArgs({ options: { base: { type: 'string' }, pairs: { type: 'string', default: '5' }, case: { type: 'string', default: 'bbox' }, data: { type: 'string', default: '/tmp/cvdevkit-coco-bench' } } });
if (!a.base) throw new Error('--base <dir>: the other build of packages/coco');
const here = import.meta.dirname;
const builds = { base: resolve(a.base), this: resolve(here, '..') };
const cli = resolve(here, '../../../apps/cli/bundle/bin.js');
const dir = join(a.data, a.case === 'segm' ? 'segm500' : 'bbox5k');

function run(pkg) {
  const args = [cli, 'eval', `coco/${a.case}`, '--plugin', pkg, '--gt', join(dir, 'gt.json'), '--results', join(dir, 'results.json'), '--format', 'json'];
  const r = spawnSync('/usr/bin/time', ['-f', '%U %S %e %M', process.execPath, ...args], { encoding: 'utf8', env: { ...process.env, CVDEVKIT_NO_AUTOLOAD: '1' }, maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`${pkg}: ${r.stderr.slice(-500)}`);
  const [user, sys, wall, rssKb] = r.stderr.trim().split('\n').pop().split(' ').map(Number);
  const report = JSON.parse(r.stdout);
  const t = report.timings;
  delete report.timings;
  const cpu = (user + sys) * 1000;
  return {
    phases: { cpu, sys: sys * 1000, wall: wall * 1000, rssMiB: rssKb / 1024, start: t.processCpuMs - t.totalCpuMs, readGt: t.readGtCpuMs, readResults: t.readResultsCpuMs, match: t.matchCpuMs, accumulate: t.accumulateCpuMs, reportOutputExit: cpu - t.processCpuMs },
    report: JSON.stringify(report),
  };
}

const runs = { base: [], this: [] };
for (let p = 0; p < Number(a.pairs); p++) {
  for (const k of p % 2 ? ['this', 'base'] : ['base', 'this']) runs[k].push(run(builds[k]));
  console.log(`pair ${p + 1}: CPU ${Math.round(runs.base[p].phases.cpu)} (base) / ${Math.round(runs.this[p].phases.cpu)} (this) ms`);
}
const median = (v) => v.slice().sort((x, y) => x - y)[Math.floor(v.length / 2)];
for (const k of ['base', 'this']) {
  const m = Object.fromEntries(Object.keys(runs[k][0].phases).map((f) => [f, Math.round(median(runs[k].map((r) => r.phases[f])))]));
  console.log(`${k.padEnd(4)} medians (ms; MiB):`, JSON.stringify(m));
}
console.log('reports identical (timings aside):', runs.base.every((r, i) => r.report === runs.this[i].report));
