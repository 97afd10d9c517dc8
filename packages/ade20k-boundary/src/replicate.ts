import type { Replicator } from '@cvdevkit/core';
import { unpackF64, unpackU32, type BoundaryPerImage } from '@cvdevkit/metrics';
import { collectBoundaryScores, odsMaxF, type BoundaryCounts } from '@cvdevkit/boundary';

/**
 * The replicator of boundary per-image statistics: per class, the per-threshold counts summed with every
 * image counted `w[i]` times, then collect_eval_bdry.m's F-ODS.
 */
export function boundaryReplicator(stats: BoundaryPerImage): Replicator {
  const nt = stats.thresholds.length;
  const thresholds = Float64Array.from(stats.thresholds);
  const entryImage = unpackU32(stats.entryImage);
  const entryClass = unpackU32(stats.entryClass);
  const counts = unpackF64(stats.counts);
  // Per class: its entries (offset into counts) in image order; images without an entry count zero.
  const byClass: number[][] = stats.classes.map(() => []);
  const order = Array.from(entryImage.keys()).sort((x, y) => entryImage[x] - entryImage[y] || x - y);
  for (const e of order) byClass[entryClass[e]].push(e);
  // A class without ground truth in any image has recall 0 at every threshold of every replicate, so
  // F = 2·p·0/(p + 0 + …) = +0 everywhere and its F-ODS is +0.
  const hasGt = byClass.map((list) => list.some((e) => counts.subarray(e * 4 * nt + nt, e * 4 * nt + 2 * nt).some((v) => v !== 0)));
  // Pixel counts are integers: a sum repeated w times is w·count exactly (else fall back to the plain loop).
  let integral = true;
  for (let i = 0; i < counts.length && integral; i++) integral = Number.isInteger(counts[i]) && counts[i] >= 0 && counts[i] < 2 ** 40;
  const sums = new Float64Array(4 * nt);
  const R = new Float64Array(nt);
  const P = new Float64Array(nt);
  const ratio = (cnt: number, sum: number): number => cnt / (sum + (sum === 0 ? 1 : 0));
  const slow = (k: number, w: Uint32Array): number => {
    const zeroArray = new Float64Array(nt);
    const list: BoundaryCounts[] = [];
    const at = new Map(byClass[k].map((e) => [entryImage[e], e]));
    for (let i = 0; i < stats.images; i++) {
      const e = at.get(i);
      const o = e === undefined ? -1 : e * 4 * nt;
      const c: BoundaryCounts =
        o < 0
          ? { cntR: zeroArray, sumR: zeroArray, cntP: zeroArray, sumP: zeroArray }
          : { cntR: counts.subarray(o, o + nt), sumR: counts.subarray(o + nt, o + 2 * nt), cntP: counts.subarray(o + 2 * nt, o + 3 * nt), sumP: counts.subarray(o + 3 * nt, o + 4 * nt) };
      for (let t = 0; t < w[i]; t++) list.push(c);
    }
    return collectBoundaryScores(list, thresholds).odsF;
  };
  return {
    images: stats.images,
    classes: stats.classes,
    evaluate(w, out) {
      for (let k = 0; k < byClass.length; k++) {
        if (!hasGt[k]) {
          out[k] = 0;
          continue;
        }
        if (!integral) {
          out[k] = slow(k, w);
          continue;
        }
        // collect_eval_bdry.m's ODS on the replicate: summed counts, R and P per threshold, maxF
        sums.fill(0);
        for (const e of byClass[k]) {
          const m = w[entryImage[e]];
          if (m === 0) continue;
          const o = e * 4 * nt;
          for (let j = 0; j < 4 * nt; j++) sums[j] += m * counts[o + j];
        }
        for (let t = 0; t < nt; t++) {
          R[t] = ratio(sums[t], sums[nt + t]);
          P[t] = ratio(sums[2 * nt + t], sums[3 * nt + t]);
        }
        out[k] = nt > 0 ? odsMaxF(R, P) : NaN;
      }
    },
  };
}
