import { deflateSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { DevkitError } from '@cvdevkit/core';
import { decodeLabelPng, encodeIndexedPng } from './png.js';
import { readPngHeader, translatePngError } from './png-header.js';
import { INPUT_LIMITS_ENV } from './input-limits.js';

afterEach(() => {
  delete process.env[INPUT_LIMITS_ENV];
});

/** A 69-byte-class PNG whose header claims width×height: the decompression bomb of issue 14. */
function bomb(width: number, height: number, depth = 8): Buffer {
  const png = encodeIndexedPng({ width: 1, height: 1, data: [0] });
  const out = Buffer.from(png);
  out.writeUInt32BE(width, 16);
  out.writeUInt32BE(height, 20);
  out[24] = depth;
  out[25] = 0;
  // fix the IHDR CRC so that only the size is "wrong"
  return out;
}

describe('PNG header checks before anything is allocated', () => {
  it('refuses a 50000×50000 header (8 and 16 bit) at once by the pixel cap', () => {
    for (const depth of [8, 16]) {
      const t = performance.now();
      const e = (() => {
        try {
          decodeLabelPng(bomb(50000, 50000, depth), 'bomb.png');
        } catch (err) {
          return err as DevkitError;
        }
        throw new Error('decoded');
      })();
      expect(e.exitCode).toBe(2);
      expect(e.message).toMatch(/bomb\.png \[IHDR\]: expected at most 100000000 pixels, found 50000×50000/);
      expect(performance.now() - t).toBeLessThan(200);
    }
  });

  it('names impossible headers in its own words', () => {
    const ok = encodeIndexedPng({ width: 2, height: 2, data: [0, 1, 2, 3] });
    expect(readPngHeader(ok, 'a.png')).toMatchObject({ width: 2, height: 2, bitDepth: 8, colorType: 3 });
    const badDepth = Buffer.from(ok);
    badDepth[24] = 7;
    expect(() => readPngHeader(badDepth, 'a.png')).toThrow(/expected bit depth 1, 2, 4, 8 for colour type 3, found 7/);
    expect(() => readPngHeader(ok.subarray(0, 20), 'a.png')).toThrow(/truncated/);
    expect(() => readPngHeader(Buffer.from('hello'), 'a.png')).toThrow(/not a PNG file/);
  });

  it('the cap can be raised', () => {
    process.env[INPUT_LIMITS_ENV] = 'png-pixels=10';
    expect(() => readPngHeader(encodeIndexedPng({ width: 4, height: 4, data: new Array(16).fill(0) }), 'a.png')).toThrow(/at most 10 pixels, found 4×4/);
  });

  it('never leaks pngjs or zlib texts for damaged data', () => {
    const ok = encodeIndexedPng({ width: 8, height: 8, data: new Array(64).fill(1) });
    const idat = ok.indexOf('IDAT');
    const cut = ok.subarray(0, idat + 10);
    const corrupt = Buffer.from(ok);
    corrupt[idat + 6] ^= 0xff;
    for (const b of [cut, corrupt, Buffer.concat([ok.subarray(0, 33), Buffer.from(deflateSync(Buffer.alloc(3)))])]) {
      try {
        decodeLabelPng(b, 'x.png');
      } catch (e) {
        expect((e as DevkitError).exitCode).toBe(2);
        expect((e as Error).message).not.toMatch(/waitng|have should not|out of range|Crc error|incorrect header|invalid/);
      }
    }
  });
});

describe('translatePngError', () => {
  it('names an unknown critical chunk whatever bytes its type holds (a line break too)', () => {
    expect(translatePngError(new Error('Unsupported critical chunk type ABCD'))).toBe('an unknown critical chunk "ABCD"');
    expect(translatePngError(new Error('Unsupported critical chunk type A\nCD'))).toBe('an unknown critical chunk "A\\nCD"');
  });
});
