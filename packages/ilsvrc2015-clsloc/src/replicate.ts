import { CLSLOC_FAIL, unpackU32, unpackU8, type ClsLocPerImage } from '@cvdevkit/metrics';
import type { Replicator } from '@cvdevkit/core';

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

/** The per-line statistics of the file, unpacked once. */
interface ClsLocLines {
  /** Lines (images). */
  N: number;
  /** The stride of `clsFirst` / `locFirst`. */
  W: number;
  n: Uint32Array;
  slots: Uint8Array;
  zero: Uint8Array;
  clsFirst: Uint8Array;
  /** The localisation error (with boxes), else the classification error. */
  loc: boolean;
  locFirst: Uint8Array;
  blacklisted: Uint32Array;
  /** Blacklist entries beyond the last line. */
  beyond: number;
}

function unpackLines(stats: ClsLocPerImage): ClsLocLines {
  const N = stats.images;
  return {
    N,
    W: stats.width,
    n: unpackU32(stats.labelCount),
    slots: unpackU8(stats.slots),
    zero: unpackU8(stats.zeroGuess),
    clsFirst: unpackU8(stats.clsFirst),
    loc: stats.error === 'locError',
    locFirst: stats.locFirst ? unpackU8(stats.locFirst) : new Uint8Array(0),
    blacklisted: stats.blacklisted ? unpackU32(stats.blacklisted) : new Uint32Array(N),
    beyond: stats.blacklistBeyond ?? 0,
  };
}

const sameShape = (a: Shape, b: Shape): boolean => a.n1 === b.n1 && a.width === b.width && a.guesses === b.guesses;

/**
 * The error terms of every line for the shape last tabulated, and, when they are all integers, the lines
 * grouped into patterns so that a replicate is summed per pattern.
 */
class TermTable {
  /** terms[i·5 + k−1]: c(i)/n(i) or e(i)/n(i) for k guesses, as the official code forms them. */
  readonly terms: Float64Array;
  /** fails[i]: the official code fails on line i. */
  readonly fails: Uint8Array;
  /** The shape the terms were tabulated for. */
  tabulated: Shape | undefined;
  /** Every term is an integer (single-label lines): the sums are exact in any order, w·term in one step. */
  integral = true;
  /** pattern[i]: the pattern of line i (integral terms only). */
  readonly pattern: Uint32Array;
  /** The term vectors of the patterns, 5 per pattern. */
  patterns: number[] = [];
  patternInfo: { fails: boolean; n: number; slots: number; blacklisted: number }[] = [];
  /** A replicate's multiplicity per pattern. */
  histogram = new Float64Array(0);

  constructor(private readonly lines: ClsLocLines) {
    this.terms = new Float64Array(lines.N * GUESS_COUNTS);
    this.fails = new Uint8Array(lines.N);
    this.pattern = new Uint32Array(lines.N);
  }

  /** terms[i·5 + k−1] and fails[i] for a shape (c(i)/n(i) or e(i)/n(i) as the official code forms them). */
  tabulate(shape: Shape): void {
    const { N, W, n, zero, clsFirst, loc, locFirst, blacklisted } = this.lines;
    const { terms, fails } = this;
    this.integral = true;
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
        if (!Number.isInteger(v)) this.integral = false;
      }
    }
    this.tabulated = shape;
    this.groupByTerms();
  }

  /**
   * Integral terms: number the distinct (term vector, label count, guess slots, blacklist count) of the
   * lines (pattern 0 = the official code fails on this line), so that a replicate adds each line's
   * multiplicity to its pattern's count and reads its shape and blacklist size from the patterns.
   */
  private groupByTerms(): void {
    const { N, n, slots, blacklisted } = this.lines;
    const { terms, fails, pattern } = this;
    this.patterns = [];
    this.patternInfo = [];
    if (!this.integral) return;
    const ids = new Map<string, number>();
    for (let i = 0; i < N; i++) {
      const v = terms.subarray(i * GUESS_COUNTS, (i + 1) * GUESS_COUNTS);
      const key = `${fails[i]}|${v.join(',')}|${n[i]}|${slots[i]}|${blacklisted[i]}`;
      let id = ids.get(key);
      if (id === undefined) {
        id = ids.size;
        ids.set(key, id);
        this.patterns.push(...v);
        this.patternInfo.push({ fails: fails[i] === 1, n: n[i], slots: slots[i], blacklisted: blacklisted[i] });
      }
      pattern[i] = id;
    }
    this.histogram = new Float64Array(ids.size);
  }

  /** The replicate's shape and blacklist size, and whether the official code fails on it, from the pattern counts. */
  fromHistogram(w: Uint32Array): { shape: Shape; listed: number; fails: boolean } {
    const { N, n, beyond } = this.lines;
    const h = this.histogram;
    const pat = this.pattern;
    const patternInfo = this.patternInfo;
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
}

/** The replicate's shape and blacklist size, line by line. */
function scanShape(lines: ClsLocLines, w: Uint32Array): { shape: Shape; listed: number } {
  const { N, n, slots, blacklisted, beyond } = lines;
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

/** The errors from the pattern counts (integral terms): any order of summation gives the official sums. */
function errorsFromPatterns(table: TermTable, lines: ClsLocLines, listed: number, sums: Float64Array, out: Float64Array): void {
  const { histogram, patterns, patternInfo } = table;
  sums.fill(0);
  for (let p = 0; p < patternInfo.length; p++) {
    const m = histogram[p];
    if (m !== 0) for (let k = 0; k < GUESS_COUNTS; k++) sums[k] += m * patterns[p * GUESS_COUNTS + k];
  }
  const denominator = lines.loc ? lines.N - listed : lines.N;
  for (let k = 0; k < GUESS_COUNTS; k++) out[k] = sums[k] / denominator;
}

/** The errors line by line, each term added w[i] times in line order as the official loop adds them; NaN where the official code fails. */
function errorsFromLines(table: TermTable, lines: ClsLocLines, w: Uint32Array, listed: number, sums: Float64Array, out: Float64Array): void {
  const { N, loc } = lines;
  const { terms, fails } = table;
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
  const lines = unpackLines(stats);
  const table = new TermTable(lines);
  const sums = new Float64Array(GUESS_COUNTS);
  const evaluate = (w: Uint32Array, out: Float64Array): void => {
    if (table.tabulated && table.integral) {
      const r = table.fromHistogram(w);
      if (sameShape(table.tabulated, r.shape)) {
        // integer terms times multiplicities: exact integers, so any order of summation gives the official sums
        if (r.fails) {
          out.fill(NaN);
          return;
        }
        errorsFromPatterns(table, lines, r.listed, sums, out);
        return;
      }
    }
    const { shape, listed } = scanShape(lines, w);
    if (!table.tabulated || !sameShape(table.tabulated, shape)) {
      table.tabulate(shape);
      if (table.integral) {
        evaluate(w, out);
        return;
      }
    }
    errorsFromLines(table, lines, w, listed, sums, out);
  };
  return { images: lines.N, classes: stats.classes, evaluate };
}

/** s + v + v + … (times additions, as the official loop makes them): one multiply when every partial sum is an exact integer. */
function addRepeated(s: number, v: number, times: number): number {
  if (v === 0) return s;
  if (Number.isInteger(v) && Number.isInteger(s) && Math.abs(s) + times * Math.abs(v) <= Number.MAX_SAFE_INTEGER) return s + times * v;
  for (let t = 0; t < times; t++) s += v;
  return s;
}
