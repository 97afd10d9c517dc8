// Benchmark: the whole diagnosis (overlap, size, Hoiem, TIDE, top) on VOC det `large` (5,000 images,
// 100k detections) and on the real ILSVRC2015 DET demo (49k detections, 200 classes), side by side with
// the official evaluation of the same inputs in the same run. Inputs are read once with the tasks' own
// readers; each figure is the best of RUNS runs (wall and CPU time of this process).
// Run after `pnpm build`: `node packages/analysis/bench/analyze.bench.mjs` (or `pnpm bench`).
// The VOC case is generated with the fixture generator (python3) into VOC_BENCH_DATA (default:
// packages/voc2010/bench-data, git-ignored), as the voc2010 benchmark does.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRunContext, ProblemCollector } from '@cvdevkit/core';
import { diagnose } from '../dist/index.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const REPO = join(here, '../../..');
// The plugins depend on this package, so they are loaded from their build output rather than declared.
// internals of the voc2010 plugin, from their own modules (the package's public API is the plugin and the writers)
const { readVocRecords } = await import(join(REPO, 'packages/voc2010/dist/annotations.js'));
const { vocDiagnoseInput } = await import(join(REPO, 'packages/voc2010/dist/analyze.js'));
const { default: vocPlugin } = await import(join(REPO, 'packages/voc2010/dist/plugin.js'));
const vocDet = await import(join(REPO, 'packages/voc2010/dist/det.js'));
const common = await import(join(REPO, 'packages/ilsvrc2015-common/dist/index.js'));
const RUNS = Number(process.env.RUNS ?? 3);

function timeIt(fn) {
  let best = { wall: Infinity, cpu: Infinity };
  let out;
  for (let k = 0; k < RUNS; k++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    out = fn();
    const wall = performance.now() - t0;
    const c = process.cpuUsage(c0);
    const cpu = (c.user + c.system) / 1000;
    if (wall < best.wall) best = { wall, cpu, timings: out?.timings };
  }
  return { ...best, out };
}
async function timeAsync(fn) {
  let best = { wall: Infinity, cpu: Infinity };
  for (let k = 0; k < RUNS; k++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await fn();
    const wall = performance.now() - t0;
    const c = process.cpuUsage(c0);
    if (wall < best.wall) best = { wall, cpu: (c.user + c.system) / 1000 };
  }
  return best;
}
const ms = (x) => `${x.toFixed(0)} ms`;
const sections = (t) => Object.entries(t ?? {}).map(([k, v]) => `${k.replace(/Ms$/, '')} ${v.toFixed(0)}`).join(', ');

// --- VOC2010 det `large` ---
const DATA = process.env.VOC_BENCH_DATA ?? join(REPO, 'packages/voc2010/bench-data');
const root = join(DATA, 'large');
if (!existsSync(join(root, 'VOC2010'))) {
  console.log(`generating the large case into ${DATA} …`);
  execFileSync('python3', [join(REPO, 'fixtures/voc2010/gen/gen_cases.py'), '--out', DATA, 'large'], { stdio: 'inherit' });
}
const ctx = createRunContext({ workers: 2 });
const problems = new ProblemCollector();
const base = await vocDet.readDetSet({ root }, problems);
const inputs = await vocDet.readDetResults(base, problems);
const records = await readVocRecords(base.set.keys, { annotationsDir: base.paths.annotationsDir, path: base.paths.annotation }, ctx, problems);
problems.throwIfAny();
const input = vocDiagnoseInput(inputs, records);
console.log(`VOC det large: ${input.images.length} images, ${input.detections.score.length} detections, ${input.objects.cls.length} objects`);
const official = await timeAsync(() => vocPlugin.tasks['voc2010/det'].evaluate({ root }, createRunContext({ workers: 2, cacheDir: join(DATA, 'cache') })));
console.log(`  official evaluation (cvdevkit eval, cached annotations): ${ms(official.wall)} wall, ${ms(official.cpu)} CPU`);
const all = timeIt(() => diagnose(input));
console.log(`  diagnosis, all sections, TIDE official mode: ${ms(all.wall)} wall, ${ms(all.cpu)} CPU (${sections(all.timings)})`);
const tide = timeIt(() => diagnose(input, { only: ['tide'], tideMode: 'tide' }));
console.log(`  TIDE v1.0.1 mode (10 thresholds, 8 fixes, 36 qualifier fixes): ${ms(tide.wall)} wall, ${ms(tide.cpu)} CPU`);
console.log(`  mAP ${all.out.official.mAP}, mAP@0.5 from the sweep ${all.out.overlap.mAP[9]}`);

// --- ILSVRC2015 DET real demo ---
const REAL = join(REPO, 'fixtures/ilsvrc2015/real');
const synsets = common.readSynsets(join(REAL, 'meta_det.mat'));
const gt = common.readGroundTruthCache(join(REAL, 'ILSVRC2015_det_validation_ground_truth.mat'));
const preds = common.readPredictions(join(REAL, 'demo.val.pred.det.txt'));
const blacklist = common.readBlacklist(join(REAL, 'ILSVRC2015_det_validation_blacklist.txt'), synsets);
const settings = { order: 'index', outside: 'error' };
const { ilsvrcDiagnoseInput } = await import(join(REPO, 'packages/ilsvrc2015-common/dist/analyze-detection.js'));
const ilsvrcInput = ilsvrcDiagnoseInput(gt, preds, blacklist, synsets, settings);
console.log(`ILSVRC2015 DET demo: ${ilsvrcInput.images.length} images, ${ilsvrcInput.detections.score.length} detections, ${ilsvrcInput.classes.length} classes`);
const ofc = timeIt(() => common.evaluateDetections(gt, preds, blacklist, settings));
console.log(`  official evaluateDetections: ${ms(ofc.wall)} wall, ${ms(ofc.cpu)} CPU`);
const ilsvrcAll = timeIt(() => diagnose(ilsvrcInput));
console.log(`  diagnosis, all sections: ${ms(ilsvrcAll.wall)} wall, ${ms(ilsvrcAll.cpu)} CPU (${sections(ilsvrcAll.timings)})`);
const ilsvrcTide = timeIt(() => diagnose(ilsvrcInput, { only: ['tide'], tideMode: 'tide' }));
console.log(`  TIDE v1.0.1 mode: ${ms(ilsvrcTide.wall)} wall, ${ms(ilsvrcTide.cpu)} CPU`);
console.log(`  meanAP ${ilsvrcAll.out.official.mAP} (official ${ofc.out.meanAP})`);
console.log('TIDE itself (python) cannot be installed here (no PyPI): no side-by-side TIDE timing.');
