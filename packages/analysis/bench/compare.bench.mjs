// Benchmark of `compare --bootstrap` (analysis.md §2): k = 2 and k = 10 methods on the VOC det `large`
// case (5,000 images, 100k detections per method) with 1,000 paired replicates; ADE20K `medium` likewise;
// ILSVRC CLS-LOC on the real validation ground truth (50,000 images); and the report size the per-image
// statistics add. Side by side in the same run: the baseline, the bootstrap as it was before the
// replicate kernels were reworked (bench/baseline-bootstrap.mjs, a frozen copy), checked to give the same
// replicate summaries bit for bit; and one official evaluation (what a bootstrap that re-evaluated would
// pay B·k times). Wall time and CPU time (user + system) are both printed: the machine may be shared.
// The large case is generated with the fixture generator (python3) into bench-data/ (git-ignored); the
// other methods are seeded perturbations of its results (analysis/bench/submissions.mjs).
// Options: BENCH_REPLICATES (default 1000), VOC_BENCH_DATA (where the large case is / goes).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRunContext, reportToJson } from '@cvdevkit/core';
// The plugins are read from their built dist/ (not dependencies of analysis: they hand it their replicators).
import voc from '../../voc2010/dist/plugin.js';
import ade from '../../ade20k-boundary/dist/index.js';
import clsloc, { CLSLOC_WNIDS } from '../../ilsvrc2015-clsloc/dist/index.js';
import { compareReports, pairedBootstrap } from '../dist/index.js';
import { perturbDetResults, stream } from './submissions.mjs';
import { baselineBootstrap } from './baseline-bootstrap.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const FIX = join(here, '../../../fixtures');
const DATA = process.env.VOC_BENCH_DATA ?? join(here, '../bench-data');
const B = Number(process.env.BENCH_REPLICATES ?? 1000);
const root = join(DATA, 'large');
if (!existsSync(join(root, 'VOC2010'))) {
  console.log(`generating the large case into ${DATA} …`);
  execFileSync('python3', [join(FIX, 'voc2010/gen/gen_cases.py'), '--out', DATA, 'large'], { stdio: 'inherit' });
}
const mb = (bytes) => (Math.abs(bytes) < 1e5 ? `${(bytes / 1e3).toFixed(1)} kB` : `${(bytes / 1e6).toFixed(2)} MB`);
const ctx = (perImage) => createRunContext({ workers: 1, perImage });

async function timed(fn) {
  const cpu = process.cpuUsage();
  const t = performance.now();
  const value = await fn();
  const c = process.cpuUsage(cpu);
  return { value, ms: performance.now() - t, cpuMs: (c.user + c.system) / 1000 };
}
const s = (t) => `${(t.ms / 1000).toFixed(2)} s wall, ${(t.cpuMs / 1000).toFixed(2)} s CPU`;

/** The replicators the reports' task makes of their per-image statistics (what the CLI asks the registry for). */
const TASKS = { ...voc.tasks, ...ade.tasks, ...clsloc.tasks };
const replicatorsOf = (inputs) => Promise.all(inputs.map((i) => TASKS[i.report.task].replicate(i.report.extra.perImage)));

/** The new bootstrap (compareReports, everything it reports) against the baseline bootstrap, same draws. */
async function compareWithBaseline(label, inputs) {
  const replicators = await replicatorsOf(inputs);
  const run = timed(() => compareReports(inputs, { bootstrap: B, seed: 0, replicators }));
  return run.then(async (r) => {
    const again = compareReports(inputs, { bootstrap: B, seed: 0, replicators });
    const repeatable = JSON.stringify(r.value) === JSON.stringify(again);
    const stats = inputs.map((i) => i.report.extra.perImage);
    const base = await timed(() => baselineBootstrap(stats, B, 0));
    const now = pairedBootstrap(stats.map((st, j) => ({ stats: st, replicator: replicators[j] })), B, 0, stats[0].higherIsBetter).summary;
    const same = base.value.every((v, i) => Object.is(v, now[i]));
    console.log(`  ${label} B=${B}  compare ${s(r)} (${(r.cpuMs / (B * inputs.length)).toFixed(2)} ms CPU per method-replicate); repeatable: ${repeatable}`);
    console.log(`  ${' '.repeat(label.length)}         baseline bootstrap ${s(base)}; same replicate summaries: ${same}`);
  });
}

