#!/usr/bin/env node
// Benchmark of ilsvrc2015/clsloc on the built dist (run `pnpm build` first):
//  1. clsloc_large (20,000 XML annotations), generated with the fixtures' python generator into
//     bench-data/ (git-ignored); the numbers are checked against clsloc_large.expected.json (1e-9).
//     Timed cold (no cache, workers), cold in one thread, and warm (parsed-annotation cache), next
//     to the raw time to read + XML-parse the same files (fast-xml-parser, one thread).
//  2. the real 50,000-image `rec` cache .mat with the real labels, blacklist and synthetic predictions.
// Official (Octave 7.3, 2 cores): clsloc_large 172 s.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRunContext } from '@cvdevkit/core';
import { ILSVRC_REAL, fixturePath } from '@cvdevkit/test-utils';
import { parseDevkitXml } from '@cvdevkit/formats/xml';
import plugin from '../dist/index.js';
import { readRecCache } from '../dist/ground-truth.js';

const here = dirname(fileURLToPath(import.meta.url));
const pkg = join(here, '..');
const fixtures = fixturePath('ilsvrc2015');
const real = ILSVRC_REAL;
const task = plugin.tasks['ilsvrc2015/clsloc'];
const workers = Math.max(1, Number(process.env.WORKERS ?? availableParallelism()));

function ms(t) {
  return `${(t / 1000).toFixed(2)} s`;
}

async function timed(fn) {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const value = await fn();
  const c = process.cpuUsage(c0);
  // cpu: user + system time of this process (all threads), less sensitive than wall time to a busy machine
  return { value, time: performance.now() - t0, cpu: (c.user + c.system) / 1000 };
}

function both(r) {
  return `${ms(r.time)} wall, ${ms(r.cpu)} CPU`;
}

function check(report, expected, label) {
  let worst = 0;
  for (let k = 0; k < 5; k++) {
    worst = Math.max(worst, Math.abs(report.rows[k].clsError - expected.cls_error[k]), Math.abs(report.rows[k].locError - expected.clsloc_error[k]));
  }
  const ok = worst <= 1e-9;
  console.log(`  ${label}: ${ok ? 'matches' : 'DIFFERS FROM'} the official numbers (max |diff| ${worst.toExponential(2)})`);
  if (!ok) process.exitCode = 1;
}

// ------------------------------------------------------------------ 1. clsloc_large
const dataDir = join(pkg, 'bench-data');
const caseDir = join(dataDir, 'clsloc_large');
if (!existsSync(join(caseDir, 'pred.txt'))) {
  console.log('generating clsloc_large (python3 gen_cases.py) …');
  execFileSync('python3', [join(fixtures, 'gen', 'gen_cases.py'), '--out', dataDir, 'clsloc_large'], { stdio: 'inherit' });
}
const expected = JSON.parse(readFileSync(join(fixtures, 'clsloc_large.expected.json'), 'utf8'));
const options = {
  pred: join(caseDir, 'pred.txt'),
  labels: join(caseDir, 'gt.txt'),
  gt: join(caseDir, 'Annotations'),
  blacklist: join(caseDir, 'blacklist.txt'),
};

console.log(`clsloc_large: 20,000 images, ${workers} worker(s); official eval_clsloc.m: 172 s`);
const load = (await import('node:os')).loadavg()[0];
console.log(`  (load average ${load.toFixed(1)} on ${availableParallelism()} cores: wall times are only meaningful on an idle machine)`);
const ann = options.gt;
const raw = await timed(() => {
  const files = readdirSync(ann).filter((f) => f.endsWith('.xml')).sort();
  let n = 0;
  for (const f of files) n += Object.keys(parseDevkitXml(readFileSync(join(ann, f), 'utf8'))).length;
  return n;
});
console.log(`  baseline: read + fast-xml-parser parse of the 20,000 files, one thread: ${both(raw)}`);

