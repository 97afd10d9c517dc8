/**
 * Bootstrap-style image multiplicities for tests of a task's replicator: n draws with replacement from n
 * images (a small linear congruential generator; any weights do, the tests compare the replicator with the
 * official metric run on the materialised replicate).
 */
export function testResampleCounts(n: number, seed: number): Uint32Array {
  const out = new Uint32Array(n);
  let state = (seed * 2654435761 + 1) >>> 0;
  for (let i = 0; i < n; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    out[Math.floor((state / 0x100000000) * n)]++;
  }
  return out;
}

/** A stream of `testResampleCounts` draws (each call a new seed). */
export function testRandom(seed: number): { resampleCounts(n: number): Uint32Array; below(n: number): number } {
  let calls = 0;
  let state = (seed * 2246822519 + 7) >>> 0;
  return {
    resampleCounts: (n) => testResampleCounts(n, seed * 7919 + calls++),
    /** An integer in 0 .. n-1. */
    below(n) {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      return Math.floor((state / 0x100000000) * n);
    },
  };
}
