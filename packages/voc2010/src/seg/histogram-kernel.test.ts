import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { crc32, deflateSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeLabelPng, encodeIndexedPng } from '@cvdevkit/formats/png';
import { SEG_HISTOGRAM_SIZE, accumulateSegHistogram } from './confusion.js';
import { SegHistogramKernel } from './histogram-kernel.js';

/** Labels as they come: classes, void, and the values the official code aliases (21..254). */
const label = fc.oneof(fc.integer({ min: 0, max: 20 }), fc.constant(255), fc.integer({ min: 21, max: 254 }));
/** Results: mostly classes, sometimes a value above 20 (the scan stops there). */
const result = fc.oneof({ weight: 12, arbitrary: fc.integer({ min: 0, max: 20 }) }, { weight: 1, arbitrary: fc.integer({ min: 21, max: 255 }) });

/** Pixels of runs (a label image is long runs of one pair), or of single pixels. */
const pairs = fc.array(fc.tuple(label, result, fc.oneof(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 4, max: 40 }))), { maxLength: 40 }).map((runs) => {
  const gt: number[] = [];
  const res: number[] = [];
  for (const [g, r, k] of runs) {
    for (let i = 0; i < k; i++) {
      gt.push(g);
      res.push(r);
    }
  }
  return { gt, res };
});

/** The pair in the kernel's memory (as decodeLabelPng puts a pair there: ground truth first). */
function place(kernel: SegHistogramKernel, gt: number[], res: number[]): { g: Uint8Array; r: Uint8Array } {
  const g = kernel.gt.take(gt.length + 9).subarray(0, gt.length);
  g.set(gt);
  const r = kernel.res.take(res.length + 9).subarray(0, res.length);
  r.set(res);
  return { g, r };
}

