import type { SummaryRule } from '@cvdevkit/core';

/** The task's summary from per-class values under its rule (the bootstrap applies it to each replicate). */
export function summarize(values: ArrayLike<number>, rule: SummaryRule): number {
  if (rule === 'last') return values.length === 0 ? NaN : values[values.length - 1];
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
