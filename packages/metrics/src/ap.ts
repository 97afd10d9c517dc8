import { defineMetric, usageError, type MetricPlugin } from '@cvdevkit/core';

/** NaN-ignoring max, as MATLAB's `max(a, b)`: `max(NaN, x) = x`. */
function nanMax(a: number, b: number): number {
  if (Number.isNaN(a)) return b;
  if (Number.isNaN(b)) return a;
  return a > b ? a : b;
}

/**
 * `VOCap.m` (VOC2010 and later): the area under the precision envelope.
 * ```
 * mrec=[0; rec; 1]; mpre=[0; prec; 0];
 * for i=numel(mpre)-1:-1:1, mpre(i)=max(mpre(i),mpre(i+1)); end
 * i=find(mrec(2:end)~=mrec(1:end-1))+1; ap=sum((mrec(i)-mrec(i-1)).*mpre(i));
 * ```
 * The sum runs left to right. Empty input gives 0; a NaN recall gives NaN.
 */
/**
 * The envelope column of `averagePrecisionArea`, kept from call to call (a task computes twenty APs one
 * after another: one column instead of twenty of fresh memory). Safe: the computation is synchronous and
 * writes every entry it reads.
 */
let envelope = new Float64Array(0);

export function averagePrecisionArea(recall: ArrayLike<number>, precision: ArrayLike<number>): number {
  const n = recall.length;
  if (precision.length !== n) throw new RangeError(`recall and precision differ in length (${n} vs ${precision.length})`);
  if (envelope.length < n + 2) envelope = new Float64Array(n + 2);
  const mpre = envelope.length === n + 2 ? envelope : envelope.subarray(0, n + 2);
  precisionEnvelope(precision, mpre);
  return areaUnderEnvelope(recall, mpre);
}

// The two loops of averagePrecisionArea, each alone in its function (compiled while it runs, it meets
// nothing new after it); `mrec` is not copied: it is 0, `recall`, 1.

/** `mpre = [0; prec; 0]` with `mpre(i) = max(mpre(i), mpre(i+1))` from the end (NaN ignored, as `nanMax`). */
function precisionEnvelope(precision: ArrayLike<number>, mpre: Float64Array): void {
  const n = precision.length;
  mpre[n + 1] = 0;
  for (let i = n; i >= 0; i--) {
    const a = i === 0 ? 0 : precision[i - 1];
    const b = mpre[i + 1];
    mpre[i] = a !== a ? b : b !== b ? a : a > b ? a : b;
  }
}

/** `sum((mrec(i) - mrec(i-1)) .* mpre(i))` over `mrec(i) ~= mrec(i-1)`, left to right, `mrec = [0; rec; 1]`. */
function areaUnderEnvelope(recall: ArrayLike<number>, mpre: Float64Array): number {
  const n = recall.length;
  let ap = 0;
  let prev = 0;
  for (let i = 0; i < n; i++) {
    const r = recall[i];
    // `~=` is true for NaN operands.
    if (r !== prev) ap += (r - prev) * mpre[i + 1];
    prev = r;
  }
  if (1 !== prev) ap += (1 - prev) * mpre[n + 1];
  return ap;
}

/**
 * VOC2007 11-point AP: `for t=0:0.1:1, p=max(prec(rec>=t)); if isempty(p), p=0; end; ap=ap+p/11; end`.
 * The thresholds are the colon range's values as GNU Octave (the reference oracle) computes them,
 * `k*0.1` for k = 1..9 (so 0.30000000000000004) and exactly 0 and 1 at the ends. `max` ignores NaN
 * (an all-NaN selection gives NaN).
 */
export function averagePrecision11(recall: ArrayLike<number>, precision: ArrayLike<number>): number {
  const n = recall.length;
  if (precision.length !== n) throw new RangeError(`recall and precision differ in length (${n} vs ${precision.length})`);
  let ap = 0;
  for (let k = 0; k <= 10; k++) {
    const t = k === 0 ? 0 : k === 10 ? 1 : k * 0.1;
    let p = NaN;
    let any = false;
    for (let i = 0; i < n; i++) {
      if (recall[i] >= t) {
        any = true;
        p = nanMax(p, precision[i]);
      }
    }
    if (!any) p = 0;
    ap = ap + p / 11;
  }
  return ap;
}

export interface RankedCurve {
  recall: ArrayLike<number>;
  precision: ArrayLike<number>;
}

export const apVoc2010: MetricPlugin<RankedCurve, number> = defineMetric({
  name: 'ap-voc2010',
  description: 'Average precision as VOCap.m (VOC2010+): area under the precision envelope, all points.',
  compute: (c: RankedCurve) => averagePrecisionArea(c.recall, c.precision),
});

export const apVoc2007: MetricPlugin<RankedCurve, number> = defineMetric({
  name: 'ap-voc2007',
  description: 'VOC2007 11-point interpolated average precision (recall thresholds 0:0.1:1).',
  compute: (c: RankedCurve) => averagePrecision11(c.recall, c.precision),
});

export const averagePrecisionMetrics: readonly MetricPlugin<RankedCurve, number>[] = [apVoc2010, apVoc2007];

/** The AP function of a metric name; a usage error for any other name. */
export function averagePrecisionByName(name: string): (recall: ArrayLike<number>, precision: ArrayLike<number>) => number {
  if (name === 'ap-voc2010') return averagePrecisionArea;
  if (name === 'ap-voc2007') return averagePrecision11;
  throw usageError(`unknown AP metric "${name}"`, 'usage/unknown-metric', 'use ap-voc2010 or ap-voc2007');
}
