/**
 * An exact-match index of keys that stay where they were read: byte spans of one file's bytes (the ids of
 * an image list), key → position, with no string per key. Lookups take a span of another buffer (a results
 * line), so reading a results file against a list allocates nothing per line. For valid UTF-8, equal bytes
 * are equal strings, so it answers as a `Map<string, number>` of the decoded keys does.
 *
 * Open addressing (linear probing) on a 32-bit FNV-1a hash, table at most half full.
 */
export class ByteKeyIndex {
  /** Keys in the index (a repeated key counts once: its first position). */
  size = 0;
  private readonly table: Int32Array;
  private readonly mask: number;
  private decoded: string[] | undefined;

  /**
   * Position `i` is the key `bytes[starts[i], ends[i])`; `count` positions. Nothing is indexed until
   * `add` is called for each position.
   */
  constructor(
    readonly bytes: Buffer,
    readonly starts: Int32Array,
    readonly ends: Int32Array,
    readonly count: number,
  ) {
    let cap = 16;
    while (cap < count * 2) cap *= 2;
    this.table = new Int32Array(cap);
    this.mask = cap - 1;
  }

  /** The index of `keys` (a repeated key keeps its first position), as `new Map(keys.map((k, i) => [k, i]))` with first wins. */
  static fromStrings(keys: readonly string[]): ByteKeyIndex {
    const { bytes, starts, ends } = keyBytes(keys);
    const n = keys.length;
    const index = new ByteKeyIndex(bytes, starts, ends, n);
    for (let i = 0; i < n; i++) index.add(i);
    return index;
  }

  /** Indexes position `i`; returns the position of an equal key indexed before (then `i` is not indexed), else -1. */
  add(i: number): number {
    const bytes = this.bytes;
    const a = this.starts[i];
    const b = this.ends[i];
    let slot = hashBytes(bytes, a, b) & this.mask;
    for (;;) {
      const e = this.table[slot];
      if (e === 0) {
        this.table[slot] = i + 1;
        this.size++;
        return -1;
      }
      if (this.equals(e - 1, bytes, a, b)) return e - 1;
      slot = (slot + 1) & this.mask;
    }
  }

  /** The position of the key `src[a, b)`, or -1. */
  find(src: Uint8Array, a: number, b: number): number {
    return this.findHashed(hashBytes(src, a, b), src, a, b);
  }

  /** `find` with the key's `hashBytes` already computed (the readers hash a key while they scan it). */
  findHashed(hash: number, src: Uint8Array, a: number, b: number): number {
    let slot = hash & this.mask;
    for (;;) {
      const e = this.table[slot];
      if (e === 0) return -1;
      if (this.equals(e - 1, src, a, b)) return e - 1;
      slot = (slot + 1) & this.mask;
    }
  }

  /** Whether position `i`'s key is `src[a, b)`. */
  equals(i: number, src: Uint8Array, a: number, b: number): boolean {
    const s = this.starts[i];
    const len = this.ends[i] - s;
    if (len !== b - a) return false;
    const bytes = this.bytes;
    for (let k = 0; k < len; k++) if (bytes[s + k] !== src[a + k]) return false;
    return true;
  }

  /** Position `i`'s key as a string. */
  key(i: number): string {
    return this.decoded ? this.decoded[i] : this.bytes.toString('utf8', this.starts[i], this.ends[i]);
  }

  /** Every position's key as a string, decoded once (the same array on every call). */
  keys(): string[] {
    if (!this.decoded) {
      const out = new Array<string>(this.count);
      for (let i = 0; i < this.count; i++) out[i] = this.bytes.toString('utf8', this.starts[i], this.ends[i]);
      this.decoded = out;
    }
    return this.decoded;
  }
}

/** FNV-1a's start value and prime (a reader that hashes while it scans starts from `FNV_START`). */
export const FNV_START = 0x811c9dc5;
export const FNV_PRIME = 0x01000193;

/** The last step of `hashBytes`: the high bits folded into the low ones the table uses. */
export function finishHash(h: number): number {
  return (h ^ (h >>> 16)) >>> 0;
}

/** FNV-1a over `bytes[a, b)`, 32 bits, its high half folded into the low. */
export function hashBytes(bytes: Uint8Array, a: number, b: number): number {
  let h = FNV_START;
  for (let k = a; k < b; k++) h = Math.imul(h ^ bytes[k], FNV_PRIME);
  return finishHash(h);
}

/** `keys` as UTF-8 bytes one after another (joined by `\n`), key i at `bytes[starts[i]..ends[i])`. */
export function keyBytes(keys: readonly string[]): { bytes: Buffer; starts: Int32Array; ends: Int32Array } {
  const n = keys.length;
  const starts = new Int32Array(n);
  const ends = new Int32Array(n);
  let p = 0;
  for (let i = 0; i < n; i++) {
    starts[i] = p;
    p += Buffer.byteLength(keys[i], 'utf8');
    ends[i] = p;
    p++;
  }
  return { bytes: Buffer.from(keys.join('\n'), 'utf8'), starts, ends };
}
