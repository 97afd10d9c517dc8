// Benchmarks of ilsvrc2015/det on the built dist (node bench/det.bench.mjs; `pnpm bench`).
// Prints our time next to the official devkit's (Octave 7.3, 2 vCPU; shared/specs/ilsvrc2015.md §8)
// and the raw time to read/decode the same files.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFixtureJson } from '@cvdevkit/test-utils';
import { createRunContext } from '@cvdevkit/core';
import { parseDevkitXml } from '@cvdevkit/formats/xml';
import { readMatFileSync } from '@cvdevkit/matfile';
import { detTask } from '../dist/index.js';
import { REAL, prepareLarge, prepareRealFull } from './prepare.mjs';

const workers = Number(process.env.WORKERS ?? availableParallelism());
const rows = [];
const ms = (t) => `${(t / 1000).toFixed(2)} s`;

let lastCpu = 0;
async function timeEval(options, context, expectedFile) {
  const c = process.cpuUsage();
  const t = performance.now();
  const report = await detTask.evaluate(options, context);
  const dt = performance.now() - t;
  const u = process.cpuUsage(c);
  lastCpu = (u.user + u.system) / 1000;
  if (process.env.VERBOSE) console.error(JSON.stringify(report.timings));
  if (expectedFile) {
    const exp = readFixtureJson(expectedFile);
    if (Math.abs(report.summary.meanAP - exp.mean_ap) > 1e-9) throw new Error(`mean AP ${report.summary.meanAP} != ${exp.mean_ap}`);
  }
  return dt;
}

function rawXml(dir, names) {
  let t = performance.now();
  const texts = names.map((n) => readFileSync(join(dir, `${n}.xml`), 'utf8'));
  const read = performance.now() - t;
  t = performance.now();
  for (const s of texts) parseDevkitXml(s);
  return { read, parse: performance.now() - t };
}

const listNames = (file) => readFileSync(file, 'utf8').trim().split('\n').map((l) => l.split(/\s+/)[0]);

// 1. the published demo via the ground-truth cache
{
  const options = {
    pred: join(REAL, 'demo.val.pred.det.txt'),
    meta: join(REAL, 'meta_det.mat'),
    list: join(REAL, 'det_val.txt'),
    gt: join(REAL, 'ILSVRC2015_det_validation_ground_truth.mat'),
    blacklist: join(REAL, 'ILSVRC2015_det_validation_blacklist.txt'),
  };
  const first = await timeEval(options, createRunContext({ workers }), 'ilsvrc2015/det_real_full.expected.json');
  const firstCpu = lastCpu;
  const again = await timeEval(options, createRunContext({ workers }));
  let t = performance.now();
  readMatFileSync(options.gt);
  const raw = performance.now() - t;
  t = performance.now();
  readFileSync(options.pred, 'utf8');
  const rawPred = performance.now() - t;
  rows.push(['real DET demo via cache (20,121 images, 49,013 dets)', `${ms(first)} (CPU ${ms(firstCpu)})`, ms(again), '9.9 s', `MAT decode ${ms(raw)}, read predictions ${ms(rawPred)}`]);
}

// 2. all 20,121 real DET val images via XML
{
  const dir = prepareRealFull();
  const options = {
    pred: join(REAL, 'demo.val.pred.det.txt'),
    meta: join(REAL, 'meta_det.mat'),
    list: join(dir, 'val.txt'),
    gt: join(dir, 'Annotations'),
    blacklist: join(REAL, 'ILSVRC2015_det_validation_blacklist.txt'),
  };
  const expected = 'ilsvrc2015/det_real_full.expected.json';
  const cold = await timeEval(options, createRunContext({ workers }), expected);
  const coldCpu = lastCpu;
  const cacheDir = mkdtempSync(join(tmpdir(), 'cvdevkit-bench-'));
  await timeEval(options, createRunContext({ workers, cacheDir }), expected);
  const cached = await timeEval(options, createRunContext({ workers, cacheDir }), expected);
  rmSync(cacheDir, { recursive: true, force: true });
  const raw = rawXml(join(dir, 'Annotations'), listNames(options.list));
  rows.push(['det_real_full via XML (20,121 XMLs)', `${ms(cold)} (CPU ${ms(coldCpu)})`, `${ms(cached)} (parse cache)`, '179.5 s', `read ${ms(raw.read)} + parseDevkitXml ${ms(raw.parse)} on 1 thread`]);
}

// 3. det_large
{
  const dir = prepareLarge();
  const options = { pred: join(dir, 'pred.txt'), meta: join(dir, 'meta.mat'), list: join(dir, 'val.txt'), gt: join(dir, 'Annotations'), blacklist: join(dir, 'blacklist.txt') };
  const first = await timeEval(options, createRunContext({ workers }), 'ilsvrc2015/det_large.expected.json');
  const firstCpu = lastCpu;
  const again = await timeEval(options, createRunContext({ workers }), 'ilsvrc2015/det_large.expected.json');
  const raw = rawXml(join(dir, 'Annotations'), listNames(options.list));
  rows.push(['det_large (5,000 XMLs, 84,100 dets)', `${ms(first)} (CPU ${ms(firstCpu)})`, ms(again), '60.3 s', `read ${ms(raw.read)} + parseDevkitXml ${ms(raw.parse)} on 1 thread`]);
}

console.log(`ilsvrc2015/det benchmarks (workers: ${workers}; load average ${(await import('node:os')).loadavg()[0].toFixed(1)}; numbers checked against the official mean AP)\n`);
console.log('| case | first run (CPU time of all threads) | second run | official | raw read/decode of the same files |');
console.log('|---|---|---|---|---|');
for (const r of rows) console.log(`| ${r.join(' | ')} |`);
