// Benchmark (issue 14): ilsvrc2015/det with a 5 M-line prediction file, `--format json`, through the built
// CLI: wall time, peak RSS (/usr/bin/time), bytes per detection above the baseline (`cvdevkit list`), exit
// code (never 3). Ground truth: the det_edge fixture (13 images); detections spread over its images and
// 200 classes (deterministic). LINES=… changes the size; data under bench-data/ (git-ignored).
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const CLI = join(here, '../../../apps/cli/dist/bin.js');
const EDGE = join(here, '../../../fixtures/ilsvrc2015/det_edge');
const DATA = process.env.ILSVRC_BENCH_DATA ?? join(here, '../bench-data');
const n = Number(process.env.LINES ?? 5_000_000);

function makePred(file) {
  let seed = 7;
  const rnd = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
  const fd = openSync(file, 'w');
  let buf = '';
  for (let i = 0; i < n; i++) {
    const x = Math.floor(rnd() * 300) + 1;
    const y = Math.floor(rnd() * 200) + 1;
    buf += `${1 + Math.floor(rnd() * 13)} ${1 + Math.floor(rnd() * 200)} ${rnd().toFixed(6)} ${x} ${y} ${x + Math.floor(rnd() * 100)} ${y + Math.floor(rnd() * 100)}\n`;
    if (buf.length > 1 << 20) {
      writeSync(fd, buf);
      buf = '';
    }
  }
  writeSync(fd, buf);
  closeSync(fd);
}

function measure(args) {
  const r = spawnSync('/usr/bin/time', ['-f', '%e %M', process.execPath, CLI, ...args], { encoding: 'latin1', maxBuffer: 4 << 30 });
  const [sec, kb] = r.stderr.trim().split('\n').pop().split(' ').map(Number);
  return { status: r.status, seconds: sec, rssMB: kb / 1024, outMB: (r.stdout?.length ?? 0) / 1048576, stderr: r.stderr };
}

mkdirSync(DATA, { recursive: true });
const pred = join(DATA, `pred-${n}.txt`);
if (!existsSync(pred)) makePred(pred);
const base = measure(['list', '--format', 'json']);
const m = measure(['eval', 'ilsvrc2015/det', '--pred', pred, '--list', join(EDGE, 'val.txt'), '--meta', join(EDGE, 'meta.mat'), '--gt', join(EDGE, 'Annotations'), '--format', 'json', '--no-cache', '-q']);
console.log(`baseline (cvdevkit list): ${base.seconds.toFixed(2)} s, ${base.rssMB.toFixed(0)} MB peak RSS`);
console.log(`ilsvrc2015/det, ${n} lines: ${m.seconds.toFixed(1)} s, ${m.rssMB.toFixed(0)} MB peak RSS, ${(((m.rssMB - base.rssMB) * 1048576) / n).toFixed(0)} bytes/detection above the baseline, JSON ${m.outMB.toFixed(0)} MB, exit ${m.status}`);
if (m.status !== 0) console.log(m.stderr.slice(-500));
