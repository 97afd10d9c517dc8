// Before/after of whole CLI runs: the same commands through two builds of the CLI, alternating, wall and
// CPU time (user + sys of the process and its threads, from /usr/bin/time), median of BENCH_RUNS (default 5).
// Usage: node scripts/bench-before-after.mjs <before: path of apps/cli/bundle/bin.js (dist/bin.js before the bundle)> [after: default this repo's]
// The "before" build is any older checkout built with `pnpm build` (e.g. `git worktree add ../old <commit>`).
// The VOC large cases are generated first (git-ignored):
//   python3 fixtures/voc2010/gen/gen_cases.py --out fixtures/.unpacked/voc2010-gen large
//   python3 fixtures/voc2010/gen/gen_cases.py --out bench-data/voc2010 large
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const before = process.argv[2];
const after = process.argv[3] ?? join(repo, 'apps/cli/bundle/bin.js');
if (!before || !existsSync(before) || !existsSync(after)) {
  console.error('usage: node scripts/bench-before-after.mjs <before bin.js> [after bin.js]');
  process.exit(1);
}
const runs = Number(process.env.BENCH_RUNS ?? 5);
const f = (p) => join(repo, 'fixtures', p);
const real = (p) => f(`ilsvrc2015/real/${p}`);
const cases = [
  { name: 'list (repo root)', args: ['list'] },
  { name: 'voc2010/cls large', args: ['eval', 'voc2010/cls', '--root', f('.unpacked/voc2010-gen/large'), '--format', 'json', '--no-cache'], needs: f('.unpacked/voc2010-gen/large') },
  { name: 'voc2010/det large', args: ['eval', 'voc2010/det', '--root', join(repo, 'bench-data/voc2010/large'), '--format', 'json', '--no-cache'], needs: join(repo, 'bench-data/voc2010/large') },
  { name: 'voc2010/seg medium', args: ['eval', 'voc2010/seg', '--root', f('voc2010/medium'), '--format', 'json', '--no-cache'] },
  {
    name: 'ilsvrc2015/det real demo',
    args: ['eval', 'ilsvrc2015/det', '--pred', real('demo.val.pred.det.txt'), '--meta', real('meta_det.mat'), '--gt', real('ILSVRC2015_det_validation_ground_truth.mat'), '--list', real('det_val.txt'), '--blacklist', real('ILSVRC2015_det_validation_blacklist.txt'), '--format', 'json'],
  },
  { name: 'ade20k/boundary medium', args: ['eval', 'ade20k/boundary', '--gt', f('ade20k/medium/annotations_boundary/validation'), '--pred', f('ade20k/medium/predictions_boundary/validation'), '--format', 'json'] },
];

/** The checkout a CLI build belongs to: it runs there, so that it finds its own workspace's plugins. */
function checkoutOf(bin) {
  for (let d = dirname(resolve(bin)); d !== dirname(d); d = dirname(d)) if (existsSync(join(d, 'pnpm-workspace.yaml'))) return d;
  return repo;
}

function once(bin, args) {
  const r = spawnSync('/usr/bin/time', ['-f', '%e %U %S', process.execPath, bin, ...args], { cwd: checkoutOf(bin), encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`${bin} ${args.join(' ')} failed (${r.status}): ${r.stderr.slice(-400)}`);
  const [wall, user, sys] = r.stderr.trim().split('\n').pop().split(' ').map(Number);
  return { wall, cpu: user + sys };
}
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

console.log(`before: ${before}\nafter:  ${after}\n${runs} alternating runs each, medians\n`);
console.log('| case | before wall | after wall | before CPU | after CPU | after/before (wall) |');
console.log('|---|---|---|---|---|---|');
for (const c of cases) {
  if (c.needs && !existsSync(c.needs)) {
    console.log(`| ${c.name} | skipped: ${c.needs} missing | | | | |`);
    continue;
  }
  const b = [];
  const a = [];
  for (let i = 0; i < runs; i++) {
    b.push(once(before, c.args));
    a.push(once(after, c.args));
  }
  const bw = median(b.map((x) => x.wall));
  const aw = median(a.map((x) => x.wall));
  console.log(`| ${c.name} | ${bw.toFixed(2)} s | ${aw.toFixed(2)} s | ${median(b.map((x) => x.cpu)).toFixed(2)} s | ${median(a.map((x) => x.cpu)).toFixed(2)} s | ${(aw / bw).toFixed(2)} |`);
}
