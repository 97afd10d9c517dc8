// Exactness at full size: every correspondPixels call of a 512x683 GT unit counted twice, by the warm-started
// `CorrespondTarget.count` (what evaluateBoundary uses) and by the cold solver of `match` (a from-scratch
// assignment on the official graph). Not a timing. Run after `pnpm build`:
//   node bench/count-vs-cold.mjs [seed ...]      (default seeds 42 7 11; ~10 s per seed)
import { evaluateBoundary } from '../dist/index.js';
import { CorrespondTarget } from '../dist/correspond/target.js';
import { H, W, lcg, makeGt, makePred } from './cases.mjs';

/** A bench unit of another seed (and another vertical shift of the prediction). */
function makeCase(seed) {
  const rand = lcg(seed);
  const gt = makeGt(rand);
  return { gt, pred: makePred(gt, rand, 0.01, seed % 3) };
}

const seeds = process.argv.length > 2 ? process.argv.slice(2).map(Number) : [42, 7, 11];
const count = CorrespondTarget.prototype.count;
let failed = false;
for (const seed of seeds) {
  const { gt, pred } = makeCase(seed);
  const calls = [];
  CorrespondTarget.prototype.count = function (pixels, n, ids) {
    const c = count.call(this, pixels, n, ids);
    // evaluateBoundary passes the near-pixel ids alone (pixels null): the cold solver gets the pixels they stand for
    const px = pixels !== null ? pixels.slice(0, n) : Int32Array.from(ids.subarray(0, n), (id) => this.nearPixelOf(id));
    calls.push([this, px, c]);
    return c;
  };
  evaluateBoundary(pred, gt, H, W);
  CorrespondTarget.prototype.count = count;
  let mismatches = 0;
  for (const [t, pixels, c] of calls) if (t.match(pixels, pixels.length).matched !== c) mismatches++;
  const stats = calls[0][0].stats();
  if (mismatches > 0) failed = true;
  console.log(`seed ${seed}: ${calls.length} calls, ${mismatches} mismatches (settled by the outlier-only check ${stats.shortcuts}, below the relaxed count ${stats.repaired}, fallbacks ${stats.fallbacks})`);
}
process.exit(failed ? 1 : 0);
