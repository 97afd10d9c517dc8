/**
 * One growable Uint32Array shared by the builders (encode, polygons, merge): results are copied out with
 * `slice`, so no builder allocates per run. Not re-entrant, which is fine: the builders never call each
 * other while holding it.
 */
let buffer = new Uint32Array(4096);

/** The scratch buffer with room for at least `n` values; `keep` (the current buffer) is copied over when it grows. */
export function scratchU32(n: number, keep?: Uint32Array): Uint32Array {
  if (buffer.length < n) {
    const next = new Uint32Array(Math.max(n, buffer.length * 2));
    if (keep) next.set(keep);
    buffer = next;
  }
  return buffer;
}
