/**
 * The chunks of a PNG file (header metadata, palette, image data), CRCs checked: a walk in place for plain
 * files (`walkPlainPngChunks`), pngjs's own chunk parser (`parsePngChunks`) for everything else and for the
 * messages of damaged files. `readPngChunks` tries the first, then the second.
 */
import { createRequire } from 'node:module';
import { crc32 as zlibCrc32 } from 'node:zlib';
import { inputError } from '@cvdevkit/core';
import { translatePngError } from './png-header.js';

// ---------------------------------------------------------------- pngjs internals (CommonJS, untyped)

export interface PngMetadata {
  width: number;
  height: number;
  depth: number;
  interlace: boolean;
  palette: boolean;
  color: boolean;
  alpha: boolean;
  bpp: number;
  colorType: number;
}
interface ParserDependencies {
  read(length: number, callback: (data: Buffer) => void): void;
  error(err: Error): void;
  metadata(meta: PngMetadata): void;
  gamma(gamma: number): void;
  palette(palette: number[][]): void;
  transColor(color: number[]): void;
  inflateData(data: Buffer): void;
  simpleTransparency(): void;
}
type ParserCtor = new (options: { checkCRC?: boolean }, deps: ParserDependencies) => { start(): void };
type SyncReaderCtor = new (buffer: Buffer) => { read(length: number, callback: (data: Buffer) => void): void; process(): void };

// pngjs's parser, loaded on first use (a plain file never needs it: `walkPlainPngChunks`).
const requireCjs = createRequire(import.meta.url);
const pngjsParser = (): { Parser: ParserCtor; SyncReader: SyncReaderCtor } => ({
  Parser: requireCjs('pngjs/lib/parser.js') as ParserCtor,
  SyncReader: requireCjs('pngjs/lib/sync-reader.js') as SyncReaderCtor,
});

/** What the chunks of a PNG hold: header metadata, the palette (RGB triplets), the IDAT data in order. */
export interface PngChunks {
  meta: PngMetadata;
  palette?: Uint8Array;
  idat: Buffer[];
}

/** Channels per pixel of each colour type (pngjs's `COLORTYPE_TO_BPP_MAP`). */
const CHANNELS: Readonly<Record<number, number>> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/**
 * The big-endian 32-bit unsigned integer at `o` (the caller has checked that 4 bytes are there): plain byte
 * arithmetic, which the optimising compiler turns into a few instructions, where `Buffer#readUInt32BE`'s checks
 * and error paths made the walk's compiled code (and the memory compiling it takes) several times larger.
 */
function u32(b: Uint8Array, o: number): number {
  return ((b[o] << 24) | (b[o + 1] << 16) | (b[o + 2] << 8) | b[o + 3]) >>> 0;
}

/**
 * The chunks of a plain PNG walked in place, with what pngjs's parser checks (IHDR first
 * and valid, every CRC but those of skipped ancillary chunks, the palette before the data of a palette image,
 * IEND last with nothing after it). It gives what `parsePngChunks` gives, without pngjs's per-chunk closures and
 * per-entry palette arrays; anything else — a tRNS or gAMA chunk (pngjs interprets them), a second IHDR or PLTE,
 * a PLTE whose length is not a multiple of 3, an empty or cut IDAT, a bad CRC, data after IEND — gives
 * undefined, and the file goes through pngjs's parser, whose result or message stands.
 */
export function walkPlainPngChunks(buf: Buffer): PngChunks | undefined {
  const end = buf.length;
  if (end < 8 + 25 || u32(buf, 0) !== 0x89504e47 || u32(buf, 4) !== 0x0d0a1a0a) return undefined;
  let meta: PngMetadata | undefined;
  let palette: Uint8Array | undefined;
  const idat: Buffer[] = [];
  for (let o = 8; ; ) {
    if (o + 12 > end) return undefined;
    const length = u32(buf, o);
    const type = u32(buf, o + 4);
    const data = o + 8;
    const next = data + length + 4;
    if (next > end) return undefined;
    const ancillary = (buf[o + 4] & 0x20) !== 0;
    if (meta === undefined ? type !== 0x49484452 : ancillary && (type === 0x74524e53 || type === 0x67414d41)) return undefined; // IHDR first; tRNS, gAMA
    if (ancillary) {
      o = next; // pngjs skips these without checking their CRC
      continue;
    }
    if (zlibCrc32(buf.subarray(o + 4, data + length)) !== u32(buf, data + length)) return undefined;
    if (type === 0x49484452) {
      // IHDR
      if (meta !== undefined || length !== 13) return undefined;
      const depth = buf[data + 8];
      const colorType = buf[data + 9];
      const interlace = buf[data + 12];
      if (!(depth === 1 || depth === 2 || depth === 4 || depth === 8 || depth === 16) || CHANNELS[colorType] === undefined) return undefined;
      if (buf[data + 10] !== 0 || buf[data + 11] !== 0 || (interlace !== 0 && interlace !== 1)) return undefined;
      meta = {
        width: u32(buf, data),
        height: u32(buf, data + 4),
        depth,
        interlace: interlace === 1,
        palette: (colorType & 1) !== 0,
        color: (colorType & 2) !== 0,
        alpha: (colorType & 4) !== 0,
        bpp: CHANNELS[colorType],
        colorType,
      };
    } else if (type === 0x504c5445) {
      // PLTE
      if (palette !== undefined || length % 3 !== 0) return undefined;
      palette = new Uint8Array(buf.subarray(data, data + length)); // a copy: the image keeps no file buffer
    } else if (type === 0x49444154) {
      // IDAT
      if (length === 0 || (meta!.colorType === 3 && palette === undefined)) return undefined;
      idat.push(buf.subarray(data, data + length));
    } else if (type === 0x49454e44) {
      // IEND: the end of the file
      return next === end ? { meta: meta!, palette, idat } : undefined;
    } else return undefined; // an unknown critical chunk: pngjs's error
    o = next;
  }
}

/** The chunks through pngjs's parser (CRCs checked); a damaged file is an input error naming `file`. */
export function parsePngChunks(buf: Buffer, file: string | undefined): PngChunks {
  let failure: Error | undefined;
  let meta: PngMetadata | undefined;
  let palette: number[][] | undefined;
  const idat: Buffer[] = [];
  const { Parser, SyncReader } = pngjsParser();
  const reader = new SyncReader(buf);
  const parser = new Parser(
    { checkCRC: true },
    {
      read: (length, callback) => reader.read(length, callback),
      error: (err) => {
        failure ??= err;
      },
      metadata: (m) => {
        meta = m;
      },
      gamma: () => {},
      palette: (p) => {
        palette = p;
      },
      transColor: () => {},
      inflateData: (d) => idat.push(d),
      simpleTransparency: () => {},
    },
  );
  try {
    parser.start();
    reader.process();
  } catch (e) {
    failure ??= e instanceof Error ? e : new Error(String(e));
  }
  if (failure || !meta) {
    throw inputError({ code: 'input/png', file, detail: 'damaged PNG file', expected: 'a complete, undamaged PNG', found: failure ? translatePngError(failure) : 'no image header' });
  }
  let rgb: Uint8Array | undefined;
  if (palette) {
    rgb = new Uint8Array(palette.length * 3);
    palette.forEach((c, i) => rgb!.set([c[0], c[1], c[2]], i * 3));
  }
  return { meta, palette: rgb, idat };
}

/** The chunks of a PNG: the in-place walk where it applies, else pngjs's parser (with its messages). */
export function readPngChunks(buf: Buffer, file: string | undefined): PngChunks {
  return walkPlainPngChunks(buf) ?? parsePngChunks(buf, file);
}
