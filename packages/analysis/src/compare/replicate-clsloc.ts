import { CLSLOC_FAIL, unpackU32, unpackU8, type ClsLocPerImage } from '@cvdevkit/metrics';
import type { Replicator } from './replicate.js';

const GUESS_COUNTS = 5;

/** The replicate-wide values `eval_clsloc.m` derives from the whole file, recomputed per replicate. */
interface Shape {
  /** `n(1)`: the first line's label count (the official `for k = 1:n` visits n(1) columns of every line). */
  n1: number;
  /** `size(gt_labels, 2)`: the widest label line; zero-padded columns count in the classification error. */
  width: number;
  /** `num_guesses`: the widest prediction line (at most 5); shorter lines end in zero-label padding. */
  guesses: number;
}

/**
 * `ilsvrc2015/clsloc` on a bootstrap replicate: the official classification or localisation error for
 * 1..5 guesses of the file in which line i is repeated w[i] times consecutively. Per line, the error
 * terms c(i)/n(i) and e(i)/n(i) follow from the stored first guesses and the replicate's shape; they
 * are tabulated once per shape (in practice the original one) and summed in line order, a term repeated
 * w[i] times, as the official loop adds them. A replicate on which the official code fails (a guess
 * naming a label the image has no box of, reached through the n(1) quirk) is NaN.
 */
