/**
 * The bootstrap's random stream: xoshiro128** seeded through splitmix32 from `--seed`, so a run
 * repeats bit for bit on every platform (32-bit integer arithmetic only). `below(n)` draws an index
 * uniformly in [0, n) by rejection (no modulo bias).
 */
export class SeededRandom {
  /** s0..s3 in a typed array: uint32 values above 2^31 kept in object fields would be boxed (an allocation per draw). */
  private readonly s = new Uint32Array(4);

  constructor(seed: number) {
    let x = seed >>> 0;
    const next = (): number => {
      x = (x + 0x9e3779b9) >>> 0;
      let z = x;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      return (z ^ (z >>> 16)) >>> 0;
    };
    for (let i = 0; i < 4; i++) this.s[i] = next();
  }

  /** The next 32-bit unsigned integer. */
  nextUint32(): number {
    const s = this.s;
    const s1 = s[1];
    const result = Math.imul(rotl(Math.imul(s1, 5), 7), 9) >>> 0;
    const t = s1 << 9;
    s[2] ^= s[0];
    s[3] ^= s1;
    s[1] = s1 ^ s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 11);
    return result;
  }

  /** A uniform integer in [0, n), n ≤ 2^32. */
  below(n: number): number {
    const limit = Math.floor(0x100000000 / n) * n;
    for (;;) {
      const r = this.nextUint32();
      if (r < limit) return r % n;
    }
  }

  /** Multiplicities of one replicate: n draws with replacement from n units, counted per unit. */
  resampleCounts(n: number, out: Uint32Array = new Uint32Array(n)): Uint32Array {
    out.fill(0);
    const limit = Math.floor(0x100000000 / n) * n;
    for (let i = 0; i < n; i++) {
      let r = this.nextUint32();
      while (r >= limit) r = this.nextUint32();
      // r % n without a floating-point remainder (r ≥ 2^31 is a double): the quotient r / n is never
      // rounded up to the next integer (its gap to it, ≥ 1/n, exceeds the rounding, ≤ 2^-52·2^32/n)
      out[r - Math.floor(r / n) * n]++;
    }
    return out;
  }
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

/** The p-quantile of sorted values, linear between order statistics (numpy's default, Hyndman–Fan 7). */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(n - 1, lo + 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

/**
 * The percentile interval [α/2, 1 − α/2] of the values (NaN values left out; null when none is left).
 */
export function percentileInterval(values: ArrayLike<number>, alpha: number): [number, number] | null {
  const kept: number[] = [];
  for (let i = 0; i < values.length; i++) if (!Number.isNaN(values[i])) kept.push(values[i]);
  if (kept.length === 0) return null;
  const sorted = Float64Array.from(kept).sort();
  return [percentile(sorted, alpha / 2), percentile(sorted, 1 - alpha / 2)];
}
