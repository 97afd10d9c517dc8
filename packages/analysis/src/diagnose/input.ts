/** The diagnosis input is declared in core (a task's analyze hook builds it without depending on analysis). */
export type { DiagnoseInput, DiagnoseDetections, DiagnoseObjects, DetectionMatcher, MatchView } from '@cvdevkit/core';

/** Mean of per-class values under the task's rule. */
export function meanOf(values: ArrayLike<number>, rule: 'numeric' | 'all'): number {
  let s = 0;
  let n = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (rule === 'numeric' && Number.isNaN(v)) continue;
    s += v;
    n++;
  }
  return n === 0 ? NaN : s / n;
}

/** `similar[a * C + b] = 1` when classes a and b (a ≠ b) share a group. */
export function similarityMatrix(classCount: number, groups: readonly (readonly number[])[]): Uint8Array {
  const m = new Uint8Array(classCount * classCount);
  for (const g of groups) {
    for (const a of g) for (const b of g) if (a !== b && a >= 0 && b >= 0 && a < classCount && b < classCount) m[a * classCount + b] = 1;
  }
  return m;
}