// --- VOC det large ---------------------------------------------------------------------------------
const det = voc.tasks['voc2010/det'];
const plain = await timed(() => det.evaluate({ root }, ctx(false)));
const withStats = await timed(() => det.evaluate({ root }, ctx(true)));
const plainSize = Buffer.byteLength(reportToJson(plain.value));
const statsSize = Buffer.byteLength(reportToJson(withStats.value));
const detections = withStats.value.rows.reduce((sum, r) => sum + r.ndet, 0);
console.log(`voc2010/det large: ${withStats.value.extra.images} images, ${detections} detections`);
console.log(`  eval                 ${s(plain)}; with --per-image ${s(withStats)}`);
console.log(`  report size          ${mb(plainSize)} → ${mb(statsSize)} (+${mb(statsSize - plainSize)}, ${((statsSize - plainSize) / detections).toFixed(1)} bytes per detection)`);
const inputs = [{ name: 'official', file: 'official.json', report: withStats.value }];
for (let j = 1; j < 10; j++) {
  const dir = join(DATA, 'compare-methods', `m${j}`);
  if (!existsSync(dir)) perturbDetResults(join(root, 'results', 'VOC2010'), dir, { seed: j, noise: 0.05 * j, jitter: j, drop: 0.02 * j, perClass: 0.5 });
  const r = await det.evaluate({ root, results: dir }, ctx(true));
  inputs.push({ name: `m${j}`, file: `m${j}.json`, report: r });
}
for (const k of [2, 10]) await compareWithBaseline(`compare k=${String(k).padEnd(2)}`, inputs.slice(0, k));

// --- ADE20K medium ----------------------------------------------------------------------------------
const adeRoot = join(FIX, 'ade20k', 'medium');
const boundary = ade.tasks['ade20k/boundary'];
const adeOpts = { gt: join(adeRoot, 'annotations_boundary/validation'), pred: join(adeRoot, 'predictions_boundary/validation') };
const adeRun = await timed(() => boundary.evaluate(adeOpts, createRunContext({ perImage: true })));
const adePlainSize = Buffer.byteLength(reportToJson({ ...adeRun.value, extra: undefined }));
const adeSize = Buffer.byteLength(reportToJson(adeRun.value));
console.log(`ade20k/boundary medium: ${adeRun.value.summary.images} images x ${adeRun.value.summary.classes} classes`);
console.log(`  eval                 ${s(adeRun)} (all cores)`);
console.log(`  report size          ${mb(adePlainSize)} → ${mb(adeSize)} (+${mb(adeSize - adePlainSize)})`);
// the same report under two names: the replicate cost does not depend on the prediction
await compareWithBaseline('compare k=2 ', [0, 1].map((j) => ({ name: `a${j}`, file: `a${j}.json`, report: adeRun.value })));

// --- ILSVRC CLS-LOC: the real validation ground truth, generated guesses --------------------------------
const real = join(FIX, 'ilsvrc2015', 'real');
const labels = join(real, 'ILSVRC2015_clsloc_validation_ground_truth.txt');
const recCache = join(real, 'ILSVRC2015_clsloc_validation_ground_truth.mat');
const clsDir = join(DATA, 'clsloc');
const truth = readFileSync(labels, 'utf8').split('\n').filter((l) => l.trim() !== '');
for (const [j, hit] of [[0, 0.7], [1, 0.6]]) {
  const file = join(clsDir, `pred${j}.txt`);
  if (existsSync(file)) continue;
  // per image 5 guesses with random labels; with probability `hit` one of them names the true label;
  // boxes: a large central box (localises the large objects) or a random one
  mkdirSync(clsDir, { recursive: true });
  const r = stream(100 + j);
  const lines = truth.map((line) => {
    const box = () => (r.u() < 0.5 ? [10, 10, 400, 330] : [Math.floor(r.u() * 200), Math.floor(r.u() * 200), 200 + Math.floor(r.u() * 200), 200 + Math.floor(r.u() * 200)]);
    const g = Array.from({ length: 5 }, () => [1 + Math.floor(r.u() * CLSLOC_WNIDS.length), ...box()]);
    if (r.u() < hit) g[Math.floor(r.u() * 5)][0] = Number(line.trim().split(/\s+/)[0]);
    return g.flat().join(' ');
  });
  writeFileSync(file, lines.join('\n') + '\n');
}
const clsTask = clsloc.tasks['ilsvrc2015/clsloc'];
const clsOpts = (j) => ({ pred: join(clsDir, `pred${j}.txt`), labels, gt: recCache, blacklist: join(real, 'ILSVRC2015_clsloc_validation_blacklist.txt') });
const clsPlain = await timed(() => clsTask.evaluate(clsOpts(0), ctx(false)));
const clsReports = [];
for (const j of [0, 1]) clsReports.push(await clsTask.evaluate(clsOpts(j), ctx(true)));
const clsPlainSize = Buffer.byteLength(reportToJson(clsPlain.value));
const clsSize = Buffer.byteLength(reportToJson(clsReports[0]));
console.log(`ilsvrc2015/clsloc real val: ${clsPlain.value.extra.images} images (generated guesses)`);
console.log(`  eval                 ${s(clsPlain)}`);
console.log(`  report size          ${mb(clsPlainSize)} → ${mb(clsSize)} (+${mb(clsSize - clsPlainSize)})`);
const clsInputs = clsReports.map((report, j) => ({ name: `c${j}`, file: `c${j}.json`, report }));
const clsReplicators = await replicatorsOf(clsInputs);
const clsCmp = await timed(() => compareReports(clsInputs, { bootstrap: B, seed: 0, replicators: clsReplicators }));
console.log(`  compare k=2  B=${B}  ${s(clsCmp)} (no baseline: the bootstrap did not cover CLS-LOC before; one official eval ${s(clsPlain)})`);
