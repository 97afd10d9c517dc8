import { crc32, deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { PNG } from 'pngjs';
import { decodeGrey8Png } from './grey-png.js';

/** The decoder before the fast path (pngjs, RGBA, channel 0, tRNS restored): the reference. */
function pngjsGrey(bytes: Uint8Array): Uint8Array | Error {
  try {
    const png = PNG.sync.read(Buffer.from(bytes), { skipRescale: true }) as ReturnType<typeof PNG.sync.read> & { transColor?: number[] };
    const trans = png.transColor ? png.transColor[0] : -1;
    const out = new Uint8Array(png.width * png.height);
    for (let i = 0; i < out.length; i++) out[i] = trans >= 0 && png.data[4 * i + 3] === 0 ? trans : png.data[4 * i];
    return out;
  } catch (e) {
    return e as Error;
  }
}

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])));
  return Buffer.concat([head, data, crc]);
}

/** PNG filtering of one row (the encoder side, written from the PNG spec). */
function filterRow(filter: number, row: Uint8Array, prev: Uint8Array): Uint8Array {
  const out = new Uint8Array(row.length + 1);
  out[0] = filter;
  for (let x = 0; x < row.length; x++) {
    const a = x > 0 ? row[x - 1] : 0;
    const b = prev[x];
    const c = x > 0 ? prev[x - 1] : 0;
    let pred = 0;
    if (filter === 1) pred = a;
    else if (filter === 2) pred = b;
    else if (filter === 3) pred = (a + b) >> 1;
    else if (filter === 4) {
      const p = a + b - c;
      const pa = Math.abs(p - a);
      const pb = Math.abs(p - b);
      const pc = Math.abs(p - c);
      pred = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
    }
    out[x + 1] = (row[x] - pred) & 255;
  }
  return out;
}

interface Case {
  width: number;
  height: number;
  pixels: Uint8Array;
  filters: number[];
  idatParts: number;
  text: boolean;
  trns: number;
}

function encode(c: Case): Buffer {
  const rows: Uint8Array[] = [];
  let prev: Uint8Array = new Uint8Array(c.width);
  for (let y = 0; y < c.height; y++) {
    const row = c.pixels.subarray(y * c.width, (y + 1) * c.width);
    rows.push(filterRow(c.filters[y % c.filters.length], row, prev));
    prev = row;
  }
  const z = deflateSync(Buffer.concat(rows));
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(c.width, 0);
  ihdr.writeUInt32BE(c.height, 4);
  ihdr[8] = 8;
  const parts: Buffer[] = [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr)];
  if (c.text) parts.push(chunk('tEXt', Buffer.from('Comment\0fuzz', 'latin1')));
  if (c.trns >= 0) parts.push(chunk('tRNS', Buffer.from([0, c.trns])));
  const step = Math.ceil(z.length / c.idatParts);
  for (let o = 0; o < z.length; o += step) parts.push(chunk('IDAT', z.subarray(o, o + step)));
  parts.push(chunk('IEND', new Uint8Array(0)));
  return Buffer.concat(parts);
}

const caseArb = fc
  .record({
    width: fc.integer({ min: 1, max: 40 }),
    height: fc.integer({ min: 1, max: 12 }),
    filters: fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 6 }),
    idatParts: fc.integer({ min: 1, max: 3 }),
    text: fc.boolean(),
    trns: fc.oneof(fc.constant(-1), fc.integer({ min: 0, max: 255 })),
    seed: fc.integer(),
    sparse: fc.boolean(),
  })
  .map(({ seed, sparse, ...c }) => {
    const pixels = new Uint8Array(c.width * c.height);
    let s = seed >>> 0;
    for (let i = 0; i < pixels.length; i++) {
      s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
      pixels[i] = sparse && s % 5 !== 0 ? 0 : s >>> 24;
    }
    return { ...c, pixels };
  });

describe('decodeGrey8Png (fuzzed against pngjs)', () => {
  it('decodes every filter type, split IDATs and ancillary chunks to the same values as pngjs', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const bytes = encode(c);
        const fast = decodeGrey8Png(bytes);
        const ref = pngjsGrey(bytes);
        expect(ref).toBeInstanceOf(Uint8Array);
        expect(Array.from(ref as Uint8Array)).toEqual(Array.from(c.pixels));
        if (c.trns >= 0) expect(fast).toBeNull(); // tRNS: left to pngjs
        else expect(fast && Array.from(fast.data)).toEqual(Array.from(c.pixels));
        if (fast) expect(fast.allZero).toBe(c.pixels.every((v) => v === 0));
      }),
      { numRuns: 300 },
    );
  });

  it('says allZero exactly when every value is 0, whatever the filters (one nonzero pixel anywhere: not all zero)', () => {
    fc.assert(
      fc.property(caseArb, fc.option(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 }))), (c, one) => {
        const pixels = new Uint8Array(c.pixels.length);
        if (one) pixels[one[0] % pixels.length] = one[1];
        const fast = decodeGrey8Png(encode({ ...c, pixels, trns: -1 }));
        expect(fast).not.toBeNull();
        expect(fast!.allZero).toBe(one === null);
        expect(Array.from(fast!.data)).toEqual(Array.from(pixels));
      }),
      { numRuns: 300 },
    );
  });

  it('never accepts a damaged file that pngjs rejects, and agrees with it on every file it accepts', () => {
    fc.assert(
      fc.property(caseArb, fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })), { minLength: 1, maxLength: 3 }), fc.option(fc.nat()), (c, flips, cut) => {
        const bytes = encode({ ...c, trns: -1 });
        for (const [at, x] of flips) bytes[at % bytes.length] ^= x;
        const damaged = cut === null ? bytes : bytes.subarray(0, cut % bytes.length);
        const fast = decodeGrey8Png(damaged);
        if (fast === null) return;
        const ref = pngjsGrey(damaged);
        expect(ref).toBeInstanceOf(Uint8Array);
        expect(Array.from(fast.data)).toEqual(Array.from(ref as Uint8Array));
      }),
      { numRuns: 500 },
    );
  });

  it('leaves other colour types, depths, interlace and trailing bytes to pngjs', () => {
    const base = encode({ width: 3, height: 2, pixels: Uint8Array.from([1, 2, 3, 4, 5, 6]), filters: [0], idatParts: 1, text: false, trns: -1 });
    expect(decodeGrey8Png(base)?.data).toEqual(Uint8Array.from([1, 2, 3, 4, 5, 6]));
    expect(decodeGrey8Png(Buffer.concat([base, Buffer.from([0])]))).toBeNull();
    const badFilter = encode({ width: 3, height: 2, pixels: Uint8Array.from([1, 2, 3, 4, 5, 6]), filters: [0, 5], idatParts: 1, text: false, trns: -1 });
    expect(decodeGrey8Png(badFilter)).toBeNull();
    expect(pngjsGrey(badFilter)).toBeInstanceOf(Error);
    const p = new PNG({ width: 2, height: 2 });
    p.data = Buffer.alloc(16, 200);
    expect(decodeGrey8Png(PNG.sync.write(p, { colorType: 6 }))).toBeNull();
    expect(decodeGrey8Png(PNG.sync.write(p, { colorType: 4, inputColorType: 6 }))).toBeNull();
  });
});