export function clslocReplicator(stats: ClsLocPerImage): Replicator {
  const N = stats.images;
  const W = stats.width;
  const n = unpackU32(stats.labelCount);
  const slots = unpackU8(stats.slots);
  const zero = unpackU8(stats.zeroGuess);
  const clsFirst = unpackU8(stats.clsFirst);
  const loc = stats.error === 'locError';
  const locFirst = stats.locFirst ? unpackU8(stats.locFirst) : new Uint8Array(0);
  const blacklisted = stats.blacklisted ? unpackU32(stats.blacklisted) : new Uint32Array(N);
  const beyond = stats.blacklistBeyond ?? 0;
  const terms = new Float64Array(N * GUESS_COUNTS);
  const fails = new Uint8Array(N);
  let tabulated: Shape | undefined;

  /** Every term is an integer (single-label lines): the sums are exact in any order, w·term in one step. */
  let integral = true;

  /** terms[i·5 + k−1] and fails[i] for a shape (c(i)/n(i) or e(i)/n(i) as the official code forms them). */
  function tabulate(shape: Shape): void {
    integral = true;
    for (let i = 0; i < N; i++) {
      fails[i] = 0;
      for (let k = 1; k <= GUESS_COUNTS; k++) {
        const limit = Math.min(k, shape.guesses);
        // a zero-label column (padding) is named by the first zero guess, if it lies within num_guesses
        const zeroNamed = zero[i] < shape.guesses;
        let wrong = 0;
        if (!loc) {
          for (let j = 0; j < n[i]; j++) if (clsFirst[i * W + j] >= limit) wrong++;
          if (!(zeroNamed && zero[i] < limit)) wrong += shape.width - n[i];
        } else if (blacklisted[i] === 0) {
          for (let j = 0; j < shape.n1; j++) {
            if (j < n[i]) {
              const h = locFirst[i * W + j];
              if (h === CLSLOC_FAIL) fails[i] = 1;
              if (h >= limit) wrong++;
            } else {
              // gt 0 (padding): a zero guess reaches compute_overlap with label 0, which has no box
              if (zeroNamed) fails[i] = 1;
              wrong++;
            }
          }
        }
        const v = wrong / n[i];
        terms[i * GUESS_COUNTS + k - 1] = v;
        if (!Number.isInteger(v)) integral = false;
      }
    }
    tabulated = shape;
    groupByTerms();
  }

  /**
   * Integral terms: number the distinct (term vector, label count, guess slots, blacklist count) of the
   * lines (pattern 0 = the official code fails on this line), so that a replicate adds each line's
   * multiplicity to its pattern's count and reads its shape and blacklist size from the patterns.
   */
  function groupByTerms(): void {
    patterns = [];
    patternInfo = [];
    if (!integral) return;
    const ids = new Map<string, number>();
    for (let i = 0; i < N; i++) {
      const v = terms.subarray(i * GUESS_COUNTS, (i + 1) * GUESS_COUNTS);
      const key = `${fails[i]}|${v.join(',')}|${n[i]}|${slots[i]}|${blacklisted[i]}`;
      let id = ids.get(key);
      if (id === undefined) {
        id = ids.size;
        ids.set(key, id);
        patterns.push(...v);
        patternInfo.push({ fails: fails[i] === 1, n: n[i], slots: slots[i], blacklisted: blacklisted[i] });
      }
      pattern[i] = id;
    }
    histogram = new Float64Array(ids.size);
  }

  /** The replicate's shape and blacklist size, and whether the official code fails on it, from the pattern counts. */
  function fromHistogram(w: Uint32Array): { shape: Shape; listed: number; fails: boolean } {
    const h = histogram;
    const pat = pattern;
    h.fill(0);
    let first = -1;
    for (let i = 0; i < N; i++) {
      const times = w[i];
      if (times !== 0) {
        h[pat[i]] += times;
        if (first < 0) first = i;
      }
    }
    let width = 0;
    let guesses = 0;
    let listed = beyond;
    let failing = false;
    for (let p = 0; p < h.length; p++) {
      if (h[p] === 0) continue;
      const info = patternInfo[p];
      if (info.n > width) width = info.n;
      if (info.slots > guesses) guesses = info.slots;
      listed += h[p] * info.blacklisted;
      if (info.fails) failing = true;
    }
    return { shape: { n1: n[first], width, guesses }, listed, fails: failing };
  }

  /** The replicate's shape and blacklist size, line by line. */
  function scan(w: Uint32Array): { shape: Shape; listed: number } {
    let first = -1;
    let width = 0;
    let guesses = 0;
    let listed = beyond;
    for (let i = 0; i < N; i++) {
      const times = w[i];
      if (times === 0) continue;
      if (first < 0) first = i;
      if (n[i] > width) width = n[i];
      if (slots[i] > guesses) guesses = slots[i];
      listed += times * blacklisted[i];
    }
    return { shape: { n1: n[first], width, guesses }, listed };
  }

  const pattern = new Uint32Array(N);
  let patterns: number[] = [];
  let patternInfo: { fails: boolean; n: number; slots: number; blacklisted: number }[] = [];
  let histogram = new Float64Array(0);
  const sums = new Float64Array(GUESS_COUNTS);
  const same = (a: Shape, b: Shape): boolean => a.n1 === b.n1 && a.width === b.width && a.guesses === b.guesses;
  const evaluate = (w: Uint32Array, out: Float64Array): void => {
    if (tabulated && integral) {
      const r = fromHistogram(w);
      if (same(tabulated, r.shape)) {
        // integer terms times multiplicities: exact integers, so any order of summation gives the official sums
        if (r.fails) {
          out.fill(NaN);
          return;
        }
        sums.fill(0);
        for (let p = 0; p < patternInfo.length; p++) {
          const m = histogram[p];
          if (m !== 0) for (let k = 0; k < GUESS_COUNTS; k++) sums[k] += m * patterns[p * GUESS_COUNTS + k];
        }
        const denominator = loc ? N - r.listed : N;
        for (let k = 0; k < GUESS_COUNTS; k++) out[k] = sums[k] / denominator;
        return;
      }
    }
    const { shape, listed } = scan(w);
    if (!tabulated || !same(tabulated, shape)) {
      tabulate(shape);
      if (integral) {
        evaluate(w, out);
        return;
      }
    }
    sums.fill(0);
    for (let i = 0; i < N; i++) {
      const times = w[i];
      if (times === 0) continue;
      if (fails[i]) {
        out.fill(NaN);
        return;
      }
      for (let k = 0; k < GUESS_COUNTS; k++) sums[k] = addRepeated(sums[k], terms[i * GUESS_COUNTS + k], times);
    }
    const denominator = loc ? N - listed : N;
    for (let k = 0; k < GUESS_COUNTS; k++) out[k] = sums[k] / denominator;
  };
  return { images: N, classes: stats.classes, evaluate };
}

/** s + v + v + … (times additions, as the official loop makes them): one multiply when every partial sum is an exact integer. */
function addRepeated(s: number, v: number, times: number): number {
  if (v === 0) return s;
  if (Number.isInteger(v) && Number.isInteger(s) && Math.abs(s) + times * Math.abs(v) <= Number.MAX_SAFE_INTEGER) return s + times * v;
  for (let t = 0; t < times; t++) s += v;
  return s;
}
