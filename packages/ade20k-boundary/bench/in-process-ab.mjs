// Another build of this package against this one, in one process, image by image alternated (the order flips every
// image): each image's 150 classes through `UnitEvaluator` (GT file, PNG decodes, evaluateBoundary), CPU time per
// unit, after one warm-up round; every count of both compared bit for bit. Less exposed to a busy machine's drift than
// whole processes. Run after `pnpm build` here and in the other checkout:
//   node bench/in-process-ab.mjs <other package dir, e.g. ../../../main/packages/ade20k-boundary>   (BENCH_ROUNDS = 3)
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import { makeRealSizeCase } from './real-size-case.mjs';

const other = process.argv[2];
if (!other) {
  console.error('usage: node bench/in-process-ab.mjs <other ade20k-boundary package dir>');
  process.exit(1);
}
const A = await import(pathToFileURL(join(resolve(other), 'dist/unit.js')).href);
const B = await import('../dist/unit.js');
const { gtDir, predDir } = makeRealSizeCase(process.env.BENCH_DIR ?? join(tmpdir(), 'cvdevkit-ade20k-real-size'), 6);
const images = readdirSync(gtDir).map((f) => f.replace(/\.mat$/, '')).sort();
const classes = Array.from({ length: 150 }, (_, i) => i + 1);
const units = images.length * classes.length;
const cpu = () => {
  const c = process.cpuUsage();
  return c.user + c.system;
};
const run = (m, image) => {
  const ev = new m.UnitEvaluator();
  const c0 = cpu();
  const r = ev.evaluate({ gtDir, predDir, image, classes, seed: 12345 });
  return [cpu() - c0, r];
};
for (const im of images) {
  run(A, im);
  run(B, im);
}
let numbers = 0;
let same = 0;
for (let round = 0; round < Number(process.env.BENCH_ROUNDS ?? 3); round++) {
  let sa = 0;
  let sb = 0;
  images.forEach((im, i) => {
    const aFirst = (round + i) % 2 === 0;
    const [t1, r1] = run(aFirst ? A : B, im);
    const [t2, r2] = run(aFirst ? B : A, im);
    sa += aFirst ? t1 : t2;
    sb += aFirst ? t2 : t1;
    r1.counts.forEach((c, k) => {
      for (const key of ['cntR', 'sumR', 'cntP', 'sumP']) {
        for (let t = 0; t < c[key].length; t++) {
          numbers++;
          if (Object.is(c[key][t], r2.counts[k][key][t])) same++;
        }
      }
    });
  });
  console.log(`round ${round + 1}: other ${(sa / 1000 / units).toFixed(2)} ms per unit, this ${(sb / 1000 / units).toFixed(2)} ms, ratio this / other ${(sb / sa).toFixed(3)}`);
}
console.log(`counts: ${numbers} numbers, ${same} bit-identical`);
