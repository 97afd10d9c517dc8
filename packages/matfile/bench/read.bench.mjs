/**
 * Benchmark: load the ILSVRC2015 ground-truth caches with @devkit/matfile (built dist).
 * Prints the median of several runs for: reading the bytes from disk, readMat (lazy containers),
 * packNumbers over the box cells (bulk access), and decoding every element (decodeAll).
 *
 *   pnpm --filter @devkit/matfile build && node bench/read.bench.mjs [runs]
 */
import { readFileSync, existsSync } from 'node:fs';
import { readMat, decodeAll, packNumbers } from '../dist/index.js';

const REAL = process.env.ILSVRC_REAL ?? '/work/shared/real/ilsvrc2015';
const RUNS = Number(process.argv[2] ?? 9);
const CASES = [
  { file: 'ILSVRC2015_vid_validation_ground_truth_whole.mat', bulk: (v) => packNumbers(v.gt_obj_bboxes) },
  { file: 'ILSVRC2015_clsloc_validation_ground_truth.mat', bulk: (v) => packNumbers(v.rec, 'objects') },
  { file: 'ILSVRC2015_det_validation_ground_truth.mat', bulk: (v) => packNumbers(v.gt_obj_bboxes) },
  { file: 'meta_clsloc.mat' },
];

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}
function time(fn) {
  const t = performance.now();
  const r = fn();
  return [performance.now() - t, r];
}

const rows = [];
for (const c of CASES) {
  const path = `${REAL}/${c.file}`;
  if (!existsSync(path)) {
    console.log(`skip ${c.file} (not found)`);
    continue;
  }
  const disk = [];
  const load = [];
  const bulk = [];
  const all = [];
  // One warm-up run (JIT), then RUNS measured runs.
  for (let i = 0; i <= RUNS; i++) {
    const [td, bytes] = time(() => readFileSync(path));
    const [tl, vars] = time(() => readMat(bytes, { file: c.file }));
    let tb = NaN;
    if (c.bulk) {
      // packNumbers on a fresh read (containers not decoded yet); struct fields fall back to decoding.
      const fresh = readMat(bytes);
      [tb] = time(() => {
        try {
          return c.bulk(fresh);
        } catch {
          return undefined; // clsloc `objects` are structs, not numbers: bulk access does not apply
        }
      });
    }
    const [ta] = time(() => {
      for (const v of Object.values(vars)) decodeAll(v);
    });
    if (i === 0) continue;
    disk.push(td);
    load.push(tl);
    bulk.push(tb);
    all.push(tl + ta);
  }
  const size = readFileSync(path).length;
  rows.push({
    file: c.file,
    MB: +(size / 1e6).toFixed(2),
    'disk read ms': +median(disk).toFixed(1),
    'readMat ms': +median(load).toFixed(1),
    'packNumbers ms': Number.isNaN(median(bulk)) ? '-' : +median(bulk).toFixed(1),
    'readMat+decodeAll ms': +median(all).toFixed(1),
  });
}
console.log(`@devkit/matfile read benchmark (node ${process.version}, median of ${RUNS} runs)`);
console.table(rows);
const budget = rows.filter((r) => /vid_validation_ground_truth_whole|clsloc_validation_ground_truth/.test(r.file));
const over = budget.filter((r) => r['readMat ms'] > 100);
console.log(over.length === 0 ? 'OK: the VID and CLS-LOC caches load in <= 100 ms' : `OVER BUDGET: ${over.map((r) => r.file).join(', ')}`);
