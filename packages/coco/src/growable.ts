/** An append-only typed-array column that doubles its capacity when full. */
export class GrowableF64 {
  data: Float64Array;
  length = 0;
  constructor(capacity = 64) {
    this.data = new Float64Array(capacity);
  }
  push(v: number): void {
    if (this.length === this.data.length) this.grow(this.length + 1);
    this.data[this.length++] = v;
  }
  grow(min: number): void {
    const next = new Float64Array(Math.max(min, this.data.length * 2));
    next.set(this.data.subarray(0, this.length));
    this.data = next;
  }
  view(): Float64Array {
    return this.data.subarray(0, this.length);
  }
}

export class GrowableI32 {
  data: Int32Array;
  length = 0;
  constructor(capacity = 64) {
    this.data = new Int32Array(capacity);
  }
  push(v: number): void {
    if (this.length === this.data.length) this.grow(this.length + 1);
    this.data[this.length++] = v;
  }
  grow(min: number): void {
    const next = new Int32Array(Math.max(min, this.data.length * 2));
    next.set(this.data.subarray(0, this.length));
    this.data = next;
  }
  view(): Int32Array {
    return this.data.subarray(0, this.length);
  }
}

export class GrowableU8 {
  data: Uint8Array;
  length = 0;
  constructor(capacity = 64) {
    this.data = new Uint8Array(capacity);
  }
  /** Room for `n` more entries; returns the offset of the first. */
  reserve(n: number): number {
    if (this.length + n > this.data.length) {
      const next = new Uint8Array(Math.max(this.length + n, this.data.length * 2));
      next.set(this.data.subarray(0, this.length));
      this.data = next;
    }
    const at = this.length;
    this.length += n;
    return at;
  }
  view(): Uint8Array {
    return this.data.subarray(0, this.length);
  }
}
