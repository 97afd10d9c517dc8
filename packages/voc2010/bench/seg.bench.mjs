// Benchmark: voc2010/seg on the `large` fixture case (1,000 segmentation images, 142 Mpixel), checked
// against the official numbers in large.expected.json, next to the time to merely read + decode the same
// PNGs (one thread). Official VOCevalseg (Octave 7.3, this machine): 44-51 s.
// Run after `pnpm build`: `node bench/seg.bench.mjs` (WORKERS=n to pick the thread count).
// The case is generated with the fixture generator (python3) into bench-data/ (git-ignored).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFixtureJson } from '@cvdevkit/test-utils';
import { createRunContext } from '@cvdevkit/core';
import { decodeLabelPng } from '@cvdevkit/formats/png';
import { segTask } from '../dist/seg/task.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const FIX = join(here, '../../../fixtures/voc2010');
const DATA = process.env.VOC_BENCH_DATA ?? join(here, '../bench-data');
const root = join(DATA, 'large');
if (!existsSync(join(root, 'VOC2010/SegmentationClass'))) {
  console.log(`generating the large case into ${DATA} …`);
  execFileSync('python3', [join(FIX, 'gen/gen_cases.py'), '--out', DATA, 'large'], { stdio: 'inherit' });
}
const want = readFixtureJson('voc2010/large.expected.json').seg;
const num = (v) => (v === 'NaN' ? NaN : v);
const same = (a, b) => (Number.isNaN(b) ? a === null || Number.isNaN(a) : Math.abs(a - b) <= 1e-9);

async function best(fn, runs = 3) {
  let ms = Infinity;
  let out;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    out = await fn();
    ms = Math.min(ms, performance.now() - t);
  }
  return { ms, out };
}

// Baseline: read and decode every ground-truth and result PNG, nothing else.
const ids = readFileSync(join(root, 'VOC2010/ImageSets/Segmentation/val.txt'), 'utf8').split(/\s+/).filter(Boolean);
const files = ids.flatMap((id) => [join(root, 'VOC2010/SegmentationClass', `${id}.png`), join(root, 'results/VOC2010/Segmentation/comp5_val_cls', `${id}.png`)]);
const read = await best(() => {
  let bytes = 0;
  for (const f of files) bytes += readFileSync(f).length;
  return bytes;
});
const decode = await best(() => {
  let px = 0;
  for (const f of files) px += decodeLabelPng(readFileSync(f), f).data.length;
  return px;
});

const workers = Number(process.env.WORKERS ?? 0) || undefined;
const rows = [];
for (const w of workers ? [workers] : [1, undefined]) {
  const ctx = () => createRunContext(w ? { workers: w } : {});
  const { ms, out: report } = await best(() => segTask.evaluate({ root }, ctx()));
  let bad = 0;
  want.accuracies.forEach((a, j) => { if (!same(report.rows[j].iou, num(a) / 100)) bad++; });
  if (!same(report.summary.mIoU ?? NaN, num(want.avacc) / 100)) bad++;
  want.rawcounts.forEach((row, g) => row.forEach((c, r) => { if (report.matrices.confusion.counts[g][r] !== c) bad++; }));
  rows.push({ what: `voc2010/seg, ${ctx().workers} worker${ctx().workers > 1 ? 's' : ''}`, ms, check: bad === 0 ? 'matches official' : `${bad} MISMATCHES` });
}
console.log(`voc2010/seg on large: ${ids.length} images, ${(decode.out / 2 / 1e6).toFixed(1)} Mpixel (GT + result = ${(decode.out / 1e6).toFixed(0)} Mpixel decoded)`);
console.log(`  baseline: read ${files.length} PNGs (${(read.out / 1e6).toFixed(1)} MB)   ${read.ms.toFixed(0).padStart(6)} ms`);
console.log(`  baseline: read + decode, 1 thread                 ${decode.ms.toFixed(0).padStart(6)} ms`);
for (const r of rows) console.log(`  ${r.what.padEnd(48)} ${r.ms.toFixed(0).padStart(6)} ms   ${r.check}`);
console.log('  official VOCevalseg (Octave 7.3)                   44000-51000 ms');
if (rows.some((r) => r.check !== 'matches official')) process.exitCode = 1;
