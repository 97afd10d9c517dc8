import { usageError, type PerImageStatistics, type Replicator } from '@cvdevkit/core';
import { SeededRandom } from '../stats/bootstrap.js';
import { averageRanks } from '../stats/ranks.js';
import { summarize } from './replicate.js';

/** The raw draws of a paired bootstrap over images: every method scored on the same replicates. */
export interface BootstrapDraws {
  replicates: number;
  seed: number;
  /** summary[b * k + j] */
  summary: Float64Array;
  /** perClass[(b * k + j) * C + c] */
  perClass: Float64Array;
  /** rank[b * k + j]: method j's rank by summary in replicate b (1 = best, ties averaged; NaN summaries rank last). */
  rank: Float64Array;
  k: number;
  classes: number;
}

/** One method's input to the bootstrap: its per-image statistics and the replicator its task made of them. */
export interface BootstrapSubject {
  stats: PerImageStatistics;
  replicator: Replicator;
}

/**
 * B replicates: each draws n images with replacement (seeded xoshiro128**, `SeededRandom`), and every
 * method's per-class metric and summary are recomputed by its task's replicator on the same draw.
 */
export function pairedBootstrap(subjects: readonly BootstrapSubject[], replicates: number, seed: number, higherIsBetter: boolean): BootstrapDraws {
  const reps = subjects.map((s) => s.replicator);
  const stats = subjects.map((s) => s.stats);
  const n = reps[0].images;
  if (reps.some((r) => r.images !== n)) throw usageError('the reports were evaluated on different numbers of images', 'usage/images-differ');
  const k = reps.length;
  const c = reps[0].classes.length;
  const random = new SeededRandom(seed);
  const summary = new Float64Array(replicates * k);
  const perClass = new Float64Array(replicates * k * c);
  const rank = new Float64Array(replicates * k);
  const w = new Uint32Array(n);
  const values = new Float64Array(c);
  const rowSummaries = new Float64Array(k);
  for (let b = 0; b < replicates; b++) {
    random.resampleCounts(n, w);
    for (let j = 0; j < k; j++) {
      const own = reps[j].evaluate(w, values);
      perClass.set(values, (b * k + j) * c);
      // the task's own summary when its replicator gives one, else its rule over the per-class values
      const s = typeof own === 'number' ? own : summarize(values, stats[j].summary);
      summary[b * k + j] = s;
      rowSummaries[j] = Number.isNaN(s) ? (higherIsBetter ? -Infinity : Infinity) : s;
    }
    rank.set(averageRanks(rowSummaries, higherIsBetter), b * k);
  }
  return { replicates, seed, summary, perClass, rank, k, classes: c };
}
