/**
 * TIDE v1.0.1's per-class AP (`APDataObject.get_ap`) and mAP (`ClassedAPDataObject.get_mAP`), on points
 * already in TIDE's order (descending score, ties in insertion order).
 */

/** Recall thresholds `x / 100`, x = 0..100 (Python division, not linspace). */
const RECALL_THRESHOLDS = Float64Array.from({ length: 101 }, (_, x) => x / 100);

/**
 * 101-point interpolated AP in percent: precision made non-increasing from the right, then for each
 * recall threshold the precision at the first point whose recall reaches it (`searchsorted` left),
 * 0 past the last point; `sum / 101 * 100`. npos = 0 gives 0.
 */
export function tideAp(correct: ArrayLike<number>, n: number, npos: number, prec: Float64Array, rec: Float64Array): number {
  if (npos === 0) return 0;
  let t = 0;
  let f = 0;
  for (let i = 0; i < n; i++) {
    if (correct[i]) t++;
    else f++;
    prec[i] = t / (t + f);
    rec[i] = t / npos;
  }
  for (let i = n - 1; i > 0; i--) if (prec[i] > prec[i - 1]) prec[i - 1] = prec[i];
  let sum = 0;
  let j = 0;
  for (let x = 0; x <= 100; x++) {
    const thr = RECALL_THRESHOLDS[x];
    while (j < n && rec[j] < thr) j++;
    if (j < n) sum += prec[j];
  }
  return (sum / 101) * 100;
}

/**
 * Per-class points of one AP data object: each class's points in TIDE's sorted order, its positive
 * count, and whether it was touched at all (TIDE's defaultdict) in first-touch order.
 */
export class TideApData {
  /** Classes in first-touch order. */
  readonly order: number[] = [];
  readonly touched: Uint8Array;
  readonly npos: Float64Array;
  readonly count: Int32Array;

  constructor(classCount: number) {
    this.touched = new Uint8Array(classCount);
    this.npos = new Float64Array(classCount);
    this.count = new Int32Array(classCount);
  }

  touch(c: number): void {
    if (!this.touched[c]) {
      this.touched[c] = 1;
      this.order.push(c);
    }
  }
}

/**
 * mAP over the non-empty classes (points or positives) in first-touch order, from per-class correct
 * flags already in sorted order (`flags[c]`, `count[c]` of them).
 */
export function tideMap(data: TideApData, flags: Uint8Array[], perClass?: Float64Array): number {
  let sum = 0;
  let n = 0;
  let longest = 1;
  for (const c of data.order) longest = Math.max(longest, data.count[c]);
  const prec = new Float64Array(longest);
  const rec = new Float64Array(longest);
  for (const c of data.order) {
    if (data.count[c] === 0 && data.npos[c] === 0) {
      if (perClass) perClass[c] = NaN;
      continue;
    }
    const ap = tideAp(flags[c], data.count[c], data.npos[c], prec, rec);
    if (perClass) perClass[c] = ap;
    sum += ap;
    n++;
  }
  return sum / n;
}
