import {
  BLOCK_START,
  OUTCOME_FP,
  OUTCOME_TP,
  averagePrecisionByName,
  iouFromConfusion,
  unpackF64,
  unpackU32,
  unpackU8,
  type BoundaryPerImage,
  type ConfusionPerImage,
  type PerImageStats,
  type RankedPerImage,
} from '@cvdevkit/metrics';
import { collectBoundaryScores, type BoundaryCounts } from '@cvdevkit/boundary';

/**
 * Recomputes a task's official per-class metric on a bootstrap replicate, given the multiplicity
 * `w[i]` of every test image, from the per-image statistics alone: the replicate equals the official
 * metric run on a test set in which image i is listed `w[i]` times consecutively (analysis.md §2).
 * Nothing is re-matched or re-sorted; the ranked tasks replay their stored ranking.
 */
export interface Replicator {
  images: number;
  classes: string[];
  /** Fills `out[c]` with class c's metric on the replicate. */
  evaluate(w: Uint32Array, out: Float64Array): void;
}

export function createReplicator(stats: PerImageStats): Replicator {
  if (stats.kind === 'ranked') return rankedReplicator(stats);
  if (stats.kind === 'confusion') return confusionReplicator(stats);
  if (stats.kind === 'boundary') return boundaryReplicator(stats);
  throw new RangeError(`unknown per-image statistics kind "${(stats as { kind: string }).kind}"`);
}

interface RankedClass {
  image: Uint32Array;
  flags: Uint8Array;
  /** Start of each block, plus the end. */
  blockStart: Uint32Array;
  posImage: Uint32Array;
  posCount: Uint32Array;
}

function rankedReplicator(stats: RankedPerImage): Replicator {
  const ap = averagePrecisionByName(stats.ap);
  const classes: RankedClass[] = stats.classes.map((c) => {
    const image = unpackU32(c.image);
    const flags = unpackU8(c.flags);
    const starts: number[] = [];
    for (let i = 0; i < flags.length; i++) if (flags[i] & BLOCK_START) starts.push(i);
    starts.push(flags.length);
    return { image, flags, blockStart: Uint32Array.from(starts), posImage: unpackU32(c.posImage), posCount: unpackU32(c.posCount) };
  });
  let recall = new Float64Array(1024);
  let precision = new Float64Array(1024);
  return {
    images: stats.images,
    classes: stats.classes.map((c) => c.key),
    evaluate(w, out) {
      classes.forEach((c, k) => {
        let npos = 0;
        for (let j = 0; j < c.posImage.length; j++) npos += c.posCount[j] * w[c.posImage[j]];
        let len = 0;
        const nb = c.blockStart.length - 1;
        for (let b = 0; b < nb; b++) len += (c.blockStart[b + 1] - c.blockStart[b]) * w[c.image[c.blockStart[b]]];
        if (recall.length < len) {
          recall = new Float64Array(len * 2);
          precision = new Float64Array(len * 2);
        }
        // The official `cumsum` form (metrics precisionRecall), each block repeated w[image] times.
        let ctp = 0;
        let cfp = 0;
        let r = 0;
        for (let b = 0; b < nb; b++) {
          const s = c.blockStart[b];
          const e = c.blockStart[b + 1];
          const times = w[c.image[s]];
          for (let t = 0; t < times; t++) {
            for (let i = s; i < e; i++) {
              const o = c.flags[i] & 3;
              if (o === OUTCOME_TP) ctp++;
              else if (o === OUTCOME_FP) cfp++;
              recall[r] = ctp / npos;
              precision[r] = ctp / (cfp + ctp);
              r++;
            }
          }
        }
        out[k] = ap(recall.subarray(0, len), precision.subarray(0, len));
      });
    },
  };
}

function confusionReplicator(stats: ConfusionPerImage): Replicator {
  const offsets = unpackU32(stats.offsets);
  const cells = unpackU32(stats.cells);
  const counts = unpackF64(stats.counts);
  const l = stats.labels.length;
  const matrix = new Float64Array(l * l);
  return {
    images: stats.images,
    classes: stats.labels,
    evaluate(w, out) {
      matrix.fill(0);
      for (let i = 0; i < stats.images; i++) {
        const m = w[i];
        if (m === 0) continue;
        for (let j = offsets[i]; j < offsets[i + 1]; j++) matrix[cells[j]] += m * counts[j];
      }
      out.set(iouFromConfusion(matrix, l));
    },
  };
}

function boundaryReplicator(stats: BoundaryPerImage): Replicator {
  const nt = stats.thresholds.length;
  const thresholds = Float64Array.from(stats.thresholds);
  const entryImage = unpackU32(stats.entryImage);
  const entryClass = unpackU32(stats.entryClass);
  const counts = unpackF64(stats.counts);
  const zeroArray = new Float64Array(nt);
  const zero: BoundaryCounts = { cntR: zeroArray, sumR: zeroArray, cntP: zeroArray, sumP: zeroArray };
  // Per class: image → its counts (images without an entry have all-zero counts).
  const byClass = stats.classes.map(() => new Map<number, BoundaryCounts>());
  for (let e = 0; e < entryImage.length; e++) {
    const o = e * 4 * nt;
    byClass[entryClass[e]].set(entryImage[e], {
      cntR: counts.subarray(o, o + nt),
      sumR: counts.subarray(o + nt, o + 2 * nt),
      cntP: counts.subarray(o + 2 * nt, o + 3 * nt),
      sumP: counts.subarray(o + 3 * nt, o + 4 * nt),
    });
  }
  return {
    images: stats.images,
    classes: stats.classes,
    evaluate(w, out) {
      byClass.forEach((m, k) => {
        // collect_eval_bdry.m over the replicate's images in order, repeated images consecutive.
        const list: BoundaryCounts[] = [];
        for (let i = 0; i < stats.images; i++) {
          const c = m.get(i) ?? zero;
          for (let t = 0; t < w[i]; t++) list.push(c);
        }
        out[k] = collectBoundaryScores(list, thresholds).odsF;
      });
    },
  };
}

/** The task's summary from per-class values. */
export function summarize(values: ArrayLike<number>, rule: PerImageStats['summary']): number {
  let s = 0;
  let n = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (Number.isNaN(v)) {
      if (rule === 'mean') return NaN;
      continue;
    }
    s += v;
    n++;
  }
  return n === 0 ? NaN : s / n;
}