/** A one-byte-per-pixel greyscale PNG of `rows` (each a filter type and its filtered bytes), built by hand. */
function pngOfScanlines(width: number, rows: { filter: number; bytes: number[] }[]): Buffer {
  const chunk = (type: string, data: Buffer): Buffer => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(rows.length, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  const raw = Buffer.from(rows.flatMap((r) => [r.filter, ...r.bytes]));
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

/** What decoding gives, or the message it fails with. */
function decoded(png: Buffer, reuse?: SegHistogramKernel['gt']): { width: number; height: number; data: number[] } | string {
  try {
    const img = decodeLabelPng(png, 'x.png', reuse ? { reuse } : {});
    return { width: img.width, height: img.height, data: [...img.data] };
  } catch (e) {
    return (e as Error).message;
  }
}

describe('the seg histogram WebAssembly kernel', () => {
  it('is the assembled histogram-kernel.wat (src/seg/histogram-kernel-wasm.ts is up to date)', async () => {
    // @ts-expect-error: a build script without types
    const { assemble, moduleText } = await import('../../../../scripts/wat-module.mjs');
    const wat = fileURLToPath(new URL('./histogram-kernel.wat', import.meta.url));
    expect(readFileSync(new URL('./histogram-kernel-wasm.ts', import.meta.url), 'utf8')).toBe(
      moduleText(wat, 'SEG_HISTOGRAM_KERNEL_WASM', 'the VOC seg histogram WebAssembly kernel', await assemble(wat)),
    );
  });

  it('counts a pair exactly as accumulateSegHistogram, stopping at the first result above the largest label (fuzz)', () => {
    const kernel = new SegHistogramKernel();
    fc.assert(
      fc.property(pairs, ({ gt, res }) => {
        const { g, r } = place(kernel, gt, res);
        const got = new Float64Array(SEG_HISTOGRAM_SIZE).fill(7); // overwritten, not added to
        const count = kernel.accumulate(got, g, r, 20);
        const want = new Float64Array(SEG_HISTOGRAM_SIZE);
        const js = accumulateSegHistogram(want, gt, res, 20);
        expect(count?.firstAbove).toBe(js.firstAbove);
        // after a result above 20 the official code stops with an error: the caller drops the histogram
        if (js.firstAbove < 0) {
          expect(count?.counted).toBe(js.counted);
          expect([...got]).toEqual([...want]);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('leaves pixels that are not in its memory, or of two sizes, to the JavaScript path', () => {
    const kernel = new SegHistogramKernel();
    const hist = new Float64Array(SEG_HISTOGRAM_SIZE);
    expect(kernel.accumulate(hist, new Uint8Array(8), new Uint8Array(8), 20)).toBeUndefined();
    const { g, r } = place(kernel, [1, 2, 3], [1, 2, 3]);
    expect(kernel.accumulate(hist, g, r.subarray(0, 2), 20)).toBeUndefined();
    expect(kernel.accumulate(hist, g, r, 20)).toEqual({ counted: 3, firstAbove: -1 });
  });

  it('grows its regions between pairs; a result larger than its region gets an array of its own until the next pair', () => {
    const kernel = new SegHistogramKernel();
    const hist = new Float64Array(SEG_HISTOGRAM_SIZE);
    place(kernel, [1], [1]);
    const big = 200_000;
    const g = kernel.gt.take(10);
    g.fill(3);
    const r = kernel.res.take(big);
    expect(r.length).toBe(big);
    // not the kernel's: counted the JavaScript way
    expect(kernel.accumulate(hist, g, r.subarray(0, 10), 20)).toBeUndefined();
    // the next pair: both regions hold the larger size
    const gt = new Array<number>(big).fill(4);
    const res = new Array<number>(big).fill(5);
    const p = place(kernel, gt, res);
    expect(kernel.accumulate(hist, p.g, p.r, 20)).toEqual({ counted: big, firstAbove: -1 });
    expect(hist[4 + 21 * 5]).toBe(big);
  });

  it('stays right over thousands of calls (a new instance every 900 calls, the same memory)', () => {
    const kernel = new SegHistogramKernel();
    const hist = new Float64Array(SEG_HISTOGRAM_SIZE);
    for (let i = 0; i < 2500; i++) {
      const n = 1 + (i % 37);
      const { g, r } = place(kernel, new Array<number>(n).fill(i % 21), new Array<number>(n).fill((i * 7) % 21));
      expect(kernel.accumulate(hist, g, r, 20)).toEqual({ counted: n, firstAbove: -1 });
      expect(hist[(i % 21) + 21 * ((i * 7) % 21)]).toBe(n);
    }
  });

  it('un-filters scanlines in its memory exactly as the PNG decoder does, every filter type (fuzz)', () => {
    const kernel = new SegHistogramKernel();
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 4 }), fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 40, maxLength: 40 })), { minLength: 1, maxLength: 30 }),
        (width, rows) => {
          const png = pngOfScanlines(width, rows.map(([filter, bytes]) => ({ filter, bytes: bytes.slice(0, width) })));
          expect(decoded(png, kernel.gt)).toEqual(decoded(png));
          expect(decoded(png, kernel.res)).toEqual(decoded(png));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('un-filters the PNGs the encoder writes (adaptive filters), and leaves a bad filter type to the decoder, unchanged', () => {
    const kernel = new SegHistogramKernel();
    const width = 53;
    const height = 31;
    const data = Uint8Array.from({ length: width * height }, (_, i) => ((i % width) * 3 + Math.floor(i / width) * 5) % 21);
    for (const filterType of [-1, 0, 1, 2, 3, 4]) {
      const png = encodeIndexedPng({ width, height, data }, { filterType });
      expect(decoded(png, kernel.gt)).toEqual({ width, height, data: [...data] });
    }
    const bad = pngOfScanlines(3, [
      { filter: 1, bytes: [1, 2, 3] },
      { filter: 7, bytes: [4, 5, 6] },
    ]);
    const message = decoded(bad);
    expect(typeof message).toBe('string');
    expect(decoded(bad, kernel.gt)).toBe(message);
  });
});
