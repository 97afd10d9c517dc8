/**
 * Benchmark: load the ILSVRC2015 ground-truth caches with @cvdevkit/matfile (built dist).
 *
 *   pnpm --filter @cvdevkit/matfile build && pnpm --filter @cvdevkit/matfile bench [-- runs]
 *
 * Per file, the median over RUNS runs (after one warm-up run) of
 *   disk read        readFileSync (the raw cost of getting the bytes)
 *   readMat          parse + inflate; cells/struct elements are located but decoded lazily
 *   readMat cpu      the same as CPU time (user+system, all threads): steadier on a busy machine
 *   +packNumbers     readMat, then every box of the file as one Float64Array (bulk access)
 *   +decodeAll       readMat, then every cell/struct element decoded into MatValues
 * Each phase is measured in its own loop so that garbage of one does not bill another.
 */
import { readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readMat, decodeAll, packNumbers } from '../dist/index.js';

const REAL = process.env.ILSVRC_REAL ?? fileURLToPath(new URL('../../../fixtures/ilsvrc2015/real', import.meta.url));
const RUNS = Number(process.argv[2] ?? 9);
const BUDGET_MS = 100;
const CASES = [
  { file: 'ILSVRC2015_vid_validation_ground_truth_whole.mat', budget: true, bulk: (v) => packNumbers(v.gt_obj_bboxes) },
  { file: 'ILSVRC2015_clsloc_validation_ground_truth.mat', budget: true },
  { file: 'ILSVRC2015_det_validation_ground_truth.mat', bulk: (v) => packNumbers(v.gt_obj_bboxes) },
  { file: 'meta_clsloc.mat' },
];

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}
/** Median wall ms of fn over RUNS runs after one warm-up. */
function measure(fn) {
  const xs = [];
  for (let i = 0; i <= RUNS; i++) {
    const t = performance.now();
    fn();
    if (i > 0) xs.push(performance.now() - t);
  }
  return +median(xs).toFixed(1);
}
function measureCpu(fn) {
  const xs = [];
  for (let i = 0; i <= RUNS; i++) {
    const c = process.cpuUsage();
    fn();
    const d = process.cpuUsage(c);
    if (i > 0) xs.push((d.user + d.system) / 1000);
  }
  return +median(xs).toFixed(1);
}

const rows = [];
for (const c of CASES) {
  const path = `${REAL}/${c.file}`;
  if (!existsSync(path)) {
    console.log(`skip ${c.file} (not found)`);
    continue;
  }
  const bytes = readFileSync(path);
  const row = { file: c.file, MB: +(bytes.length / 1e6).toFixed(2) };
  row['disk read ms'] = measure(() => readFileSync(path));
  row['readMat ms'] = measure(() => readMat(bytes, { file: c.file }));
  row['readMat cpu ms'] = measureCpu(() => readMat(bytes, { file: c.file }));
  row['+packNumbers ms'] = c.bulk ? measure(() => c.bulk(readMat(bytes))) : '-';
  row['+decodeAll ms'] = measure(() => {
    for (const v of Object.values(readMat(bytes))) decodeAll(v);
  });
  rows.push(row);
  if (c.budget) row.budget = row['readMat ms'] <= BUDGET_MS ? 'ok' : 'OVER';
}
console.log(`@cvdevkit/matfile read benchmark (node ${process.version}, median of ${RUNS} runs)`);
console.table(rows);
const over = rows.filter((r) => r.budget === 'OVER');
console.log(
  over.length === 0
    ? `OK: the VID and CLS-LOC caches load in <= ${BUDGET_MS} ms`
    : `OVER BUDGET (${BUDGET_MS} ms): ${over.map((r) => r.file).join(', ')} — wall time; compare the cpu column if the machine is busy`,
);
