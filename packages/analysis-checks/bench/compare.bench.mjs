// Benchmark of `compare --bootstrap` (analysis.md §2): k = 2 and k = 10 methods on the VOC det `large`
// case (5,000 images, 100k detections per method) with 1,000 paired replicates, side by side with the
// baseline a replicate replaces (one official evaluation of one method: a bootstrap that re-evaluated
// would pay it B·k times); ADE20K `medium` likewise; and the report size the per-image statistics add.
// The large case is generated with the fixture generator (python3) into bench-data/ (git-ignored); the
// other methods are seeded perturbations of its results (bench/submissions.mjs).
// Options: BENCH_REPLICATES (default 1000), VOC_BENCH_DATA (where the large case is / goes).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRunContext, reportToJson } from '@cvdevkit/core';
import voc from '@cvdevkit/voc2010';
import ade from '@cvdevkit/ade20k-boundary';
import { compareReports } from '@cvdevkit/analysis';
import { perturbDetResults } from '../../analysis/bench/submissions.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const FIX = join(here, '../../../fixtures');
const DATA = process.env.VOC_BENCH_DATA ?? join(here, '../bench-data');
const B = Number(process.env.BENCH_REPLICATES ?? 1000);
const root = join(DATA, 'large');
if (!existsSync(join(root, 'VOC2010'))) {
  console.log(`generating the large case into ${DATA} …`);
  execFileSync('python3', [join(FIX, 'voc2010/gen/gen_cases.py'), '--out', DATA, 'large'], { stdio: 'inherit' });
}
const mb = (bytes) => `${(bytes / 1e6).toFixed(2)} MB`;
const ctx = (perImage) => createRunContext({ workers: 1, perImage });

async function timed(fn) {
  const t = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - t };
}

// --- VOC det large ---------------------------------------------------------------------------------
const det = voc.tasks['voc2010/det'];
const plain = await timed(() => det.evaluate({ root }, ctx(false)));
const withStats = await timed(() => det.evaluate({ root }, ctx(true)));
const plainSize = Buffer.byteLength(reportToJson(plain.value));
const statsSize = Buffer.byteLength(reportToJson(withStats.value));
const detections = withStats.value.rows.reduce((s, r) => s + r.ndet, 0);
console.log(`voc2010/det large: ${withStats.value.extra.images} images, ${detections} detections`);
console.log(`  eval                 ${plain.ms.toFixed(0)} ms; with --per-image ${withStats.ms.toFixed(0)} ms`);
console.log(`  report size          ${mb(plainSize)} → ${mb(statsSize)} (+${mb(statsSize - plainSize)}, ${((statsSize - plainSize) / detections).toFixed(1)} bytes per detection)`);
const inputs = [{ name: 'official', file: 'official.json', report: withStats.value }];
for (let j = 1; j < 10; j++) {
  const dir = join(DATA, 'compare-methods', `m${j}`);
  if (!existsSync(dir)) perturbDetResults(join(root, 'results', 'VOC2010'), dir, { seed: j, noise: 0.05 * j, jitter: j, drop: 0.02 * j, perClass: 0.5 });
  const r = await det.evaluate({ root, results: dir }, ctx(true));
  inputs.push({ name: `m${j}`, file: `m${j}.json`, report: r });
}
for (const k of [2, 10]) {
  const run = await timed(() => compareReports(inputs.slice(0, k), { bootstrap: B, seed: 0 }));
  const again = compareReports(inputs.slice(0, k), { bootstrap: B, seed: 0 });
  const same = JSON.stringify(run.value) === JSON.stringify(again);
  console.log(
    `  compare k=${String(k).padEnd(2)} B=${B}  ${(run.ms / 1000).toFixed(2)} s (${(run.ms / (B * k)).toFixed(2)} ms per method-replicate; baseline: one official eval ${plain.ms.toFixed(0)} ms per method-replicate) repeatable: ${same}`,
  );
}

// --- ADE20K medium ----------------------------------------------------------------------------------
const adeRoot = join(FIX, 'ade20k', 'medium');
const boundary = ade.tasks['ade20k/boundary'];
const adeOpts = { gt: join(adeRoot, 'annotations_boundary/validation'), pred: join(adeRoot, 'predictions_boundary/validation') };
const adeRun = await timed(() => boundary.evaluate(adeOpts, createRunContext({ perImage: true })));
const adePlainSize = Buffer.byteLength(reportToJson({ ...adeRun.value, extra: undefined }));
const adeSize = Buffer.byteLength(reportToJson(adeRun.value));
console.log(`ade20k/boundary medium: ${adeRun.value.summary.images} images x ${adeRun.value.summary.classes} classes`);
console.log(`  eval                 ${(adeRun.ms / 1000).toFixed(1)} s (all cores)`);
console.log(`  report size          ${mb(adePlainSize)} → ${mb(adeSize)} (+${mb(adeSize - adePlainSize)})`);
// the same report under two names: the replicate cost does not depend on the prediction
const adeInputs = [0, 1].map((j) => ({ name: `a${j}`, file: `a${j}.json`, report: adeRun.value }));
const adeCmp = await timed(() => compareReports(adeInputs, { bootstrap: B, seed: 0 }));
console.log(`  compare k=2  B=${B}  ${(adeCmp.ms / 1000).toFixed(2)} s (baseline: one official eval ${(adeRun.ms / 1000).toFixed(1)} s per method-replicate)`);
