import { crc32, deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isDevkitError } from '@cvdevkit/core';
import { parsePngChunks, walkPlainPngChunks, type PngChunks } from './png-chunks.js';
import { encodeIndexedPng } from './png.js';

function chunk(type: string, data: Uint8Array, badCrc = false): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  out.set(data, 8);
  out.writeUInt32BE((crc32(out.subarray(4, 8 + data.length)) ^ (badCrc ? 1 : 0)) >>> 0, 8 + data.length);
  return out;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A PNG from a list of chunks (IHDR fields and data chosen by the property). */
function png(chunks: Buffer[]): Buffer {
  return Buffer.concat([SIGNATURE, ...chunks]);
}

function ihdr(w: number, h: number, depth: number, colorType: number, interlace = 0, compression = 0, filter = 0): Buffer {
  const d = Buffer.alloc(13);
  d.writeUInt32BE(w, 0);
  d.writeUInt32BE(h, 4);
  d.set([depth, colorType, compression, filter, interlace], 8);
  return chunk('IHDR', d);
}

/** pngjs's parse, or 'error' when it fails. */
function parsed(buf: Buffer): PngChunks | 'error' {
  try {
    return parsePngChunks(buf, 'x.png');
  } catch (e) {
    if (isDevkitError(e)) return 'error';
    throw e;
  }
}

/** The walk agrees with pngjs wherever it gives a result (and gives none where pngjs fails). */
function agrees(buf: Buffer): void {
  const walked = walkPlainPngChunks(buf);
  if (walked === undefined) return;
  const ref = parsed(buf);
  expect(ref).not.toBe('error');
  if (ref === 'error') return;
  expect(walked.meta).toEqual(ref.meta);
  expect(walked.palette === undefined ? undefined : Array.from(walked.palette)).toEqual(ref.palette === undefined ? undefined : Array.from(ref.palette));
  expect(Buffer.concat(walked.idat)).toEqual(Buffer.concat(ref.idat));
}

const chunkArb = fc.oneof(
  fc.record({ kind: fc.constant('PLTE'), n: fc.integer({ min: 0, max: 20 }) }),
  fc.record({ kind: fc.constant('IDAT'), n: fc.integer({ min: 0, max: 40 }) }),
  fc.record({ kind: fc.constantFrom('tRNS', 'gAMA', 'tEXt', 'pHYs', 'IHDR', 'IEND', 'zzZZ', 'ABCD'), n: fc.integer({ min: 0, max: 14 }) }),
);

describe('walkPlainPngChunks', () => {
  it('gives what pngjs gives for the writer\'s PNGs', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 30 }), fc.integer({ min: 0, max: 2 ** 31 }), (w, h, seed) => {
        const data = new Uint8Array(w * h).map((_, i) => (i * 7 + seed) % 21);
        const buf = encodeIndexedPng({ width: w, height: h, data });
        const walked = walkPlainPngChunks(buf);
        expect(walked).toBeDefined();
        agrees(buf);
      }),
      { numRuns: 30 },
    );
  });

  it('never gives a result pngjs would not (random chunk sequences, bad CRCs, damage, trailing bytes)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(0, 2, 3, 4, 6, 5),
        fc.constantFrom(1, 2, 4, 8, 16, 3),
        fc.integer({ min: 0, max: 2 }),
        fc.array(fc.record({ c: chunkArb, bad: fc.boolean() }), { maxLength: 6 }),
        fc.boolean(),
        fc.option(fc.record({ at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) })),
        fc.option(fc.nat()),
        fc.uint8Array({ maxLength: 3 }),
        (colorType, depth, interlace, body, withIend, flip, cut, trailing) => {
          const chunks = [ihdr(3, 2, depth, colorType, interlace)];
          for (const { c, bad } of body) {
            const d = c.kind === 'IDAT' ? deflateSync(Buffer.alloc(c.n)).subarray(0, c.n) : new Uint8Array(c.kind === 'PLTE' ? c.n * 3 - (c.n % 4 === 3 ? 1 : 0) : c.n).fill(c.n);
            chunks.push(chunk(c.kind, d, bad && c.n % 3 === 0));
          }
          if (withIend) chunks.push(chunk('IEND', new Uint8Array(0)));
          let buf = png(chunks);
          if (flip) {
            buf = Buffer.from(buf);
            buf[flip.at % buf.length] = flip.byte;
          }
          if (cut !== null) buf = buf.subarray(0, cut % (buf.length + 1));
          buf = Buffer.concat([buf, trailing]);
          agrees(buf);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('leaves to pngjs what it interprets or rejects', () => {
    const base = [ihdr(2, 1, 8, 3), chunk('PLTE', new Uint8Array(6)), chunk('IDAT', deflateSync(Buffer.from([0, 1, 0])))];
    const iend = chunk('IEND', new Uint8Array(0));
    expect(walkPlainPngChunks(png([...base, iend]))).toBeDefined();
    expect(walkPlainPngChunks(png([...base, iend, Buffer.from([0])]))).toBeUndefined(); // after IEND
    expect(walkPlainPngChunks(png([base[0], base[1], chunk('tRNS', new Uint8Array(1)), base[2], iend]))).toBeUndefined();
    expect(walkPlainPngChunks(png([base[0], base[2], iend]))).toBeUndefined(); // palette image, no PLTE
    expect(walkPlainPngChunks(png([base[0], base[1], chunk('IDAT', deflateSync(Buffer.from([0, 1, 0])), true), iend]))).toBeUndefined();
    expect(parsed(png([base[0], base[1], chunk('IDAT', deflateSync(Buffer.from([0, 1, 0])), true), iend]))).toBe('error');
    // an ancillary chunk pngjs skips (without its CRC) is skipped here too
    expect(walkPlainPngChunks(png([base[0], chunk('tEXt', new Uint8Array(3), true), base[1], base[2], iend]))).toBeDefined();
    agrees(png([base[0], chunk('tEXt', new Uint8Array(3), true), base[1], base[2], iend]));
  });
});
