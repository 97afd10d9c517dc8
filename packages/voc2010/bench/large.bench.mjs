// Benchmark: voc2010 cls / det / layout / action on the `large` fixture case (5,000 val images,
// 100k detections), checked against the official numbers in large.expected.json, with the time to
// merely read + parse the same files as the baseline. Run after `pnpm build`: `pnpm bench`.
// The case is generated with the fixture generator (python3) into bench-data/ (git-ignored).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFixtureJson } from '@cvdevkit/test-utils';
import { createRunContext } from '@cvdevkit/core';
import { parsePascalAnnotation } from '@cvdevkit/formats/xml';
import plugin from '../dist/index.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const FIX = join(here, '../../../fixtures/voc2010');
const DATA = process.env.VOC_BENCH_DATA ?? join(here, '../bench-data');
const root = join(DATA, 'large');
if (!existsSync(join(root, 'VOC2010'))) {
  console.log(`generating the large case into ${DATA} …`);
  execFileSync('python3', [join(FIX, 'gen/gen_cases.py'), '--out', DATA, 'large'], { stdio: 'inherit' });
}
const expected = readFixtureJson('voc2010/large.expected.json');
const num = (v) => (v === 'NaN' ? NaN : v === 'Infinity' ? Infinity : v === '-Infinity' ? -Infinity : v);
const same = (a, b) => (Number.isNaN(b) ? a === null || Number.isNaN(a) : Math.abs(a - b) <= 1e-9 || a === b);

function check(report, want, keys) {
  let bad = 0;
  for (const k of keys) {
    const w = want[k];
    const row = report.rows.find((r) => r.key === k);
    const c = report.curves.find((r) => r.key === k);
    if (!same(row.ap, num(w.ap))) bad++;
    if (c.recall.length !== w.rec.length || c.precision.length !== w.prec.length) bad++;
    else w.rec.forEach((v, i) => { if (!same(c.recall[i], num(v)) || !same(c.precision[i], num(w.prec[i]))) bad++; });
  }
  return bad;
}

const workers = Number(process.env.WORKERS ?? 0) || undefined;
async function time(fn, runs = 3) {
  let best = Infinity;
  let out;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    out = await fn();
    best = Math.min(best, performance.now() - t);
  }
  return { ms: best, out };
}

const V = join(root, 'VOC2010');
const R = join(root, 'results/VOC2010');
const rows = [];
const run = (id) => plugin.tasks[id].evaluate({ root }, createRunContext(workers ? { workers } : {}));

// Baselines: read + parse the same files, nothing else.
const valIds = readFileSync(join(V, 'ImageSets/Main/val.txt'), 'utf8').trim().split('\n');
const splitLines = (dir, prefix) => {
  let n = 0;
  for (const f of readdirSync(dir)) if (f.startsWith(prefix)) for (const l of readFileSync(join(dir, f), 'utf8').split('\n')) n += l.trim().split(/\s+/).length;
  return n;
};
const baseDet = await time(() => {
  for (const id of valIds) parsePascalAnnotation(readFileSync(join(V, 'Annotations', `${id}.xml`), 'utf8'));
  return splitLines(join(R, 'Main'), 'comp3_det_val_');
});
const baseDetRead = await time(() => {
  for (const id of valIds) readFileSync(join(V, 'Annotations', `${id}.xml`), 'utf8');
  return splitLines(join(R, 'Main'), 'comp3_det_val_');
});
const baseCls = await time(() => splitLines(join(R, 'Main'), 'comp1_cls_val_') + splitLines(join(V, 'ImageSets/Main'), ''));

for (const [task, key, base, official] of [
  ['voc2010/det', 'det', `${baseDetRead.ms.toFixed(0)} ms read / ${baseDet.ms.toFixed(0)} ms read+XML parse`, '157–191 s'],
  ['voc2010/cls', 'cls', `${baseCls.ms.toFixed(0)} ms read+split`, '22–24 s'],
  ['voc2010/layout', 'layout', '', '20 s'],
  ['voc2010/action', 'action', '', '1.5 s'],
]) {
  const { ms, out } = await time(() => run(task));
  const keys = out.rows.map((r) => r.key);
  let bad = check(out, expected[key], keys);
  if (key === 'layout' && JSON.stringify(out.diagnostics.map((d) => d.message)) !== JSON.stringify(expected.layout.warnings)) bad++;
  rows.push({ task, 'best of 3 (ms)': Math.round(ms), 'mismatches': bad, baseline: base, official });
}
console.table(rows);
if (rows.some((r) => r.mismatches > 0)) process.exitCode = 1;
