import { readdirSync, readFileSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync, inflateSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import pngjs from 'pngjs';
import { isDevkitError } from '@cvdevkit/core';
import { ReusableLabelBuffer, decodeLabelPng, encodeIndexedPng, readLabelPng, readLabelPngSync, writeIndexedPng } from './png.js';
import { vocColormap } from './colormap.js';

const FIXTURES = new URL('../../../fixtures/voc2010/', import.meta.url).pathname;
const tmp = mkdtempSync(join(tmpdir(), 'cvdevkit-png-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Independent reference for the fixture PNGs (generator writes one IDAT, filter type 0 on every row). */
function referenceDecode(bytes: Buffer): { width: number; height: number; colorType: number; values: number[] } {
  let pos = 8;
  let width = 0;
  let height = 0;
  let colorType = -1;
  const idat: Buffer[] = [];
  while (pos < bytes.length) {
    const len = bytes.readUInt32BE(pos);
    const type = bytes.toString('latin1', pos + 4, pos + 8);
    const body = bytes.subarray(pos + 8, pos + 8 + len);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      colorType = body[9];
    }
    if (type === 'IDAT') idat.push(body);
    pos += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const values: number[] = [];
  for (let y = 0; y < height; y++) {
    expect(raw[y * (width + 1)]).toBe(0);
    for (let x = 0; x < width; x++) values.push(raw[y * (width + 1) + 1 + x]);
  }
  return { width, height, colorType, values };
}

function errorOf(f: () => unknown): { code: string; file?: string; kind: string; message: string } {
  try {
    f();
  } catch (e) {
    if (isDevkitError(e)) return e;
    throw e;
  }
  throw new Error('expected a DevkitError');
}

describe('decodeLabelPng on the VOC fixtures', () => {
  const files: string[] = [];
  for (const c of ['edge', 'errors_a', 'errors_b']) {
    for (const dir of [`${c}/VOC2010/SegmentationClass`, `${c}/results/VOC2010/Segmentation/comp5_val_cls`]) {
      for (const f of readdirSync(join(FIXTURES, dir))) files.push(join(FIXTURES, dir, f));
    }
  }
  it.each(files.map((f) => [f.slice(FIXTURES.length), f]))('%s gives the stored indices', (_name, file) => {
    const bytes = readFileSync(file);
    const ref = referenceDecode(bytes);
    const im = decodeLabelPng(bytes, file);
    expect(im.width).toBe(ref.width);
    expect(im.height).toBe(ref.height);
    expect(im.kind).toBe(ref.colorType === 3 ? 'palette' : 'grey');
    expect(Array.from(im.data)).toEqual(ref.values);
  });
  it('reads the greyscale result of 2010_000303 as grey values', () => {
    const im = readLabelPngSync(join(FIXTURES, 'edge/results/VOC2010/Segmentation/comp5_val_cls/2010_000303.png'));
    expect(im.kind).toBe('grey');
    expect(im.bitDepth).toBe(8);
    expect(im.palette).toBeUndefined();
  });
  it('gives a palette for palette images', async () => {
    const im = await readLabelPng(join(FIXTURES, 'edge/VOC2010/SegmentationClass/2010_000301.png'));
    expect(im.kind).toBe('palette');
    expect(im.palette?.subarray(0, 6)).toEqual(vocColormap(2));
  });
});

describe('encodeIndexedPng', () => {
  it('round-trips random label images through the reader (indices, not colours)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 40 }), fc.integer({ min: 0, max: 2 ** 31 }), (w, h, seed) => {
        let s = seed;
        const data = new Uint8Array(w * h);
        for (let i = 0; i < data.length; i++) {
          s = (s * 1103515245 + 12345) >>> 0;
          data[i] = (s >>> 16) % 4 === 0 ? 255 : (s >>> 8) % 21;
        }
        const im = decodeLabelPng(encodeIndexedPng({ width: w, height: h, data }));
        expect(im.kind).toBe('palette');
        expect(im.width).toBe(w);
        expect(im.height).toBe(h);
        expect(Array.from(im.data)).toEqual(Array.from(data));
      }),
      { numRuns: 60 },
    );
  });
  it('writes a palette PNG that pngjs renders in VOC colours', () => {
    const bytes = encodeIndexedPng({ width: 3, height: 1, data: [0, 15, 255] });
    const rgba = pngjs.PNG.sync.read(bytes);
    expect(Array.from(rgba.data)).toEqual([0, 0, 0, 255, 192, 128, 128, 255, 224, 224, 192, 255]);
  });
  it('keeps aliasing palettes apart (two entries with one colour)', () => {
    const palette = new Uint8Array([9, 9, 9, 9, 9, 9, 1, 2, 3]);
    const im = decodeLabelPng(encodeIndexedPng({ width: 3, height: 1, data: [1, 0, 2] }, { palette }));
    expect(Array.from(im.data)).toEqual([1, 0, 2]);
    expect(im.palette).toEqual(palette);
  });
  it('rejects bad input with a DevkitError', () => {
    expect(errorOf(() => encodeIndexedPng({ width: 2, height: 1, data: [0, 256] })).code).toBe('input/label-range');
    expect(errorOf(() => encodeIndexedPng({ width: 2, height: 1, data: [0, 1.5] })).message).toContain('pixel 2,1');
    expect(errorOf(() => encodeIndexedPng({ width: 2, height: 2, data: [0] })).code).toBe('input/image-size');
    expect(errorOf(() => encodeIndexedPng({ width: 1, height: 1, data: [3] }, { palette: new Uint8Array(6) })).code).toBe('input/label-range');
  });
  it('honours a fixed filter type and plain-array input', () => {
    const data = [1, 2, 3, 1, 2, 3, 1, 2, 3, 4, 5, 6];
    for (const filterType of [0, 1, 2, 3, 4]) {
      expect(Array.from(decodeLabelPng(encodeIndexedPng({ width: 3, height: 4, data }, { filterType })).data)).toEqual(data);
    }
  });
  it('writes files', async () => {
    const file = join(tmp, 'w.png');
    await writeIndexedPng(file, { width: 2, height: 2, data: [1, 2, 3, 4] });
    expect(Array.from(readLabelPngSync(file).data)).toEqual([1, 2, 3, 4]);
  });
});

