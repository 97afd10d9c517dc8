// Benchmark (issue 14): ilsvrc2015/det with a 5 M-line prediction file, `--format json`, through the built
// CLI: wall time, peak RSS (/usr/bin/time), bytes per prediction line, exit code (never 3).
// The real DET val set: its 20,121-image list, meta_det.mat, blacklist and official ground-truth cache
// (fixtures/ilsvrc2015/real). Predictions: ~250 lines per image (a dense detector's top boxes), one
// jittered box per ground-truth object (true and false positives near the objects) and the rest random
// boxes of random classes (deterministic). Bytes per line are counted above a run with one line per image
// (start-up, ground truth and meta cost the same at any size).
// LINES=… changes the size; BASELINE_CLI=/path/to/apps/cli/dist/bin.js (e.g. main's build) is measured
// side by side; BENCH_GT=xml reads the 20,121 XMLs rebuilt by prepare.mjs instead of the cache.
// Data under bench-data/ (git-ignored) or $ILSVRC_BENCH_DATA.
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ILSVRC_REAL } from '@cvdevkit/test-utils';
import { matNumbers, readMatFileSync } from '@cvdevkit/matfile';

const here = fileURLToPath(new URL('.', import.meta.url));
const CLI = join(here, '../../../apps/cli/dist/bin.js');
const DATA = process.env.ILSVRC_BENCH_DATA ?? join(here, '../bench-data');
const LINES = Number(process.env.LINES ?? 5_000_000);
const GT_CACHE = join(ILSVRC_REAL, 'ILSVRC2015_det_validation_ground_truth.mat');
const builds = [['this build', CLI], ...(process.env.BASELINE_CLI ? [['baseline', process.env.BASELINE_CLI]] : [])];

/** The real val set: image indices of the list, and per image its ground-truth labels and boxes. */
function realVal() {
  const ids = readFileSync(join(ILSVRC_REAL, 'det_val.txt'), 'utf8').trim().split('\n').map((l) => Number(l.trim().split(/\s+/)[1]));
  const cache = readMatFileSync(GT_CACHE);
  const gtIds = matNumbers(cache.gt_img_ids);
  const gt = new Map();
  for (let i = 0; i < gtIds.length; i++) gt.set(gtIds[i], { labels: matNumbers(cache.gt_obj_labels.cells[i]), boxes: matNumbers(cache.gt_obj_bboxes.cells[i]) });
  return { ids, gt };
}

/** Writes about `total` prediction lines spread evenly over the images (at least one each). */
function makePred(file, total) {
  const { ids, gt } = realVal();
  let seed = 7;
  const rnd = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
  const line = (id, label, x0, y0, x1, y1) => `${id} ${label} ${rnd().toFixed(6)} ${x0.toFixed(1)} ${y0.toFixed(1)} ${x1.toFixed(1)} ${y1.toFixed(1)}\n`;
  const tmp = `${file}.tmp`;
  const fd = openSync(tmp, 'w');
  let buf = '';
  let written = 0;
  for (let i = 0; i < ids.length; i++) {
    const quota = Math.max(1, Math.floor((total * (i + 1)) / ids.length) - Math.floor((total * i) / ids.length));
    const g = gt.get(ids[i]);
    let k = 0;
    for (let o = 0; g && o < g.labels.length && k < quota; o++, k++) {
      const [x0, y0, x1, y1] = g.boxes.subarray(4 * o, 4 * o + 4);
      const j = () => (rnd() - 0.5) * 0.2 * (x1 - x0 + y1 - y0);
      buf += line(ids[i], g.labels[o], x0 + j(), y0 + j(), x1 + j(), y1 + j());
    }
    for (; k < quota; k++) {
      const x = rnd() * 400;
      const y = rnd() * 300;
      buf += line(ids[i], 1 + Math.floor(rnd() * 200), x, y, x + 1 + rnd() * 100, y + 1 + rnd() * 100);
    }
    written += quota;
    if (buf.length > 1 << 20) {
      writeSync(fd, buf);
      buf = '';
    }
  }
  writeSync(fd, buf);
  closeSync(fd);
  renameSync(tmp, file);
  return written;
}

function measure(cli, args) {
  const r = spawnSync('/usr/bin/time', ['-f', '%e %M', process.execPath, cli, ...args], { encoding: 'latin1', maxBuffer: 4 << 30, stdio: ['ignore', 'pipe', 'pipe'] });
  const [sec, kb] = r.stderr.trim().split('\n').pop().split(' ').map(Number);
  return { status: r.status, seconds: sec, rssMB: kb / 1024, outMB: (r.stdout?.length ?? 0) / 1048576, stderr: r.stderr };
}

mkdirSync(DATA, { recursive: true });
const gtArg = process.env.BENCH_GT === 'xml' ? join((await import('./prepare.mjs')).prepareRealFull(), 'Annotations') : GT_CACHE;
const predOf = (n) => {
  const file = join(DATA, `real-pred-${n}.txt`);
  if (!existsSync(file)) makePred(file, n);
  return file;
};
const args = (pred) => ['eval', 'ilsvrc2015/det', '--pred', pred, '--list', join(ILSVRC_REAL, 'det_val.txt'), '--meta', join(ILSVRC_REAL, 'meta_det.mat'), '--gt', gtArg, '--blacklist', join(ILSVRC_REAL, 'ILSVRC2015_det_validation_blacklist.txt'), '--format', 'json', '--no-cache', '-q'];
const small = predOf(1);
const big = predOf(LINES);
const lines = readFileSync(big).reduce((s, b) => s + (b === 10 ? 1 : 0), 0);
const smallLines = readFileSync(small).reduce((s, b) => s + (b === 10 ? 1 : 0), 0);

console.log(`ilsvrc2015/det on the real val set (20,121 images, ground truth: ${process.env.BENCH_GT === 'xml' ? 'XMLs' : 'cache .mat'})`);
console.log('build           lines  wall s  peak RSS MB  B/line above the small run  JSON MB  exit');
for (const [name, cli] of builds) {
  const s = measure(cli, args(small));
  console.log(`${name.padEnd(11)}  ${String(smallLines).padStart(9)}  ${s.seconds.toFixed(1).padStart(6)}  ${s.rssMB.toFixed(0).padStart(11)}  ${'-'.padStart(26)}  ${s.outMB.toFixed(0).padStart(7)}  ${s.status}`);
  const m = measure(cli, args(big));
  const perLine = ((m.rssMB - s.rssMB) * 1048576) / (lines - smallLines);
  console.log(`${name.padEnd(11)}  ${String(lines).padStart(9)}  ${m.seconds.toFixed(1).padStart(6)}  ${m.rssMB.toFixed(0).padStart(11)}  ${perLine.toFixed(0).padStart(26)}  ${m.outMB.toFixed(0).padStart(7)}  ${m.status}`);
  for (const r of [s, m]) if (r.status !== 0) console.log(r.stderr.slice(-500));
}