const cold1 = await timed(() => task.evaluate(options, createRunContext({ workers: 1 })));
console.log(`  cvdevkit, one thread, no cache:           ${both(cold1)}`);
check(cold1.value, expected, 'one thread');

const cold = await timed(() => task.evaluate(options, createRunContext({ workers })));
console.log(`  cvdevkit, ${workers} workers, no cache:             ${both(cold)}  (ground truth ${ms(cold.value.timings.groundTruthMs)}, evaluation ${ms(cold.value.timings.evaluateMs)})`);
check(cold.value, expected, `${workers} workers`);

const cacheDir = mkdtempSync(join(tmpdir(), 'clsloc-bench-cache-'));
try {
  await task.evaluate(options, createRunContext({ workers, cacheDir }));
  const warm = await timed(() => task.evaluate(options, createRunContext({ workers, cacheDir })));
  console.log(`  cvdevkit, warm parsed-annotation cache:   ${both(warm)}`);
  check(warm.value, expected, 'cached');
} finally {
  rmSync(cacheDir, { recursive: true, force: true });
}

// ------------------------------------------------------------------ 2. the real rec cache
const recPath = join(real, 'ILSVRC2015_clsloc_validation_ground_truth.mat');
if (existsSync(recPath)) {
  const labelsPath = join(real, 'ILSVRC2015_clsloc_validation_ground_truth.txt');
  const rawMat = await timed(() => readRecCache(recPath));
  const rec = rawMat.value;
  const gt = readFileSync(labelsPath, 'utf8').trim().split('\n').map(Number);
  // 5 guesses: the true label at a position that cycles 1..5 (with the last box of its class), others wrong.
  const lines = gt.map((t, i) => {
    let box = [0, 0, 0, 0];
    for (let o = rec.offsets[i]; o < rec.offsets[i + 1]; o++) if (rec.labels[o] === t) box = Array.from(rec.boxes.subarray(o * 4, o * 4 + 4));
    const groups = [];
    for (let g = 0; g < 5; g++) groups.push(g === i % 5 ? `${t} ${box.join(' ')}` : `${((t + g) % 1000) + 1} 0 0 1 1`);
    return groups.join(' ');
  });
  const tmp = mkdtempSync(join(tmpdir(), 'clsloc-bench-real-'));
  try {
    writeFileSync(join(tmp, 'pred.txt'), lines.join('\n') + '\n');
    const real50k = await timed(() =>
      task.evaluate(
        { pred: join(tmp, 'pred.txt'), labels: labelsPath, gt: recPath, blacklist: join(real, 'ILSVRC2015_clsloc_validation_blacklist.txt') },
        createRunContext({ workers }),
      ),
    );
    const r = real50k.value;
    console.log(`real 50,000-image rec cache (80,477 boxes) + real labels + blacklist:`);
    console.log(`  baseline: readRecCache alone ${both(rawMat)}; cvdevkit total ${both(real50k)}`);
    const bl = new Set(readFileSync(join(real, 'ILSVRC2015_clsloc_validation_blacklist.txt'), 'utf8').trim().split('\n').map(Number));
    const blSize = readFileSync(join(real, 'ILSVRC2015_clsloc_validation_blacklist.txt'), 'utf8').trim().split('\n').length;
    const wantCls = [1, 2, 3, 4, 5].map((k) => gt.filter((_, i) => i % 5 >= k).length / gt.length);
    const wantLoc = [1, 2, 3, 4, 5].map((k) => gt.filter((_, i) => i % 5 >= k && !bl.has(i + 1)).length / (gt.length - blSize));
    const ok = r.rows.every((row, k) => Math.abs(row.clsError - wantCls[k]) < 1e-12 && Math.abs(row.locError - wantLoc[k]) < 1e-12);
    console.log(`  locError ${r.rows.map((x) => x.locError.toFixed(4)).join(' / ')}: ${ok ? 'as constructed' : 'UNEXPECTED'}`);
    if (!ok) process.exitCode = 1;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
