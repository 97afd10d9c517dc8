// cvdevkit vs pyEdgeEval on one ADE20K boundary case, whole processes in alternated pairs (3 by default), with the
// medians and the ratio pair by pair. The peer is the set-up of ../shared/peers (run_ade_boundary.sh, built under
// $PEERS/build/pyEdgeEval); when it is missing the pair is skipped with a note. Run after `pnpm build` (the CLI bundle):
//   PEERS=<peers build dir> PEER_SCRIPTS=<folder with run_ade_boundary.sh> [DEBPY=<python3>] node bench/peers.bench.mjs [case]
// case: a folder with annotations_boundary/ and predictions_boundary/ (default: the `medium` fixture).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const caseDir = process.argv[2] ?? fileURLToPath(new URL('../../../fixtures/ade20k/medium', import.meta.url));
const pairs = Number(process.env.BENCH_PAIRS ?? 3);
const cli = fileURLToPath(new URL('../../../apps/cli/bundle/bin.js', import.meta.url));
const peerScript = process.env.PEER_SCRIPTS ? join(process.env.PEER_SCRIPTS, 'run_ade_boundary.sh') : undefined;
const peerBuilt = process.env.PEERS ? existsSync(join(process.env.PEERS, 'build', 'pyEdgeEval')) : false;

if (!existsSync(cli)) {
  console.log(`skipped: the CLI bundle ${cli} is not built (pnpm build)`);
  process.exit(0);
}
if (!peerScript || !existsSync(peerScript) || !peerBuilt) {
  console.log('skipped: pyEdgeEval peer missing (set PEERS to the peers build folder holding build/pyEdgeEval, and PEER_SCRIPTS to the folder with run_ade_boundary.sh; see ../shared/peers/README.md)');
  process.exit(0);
}

function timed(cmd, args, env) {
  const t0 = performance.now();
  execFileSync(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  return performance.now() - t0;
}
const ours = () => timed(process.execPath, [cli, 'eval', 'ade20k/boundary', '--gt', join(caseDir, 'annotations_boundary/validation'), '--pred', join(caseDir, 'predictions_boundary/validation'), '--format', 'json', '--quiet']);
const peer = () => timed('sh', [peerScript], { ADECASE: caseDir });

const a = [];
const b = [];
for (let p = 0; p < pairs; p++) {
  const load = loadavg()[0].toFixed(1);
  let x;
  let y;
  if (p % 2 === 0) {
    x = ours();
    y = peer();
  } else {
    y = peer();
    x = ours();
  }
  a.push(x);
  b.push(y);
  console.log(`pair ${p + 1} (load ${load}): cvdevkit ${(x / 1000).toFixed(2)} s, pyEdgeEval ${(y / 1000).toFixed(2)} s, ratio ${(x / y).toFixed(3)}`);
}
const median = (v) => [...v].sort((s, t) => s - t)[Math.floor(v.length / 2)];
console.log(`median: cvdevkit ${(median(a) / 1000).toFixed(2)} s, pyEdgeEval ${(median(b) / 1000).toFixed(2)} s, median pair ratio ${median(a.map((x, i) => x / b[i])).toFixed(3)} (wall, whole processes)`);