describe('decodeLabelPng on other PNG kinds', () => {
  function pngFile(ihdr: { w: number; h: number; depth: number; colorType: number; interlace?: number }, rows: Buffer, extra: Buffer[] = []): Buffer {
    const chunk = (type: string, data: Buffer) => {
      const out = Buffer.alloc(12 + data.length);
      out.writeUInt32BE(data.length, 0);
      out.write(type, 4, 'latin1');
      data.copy(out, 8);
      // CRC via pngjs's encoder is not exposed; compute the standard CRC-32 here
      let c = -1;
      for (const b of out.subarray(4, 8 + data.length)) {
        c ^= b;
        for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
      }
      out.writeInt32BE((c ^ -1) | 0, 8 + data.length);
      return out;
    };
    const h = Buffer.alloc(13);
    h.writeUInt32BE(ihdr.w, 0);
    h.writeUInt32BE(ihdr.h, 4);
    h[8] = ihdr.depth;
    h[9] = ihdr.colorType;
    h[12] = ihdr.interlace ?? 0;
    return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', h), ...extra.map((e) => chunk('PLTE', e)), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
  }
  it('4-bit palette: raw indices', () => {
    const bytes = pngFile({ w: 3, h: 1, depth: 4, colorType: 3 }, Buffer.from([0, 0x1f, 0x20]), [Buffer.from(vocColormap(16))]);
    expect(Array.from(decodeLabelPng(bytes).data)).toEqual([1, 15, 2]);
  });
  it('16-bit grey: unscaled values in a Uint16Array', () => {
    const im = decodeLabelPng(pngFile({ w: 2, h: 1, depth: 16, colorType: 0 }, Buffer.from([0, 0, 20, 0x01, 0x2c])));
    expect(im.data).toBeInstanceOf(Uint16Array);
    expect(Array.from(im.data)).toEqual([20, 300]);
  });
  it('grey + alpha: the grey values', () => {
    const im = decodeLabelPng(pngFile({ w: 2, h: 1, depth: 8, colorType: 4 }, Buffer.from([0, 7, 255, 9, 0])));
    expect(Array.from(im.data)).toEqual([7, 9]);
  });
  it('Sub/Up/Paeth filtered rows are unfiltered', () => {
    // row 0 Sub: 5, +1, +1 -> 5,6,7 ; row 1 Up: +1 each -> 6,7,8 ; row 2 Paeth: deltas 0 -> predictor
    const rows = Buffer.from([1, 5, 1, 1, 2, 1, 1, 1, 4, 0, 0, 0]);
    const im = decodeLabelPng(pngFile({ w: 3, h: 3, depth: 8, colorType: 0 }, rows));
    expect(Array.from(im.data)).toEqual([5, 6, 7, 6, 7, 8, 6, 7, 8]);
  });
  it.each([0, 1, 2, 3, 4])('filter type %i written by pngjs decodes to the same values as pngjs reads', (filterType) => {
    const reuse = new ReusableLabelBuffer();
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 1, max: 30 }), fc.integer({ min: 0, max: 2 ** 31 }), (w, h, seed) => {
        let s = seed;
        const data = Buffer.alloc(w * h);
        for (let i = 0; i < data.length; i++) {
          s = (s * 1103515245 + 12345) >>> 0;
          data[i] = (s >>> 24) & 1 ? data[i - 1] ?? 0 : (s >>> 8) & 255;
        }
        const bytes = pngjs.PNG.sync.write({ width: w, height: h, data, gamma: 0 } as unknown as InstanceType<typeof pngjs.PNG>, {
          colorType: 0, inputColorType: 0, bitDepth: 8, inputHasAlpha: false, filterType,
        });
        const ref = pngjs.PNG.sync.read(bytes).data.filter((_, i) => i % 4 === 0);
        expect(Array.from(decodeLabelPng(bytes).data)).toEqual(Array.from(ref));
        expect(Array.from(ref)).toEqual(Array.from(data));
        // inflated into reused storage and un-filtered in place: the same values, image after image
        expect(Array.from(decodeLabelPng(bytes, undefined, { reuse }).data)).toEqual(Array.from(ref));
      }),
      { numRuns: 25 },
    );
  });
  it("a storage's own unfilter is used when it says it did the work, and the decoder's when it declines", () => {
    const rows = Buffer.from([1, 5, 1, 1, 2, 1, 1, 1, 4, 0, 0, 0]);
    const png = pngFile({ w: 3, h: 3, depth: 8, colorType: 0 }, rows);
    const calls: number[][] = [];
    const inner = new ReusableLabelBuffer();
    const declines = { take: (n: number) => inner.take(n), unfilter: (_: Uint8Array, w: number, h: number) => (calls.push([w, h]), false) };
    expect(Array.from(decodeLabelPng(png, undefined, { reuse: declines }).data)).toEqual([5, 6, 7, 6, 7, 8, 6, 7, 8]);
    expect(calls).toEqual([[3, 3]]);
    // one that claims the work: its pixels (here all 9s) are the image's, the decoder's loop does not run
    const does = { take: (n: number) => inner.take(n), unfilter: (raw: Uint8Array, w: number, h: number) => (raw.fill(9, 0, w * h), true) };
    expect(Array.from(decodeLabelPng(png, undefined, { reuse: does }).data)).toEqual([9, 9, 9, 9, 9, 9, 9, 9, 9]);
  });
  it('interlaced images are de-interlaced', () => {
    const data = Array.from({ length: 9 * 9 }, (_, i) => i % 21);
    const enc = encodeIndexedPng({ width: 9, height: 9, data });
    // Re-encode as Adam7 through pngjs's bitmapper path: build passes by hand
    const passes = [
      [0, 0, 8, 8], [4, 0, 8, 8], [0, 4, 4, 8], [2, 0, 4, 4], [0, 2, 2, 4], [1, 0, 2, 2], [0, 1, 1, 2],
    ];
    const parts: number[] = [];
    for (const [x0, y0, dx, dy] of passes) {
      for (let y = y0; y < 9; y += dy) {
        const row: number[] = [];
        for (let x = x0; x < 9; x += dx) row.push(data[y * 9 + x]);
        if (row.length > 0) parts.push(0, ...row);
      }
    }
    const inter = pngFile({ w: 9, h: 9, depth: 8, colorType: 3, interlace: 1 }, Buffer.from(parts), [Buffer.from(vocColormap(256))]);
    expect(Array.from(decodeLabelPng(inter).data)).toEqual(Array.from(decodeLabelPng(enc).data));
  });
  it('RGB PNGs are not label images', () => {
    const e = errorOf(() => decodeLabelPng(pngFile({ w: 1, h: 1, depth: 8, colorType: 2 }, Buffer.from([0, 1, 2, 3])), 'x.png'));
    expect(e.code).toBe('input/png-color-type');
    expect(e.kind).toBe('input');
    expect(e.message).toContain('x.png');
  });
  it('damaged files are input errors naming the file', () => {
    const good = encodeIndexedPng({ width: 4, height: 4, data: new Array(16).fill(1) });
    expect(errorOf(() => decodeLabelPng(Buffer.from('hello'), 'a.png')).code).toBe('input/png-signature');
    expect(errorOf(() => decodeLabelPng(good.subarray(0, good.length - 20), 'b.png')).message).toContain('b.png');
    const bad = Buffer.from(good);
    bad[40] ^= 0xff;
    expect(errorOf(() => decodeLabelPng(bad, 'c.png')).kind).toBe('input');
    expect(errorOf(() => readLabelPngSync(join(tmp, 'missing.png'))).code).toBe('input/missing-file');
    writeFileSync(join(tmp, 'empty.png'), '');
    expect(errorOf(() => readLabelPngSync(join(tmp, 'empty.png'))).message).toContain('empty');
  });
});
