import { describe, expect, it } from 'vitest';
import { PNG } from 'pngjs';
import fc from 'fast-check';
import { decodePrediction, parsePngHeader } from './prediction.js';
import { greyPng } from './sample.js';

function png(width: number, height: number, rgba: number[], opts: { colorType: 0 | 2 | 4 | 6; bitDepth?: 8 | 16; inputColorType?: 0 | 2 | 4 | 6 }): Buffer {
  const p = new PNG({ width, height });
  p.data = Buffer.from(rgba);
  return PNG.sync.write(p, { colorType: opts.colorType, bitDepth: opts.bitDepth ?? 8, inputColorType: opts.inputColorType ?? 6, inputHasAlpha: true });
}

/** Builds a PNG by hand from IHDR fields and raw scanlines (filter 0), plus extra chunks before IDAT. */
async function rawPng(width: number, height: number, depth: number, colorType: number, scanlines: number[][], extra: { type: string; data: number[] }[] = []): Promise<Buffer> {
  const { deflateSync } = await import('node:zlib');
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (b: Buffer) => {
    let c = 0xffffffff;
    for (const x of b) c = crcTable[(c ^ x) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const c = Buffer.alloc(4);
    c.writeUInt32BE(crc(td));
    return Buffer.concat([len, td, c]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = depth;
  ihdr[9] = colorType;
  const raw = Buffer.concat(scanlines.map((l) => Buffer.from([0, ...l])));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    ...extra.map((e) => chunk(e.type, Buffer.from(e.data))),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('decodePrediction', () => {
  it('returns the grey values of an 8-bit greyscale PNG, row-major', () => {
    const values = Uint8Array.from([0, 1, 2, 51, 102, 255]);
    const r = decodePrediction(greyPng(values, 2, 3), 'a.png');
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.map.height).toBe(2);
      expect(r.map.width).toBe(3);
      expect(Array.from(r.map.data)).toEqual([0, 1, 2, 51, 102, 255]);
      expect(r.map.note).toBeUndefined();
    }
  });

  it('round-trips any 8-bit grey image (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 9 }), fc.infiniteStream(fc.integer({ min: 0, max: 255 })), (h, w, s) => {
        const values = Uint8Array.from(s.take(h * w));
        const r = decodePrediction(greyPng(values, h, w), 'p.png', { height: h, width: w });
        return r.ok && Array.from(r.map.data).join() === Array.from(values).join();
      }),
      { numRuns: 50 },
    );
  });

  it('keeps an all-0/255 image as 0/255 (never logical 0/1)', () => {
    const r = decodePrediction(greyPng(Uint8Array.from([0, 255, 255, 0]), 2, 2), 'hard.png');
    expect(r.ok && Array.from(r.map.data)).toEqual([0, 255, 255, 0]);
  });

  it('restores grey values that a tRNS colour marks transparent', async () => {
    const bytes = await rawPng(3, 1, 8, 0, [[7, 200, 7]], [{ type: 'tRNS', data: [0, 7] }]);
    const r = decodePrediction(bytes, 't.png');
    expect(r.ok && Array.from(r.map.data)).toEqual([7, 200, 7]);
  });

  it('accepts greyscale+alpha (the grey channel, as imread)', () => {
    const r = decodePrediction(png(2, 1, [10, 10, 10, 0, 200, 200, 200, 255], { colorType: 4 }), 'ga.png');
    expect(r.ok && Array.from(r.map.data)).toEqual([10, 200]);
  });

  it('keeps raw sample values of low-bit-depth greyscale (imread does not rescale) and notes it', async () => {
    const bytes = await rawPng(4, 1, 2, 0, [[0b00011011]]);
    const r = decodePrediction(bytes, 'low.png');
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(Array.from(r.map.data)).toEqual([0, 1, 2, 3]);
      expect(r.map.note).toMatch(/2-bit/);
    }
  });

  it('accepts a palette image whose entry i is (i,i,i) and rejects a coloured palette', async () => {
    const grey = await rawPng(2, 1, 8, 3, [[0, 2]], [{ type: 'PLTE', data: [0, 0, 0, 1, 1, 1, 2, 2, 2] }]);
    const ok = decodePrediction(grey, 'pal.png');
    expect(ok.ok && Array.from(ok.map.data)).toEqual([0, 2]);
    const coloured = await rawPng(2, 1, 8, 3, [[0, 1]], [{ type: 'PLTE', data: [0, 0, 0, 255, 0, 0] }]);
    const bad = decodePrediction(coloured, 'col.png');
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.problem.file).toBe('col.png');
      expect(bad.problem.found).toMatch(/palette entry 1 = \(255,0,0\)/);
    }
  });

  it('rejects 16-bit, RGB and RGBA PNGs naming the file', () => {
    const cases: [Buffer, RegExp][] = [
      [png(1, 1, [1, 1, 1, 255], { colorType: 0, bitDepth: 16, inputColorType: 6 }), /16-bit/],
      [png(1, 1, [1, 2, 3, 255], { colorType: 2 }), /RGB PNG/],
      [png(1, 1, [1, 2, 3, 4], { colorType: 6 }), /RGBA/],
    ];
    for (const [bytes, re] of cases) {
      const r = decodePrediction(bytes, 'x/class_001/a.png');
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.problem.file).toBe('x/class_001/a.png');
        expect(r.problem.found).toMatch(re);
        expect(r.problem.expected).toMatch(/8-bit greyscale/);
      }
    }
  });

  it('reports a size mismatch with the ground truth and a non-PNG file', () => {
    const r = decodePrediction(greyPng(new Uint8Array(6), 2, 3), 's.png', { height: 3, width: 2 });
    expect(!r.ok && r.problem.code).toBe('input/size-mismatch');
    expect(!r.ok && r.problem.found).toBe('2x3');
    const n = decodePrediction(Buffer.from('hello, not a png at all....'), 'n.png');
    expect(!n.ok && n.problem.found).toBe('not a PNG file');
  });

  it('reads the IHDR fields', () => {
    expect(parsePngHeader(greyPng(new Uint8Array(12), 3, 4))).toEqual({ width: 4, height: 3, depth: 8, colorType: 0 });
    expect(parsePngHeader(new Uint8Array(10))).toBeNull();
  });
});
