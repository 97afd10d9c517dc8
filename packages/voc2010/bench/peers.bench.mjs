// Benchmark: cvdevkit against the programs users would otherwise run (issue 29's light tasks), whole
// processes, each pair run alternately (cvdevkit, peer, cvdevkit, peer, …), medians and the ratio pair by
// pair; plus the CLI's start-up against a bare `node -e 0`. Run after `pnpm build` (it is part of
// `pnpm bench`): `node bench/peers.bench.mjs`.
//
// Pairs (a pair is skipped, with a note, when its peer is missing):
//   cls table / cls json   `eval voc2010/cls --comp comp1 --no-cache`  vs  plain numpy AP (run_voc_cls.sh)
//   det cold               `eval voc2010/det --no-cache`               vs  py-faster-rcnn voc_eval, annots.pkl deleted
//   det cached             `eval voc2010/det --cache-dir <tmp>`        vs  py-faster-rcnn voc_eval with its annots.pkl
//   seg                    `eval voc2010/seg --comp comp5 --no-cache`  vs  numpy bincount + Pillow (run_voc_seg.sh)
//   list / --version       `cvdevkit list`, `cvdevkit --version`       vs  `node -e 0` (from the repository root)
//
// Environment:
//   PEER_SCRIPTS  the folder with the peers' run scripts (run_voc_cls.sh, run_voc_det.sh, run_voc_seg.sh and
//                 their voc_*.py); without it only the start-up pairs run
//   PEERS         the peers' build folder (py-faster-rcnn's voc_eval.py in $PEERS/build/pfrcnn; its
//                 annots.pkl goes to $PEERS/pfcache); the det pairs are skipped without it
//   VOCROOT       the VOCdevkit root of the case (default: bench-data/large, made by large.bench.mjs)
//   PY            python3 with numpy, for cls and det (default python3)
//   DEBPY         python3 with numpy and Pillow, for seg (default python3; the pair is skipped without Pillow)
//   PAIRS         pairs per task (default 5)
//   ONLY          comma-separated pair names to run (e.g. `det cold,seg`)
//   BENCH_JSON    also write the results to this JSON file
// Wall-clock ratios move with the machine's load: compare only pairs of one run, and read the CPU
// (user + sys) and peak-RSS columns, from GNU time (/usr/bin/time), as the steadier figures.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const REPO = resolve(here, '../../..');
const BIN = join(REPO, 'apps/cli/bundle/bin.js');
const env = process.env;
const VOCROOT = env.VOCROOT ?? join(here, '../bench-data/large');
const PAIRS = Math.max(1, Number(env.PAIRS ?? 5) || 5);
const ONLY = env.ONLY ? new Set(env.ONLY.split(',').map((s) => s.trim())) : undefined;
const PY = env.PY ?? 'python3';
const DEBPY = env.DEBPY ?? 'python3';
const SCRIPTS = env.PEER_SCRIPTS;
const TIME = '/usr/bin/time';
const hasTime = spawnSync(TIME, ['-f', '%e', 'true'], { stdio: 'ignore' }).status === 0;
const tmp = mkdtempSync(join(tmpdir(), 'cvdevkit-peers-'));
const cacheDir = join(tmp, 'cache');
const timeFile = join(tmp, 'time');

/** One whole process: wall seconds, CPU seconds (user + sys) and peak RSS (MiB) when GNU time exists. */
function run(cmd, args, extraEnv = {}) {
  const e = { ...env, ...extraEnv };
  const t = performance.now();
  const r = hasTime
    ? spawnSync(TIME, ['-f', '%e %U %S %M', '-o', timeFile, cmd, ...args], { cwd: REPO, env: e, stdio: ['ignore', 'ignore', 'pipe'] })
    : spawnSync(cmd, args, { cwd: REPO, env: e, stdio: ['ignore', 'ignore', 'pipe'] });
  const wall = (performance.now() - t) / 1000;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${String(r.stderr).slice(-400)}`);
  if (!hasTime) return { wall, cpu: NaN, rss: NaN };
  const [, user, sys, kb] = readFileSync(timeFile, 'utf8').trim().split('\n').pop().split(' ').map(Number);
  return { wall, cpu: user + sys, rss: kb / 1024 };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

const node = (args) => ['node', [BIN, ...args]];
const voc = (task, ...rest) => node(['eval', `voc2010/${task}`, '--root', VOCROOT, ...rest, '-q']);
const script = (name) => (SCRIPTS ? join(SCRIPTS, name) : undefined);
const canImport = (py, mod) => spawnSync(py, ['-c', `import ${mod}`], { stdio: 'ignore' }).status === 0;

/** Why a pair cannot run (undefined when it can). */
function missing(needs) {
  if (!existsSync(BIN)) return `no CLI bundle at ${BIN} (run pnpm build)`;
  if (needs.includes('case') && !existsSync(join(VOCROOT, 'VOC2010'))) return `no VOC case at ${VOCROOT} (set VOCROOT, or run large.bench.mjs first)`;
  if (needs.includes('scripts') && !(SCRIPTS && existsSync(join(SCRIPTS, 'run_voc_cls.sh')))) return 'PEER_SCRIPTS is not set to the folder of the peers\' run scripts';
  if (needs.includes('pfrcnn') && !(env.PEERS && existsSync(join(env.PEERS, 'build/pfrcnn/voc_eval.py')))) return 'PEERS does not hold build/pfrcnn/voc_eval.py (py-faster-rcnn; see the peers\' setup.sh)';
  if (needs.includes('numpy') && !canImport(PY, 'numpy')) return `${PY} has no numpy (set PY)`;
  if (needs.includes('pillow') && !canImport(DEBPY, 'numpy, PIL')) return `${DEBPY} has no numpy and Pillow (set DEBPY)`;
  return undefined;
}

// The bare starts the memory is counted from.
const bare = {
  node: ['node', ['-e', '0']],
  numpy: [PY, ['-c', 'import numpy']],
  numpyDeb: [DEBPY, ['-c', 'import numpy']],
};

const PAIRS_DEF = [
  { name: 'cls table', needs: ['case', 'scripts', 'numpy'], a: voc('cls', '--comp', 'comp1', '--no-cache'), b: ['sh', [script('run_voc_cls.sh')]], bEnv: { VOCROOT }, aBare: 'node', bBare: 'numpy', peer: 'plain numpy AP' },
  { name: 'cls json', needs: ['case', 'scripts', 'numpy'], a: voc('cls', '--comp', 'comp1', '--no-cache', '--format', 'json'), b: ['sh', [script('run_voc_cls.sh')]], bEnv: { VOCROOT }, aBare: 'node', bBare: 'numpy', peer: 'plain numpy AP' },
  { name: 'det cold', needs: ['case', 'scripts', 'pfrcnn', 'numpy'], a: voc('det', '--no-cache', '--format', 'json'), b: ['sh', [script('run_voc_det.sh')]], bEnv: { VOCROOT, MODE: 'cold' }, aBare: 'node', bBare: 'numpy', peer: 'py-faster-rcnn voc_eval' },
  { name: 'det cached', needs: ['case', 'scripts', 'pfrcnn', 'numpy'], a: voc('det', '--cache-dir', cacheDir, '--format', 'json'), b: ['sh', [script('run_voc_det.sh')]], bEnv: { VOCROOT, MODE: 'cached' }, warm: true, aBare: 'node', bBare: 'numpy', peer: 'py-faster-rcnn voc_eval (annots.pkl)' },
  { name: 'seg', needs: ['case', 'scripts', 'pillow'], a: voc('seg', '--comp', 'comp5', '--no-cache', '--format', 'json'), b: ['sh', [script('run_voc_seg.sh')]], bEnv: { VOCROOT, DEBPY }, aBare: 'node', bBare: 'numpyDeb', peer: 'numpy bincount + Pillow' },
  { name: 'list', needs: [], a: node(['list']), b: bare.node, aBare: 'node', bBare: 'node', peer: 'node -e 0', target: 1.5 },
  { name: '--version', needs: [], a: node(['--version']), b: bare.node, aBare: 'node', bBare: 'node', peer: 'node -e 0', target: 1.2 },
];

const bareRss = {};
const bareOf = (k) => {
  if (!(k in bareRss)) {
    const [cmd, args] = bare[k];
    bareRss[k] = median(Array.from({ length: 3 }, () => run(cmd, args).rss));
  }
  return bareRss[k];
};

const readLoad = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const loadAtStart = existsSync('/proc/loadavg') ? readLoad() : 'unknown';
const results = [];
const f = (x, d = 3) => (Number.isFinite(x) ? x.toFixed(d) : '–');
try {
  for (const p of PAIRS_DEF) {
    if (ONLY && !ONLY.has(p.name)) continue;
    const why = missing(p.needs);
    if (why) {
      console.log(`skip ${p.name}: ${why}`);
      results.push({ pair: p.name, skipped: why });
      continue;
    }
    if (p.warm) {
      run(...p.a);
      run(p.b[0], p.b[1], p.bEnv);
    }
    const A = [];
    const B = [];
    for (let i = 0; i < PAIRS; i++) {
      A.push(run(...p.a));
      B.push(run(p.b[0], p.b[1], p.bEnv));
    }
    const ratios = A.map((a, i) => a.wall / B[i].wall);
    const cpuRatios = A.map((a, i) => a.cpu / B[i].cpu);
    const r = {
      pair: p.name,
      peer: p.peer,
      pairs: PAIRS,
      cvdevkitWall: median(A.map((x) => x.wall)),
      peerWall: median(B.map((x) => x.wall)),
      ratios,
      ratio: median(ratios),
      ratioMin: Math.min(...ratios),
      ratioMax: Math.max(...ratios),
      target: p.target ?? 0.5,
      cvdevkitCpu: median(A.map((x) => x.cpu)),
      peerCpu: median(B.map((x) => x.cpu)),
      cpuRatio: median(cpuRatios),
      cvdevkitRss: median(A.map((x) => x.rss)),
      peerRss: median(B.map((x) => x.rss)),
    };
    if (p.target === undefined) {
      r.cvdevkitAboveBare = r.cvdevkitRss - bareOf(p.aBare);
      r.peerAboveBare = r.peerRss - bareOf(p.bBare);
    }
    results.push(r);
    console.log(
      `${p.name.padEnd(10)} cvdevkit ${f(r.cvdevkitWall)} s  ${p.peer} ${f(r.peerWall)} s  ratio ${f(r.ratio, 2)} (${f(r.ratioMin, 2)}–${f(r.ratioMax, 2)}) target ≤ ${r.target}` +
        `  CPU ${f(r.cvdevkitCpu, 2)} / ${f(r.peerCpu, 2)} s = ${f(r.cpuRatio, 2)}  peak RSS ${f(r.cvdevkitRss, 0)} / ${f(r.peerRss, 0)} MiB` +
        (r.cvdevkitAboveBare !== undefined ? `, above bare start ${f(r.cvdevkitAboveBare, 0)} / ${f(r.peerAboveBare, 0)} MiB` : '') +
        `\n           pair by pair: ${ratios.map((x) => f(x, 2)).join(' ')}`,
    );
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

const load = existsSync('/proc/loadavg') ? readLoad() : 'unknown';
console.log(`\nload average ${loadAtStart} at the start, ${load} at the end; ${PAIRS} alternated pairs per task, whole processes; ratio = cvdevkit / peer (wall), median of the pairs`);
console.table(
  results.map((r) =>
    r.skipped
      ? { pair: r.pair, note: `skipped: ${r.skipped}` }
      : {
          pair: r.pair,
          'cvdevkit s': f(r.cvdevkitWall),
          'peer s': f(r.peerWall),
          ratio: `${f(r.ratio, 2)} (${f(r.ratioMin, 2)}–${f(r.ratioMax, 2)})`,
          target: `≤ ${r.target}`,
          'CPU ratio': f(r.cpuRatio, 2),
          'MiB above bare (cvdevkit / peer)': r.cvdevkitAboveBare === undefined ? '' : `${f(r.cvdevkitAboveBare, 0)} / ${f(r.peerAboveBare, 0)}`,
        },
  ),
);
if (env.BENCH_JSON) writeFileSync(env.BENCH_JSON, `${JSON.stringify({ loadAtStart, load, pairs: PAIRS, bareRssMiB: bareRss, results }, null, 2)}\n`);
