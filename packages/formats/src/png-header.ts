/**
 * The PNG header (signature + IHDR), read from the first 33 bytes before anything is decoded or
 * allocated, and pngjs's error texts in cvdevkit's words. A decompression bomb (a 69-byte PNG whose
 * header claims 50000×50000) is refused here at no cost: by the pixel cap, or by the size the caller
 * expects (a result must have the ground truth's size).
 */
import { DevkitError, type Problem } from '@cvdevkit/core';
import { inputLimit, limitHint } from './input-limits.js';

export interface PngHeader {
  width: number;
  height: number;
  bitDepth: number;
  /** 0 grey, 2 RGB, 3 palette, 4 grey + alpha, 6 RGBA. */
  colorType: number;
  interlace: number;
}

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join(' ');
}

/** Whether the bytes start with the PNG signature. */
export function hasPngSignature(bytes: Uint8Array): boolean {
  return bytes.length >= 8 && SIGNATURE.every((b, i) => bytes[i] === b);
}

/**
 * Reads and checks the header; every problem (not a PNG, truncated, impossible sizes or depths, more
 * pixels than the `png-pixels` cap) is a DevkitError naming the file.
 */
export function readPngHeader(bytes: Uint8Array, file: string | undefined): PngHeader {
  const fail = (p: Omit<Problem, 'file'>) => new DevkitError({ kind: 'input', file, ...p });
  if (!hasPngSignature(bytes)) {
    throw fail({ code: 'input/png-signature', detail: 'not a PNG file', expected: 'the PNG signature', found: bytes.length === 0 ? 'an empty file' : `bytes ${hex(bytes.subarray(0, 8))}` });
  }
  if (bytes.length < 33) throw fail({ code: 'input/png', detail: 'damaged PNG file', expected: 'an IHDR header chunk', found: `the file ends after ${bytes.length} bytes (truncated)` });
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const type = String.fromCharCode(bytes[12], bytes[13], bytes[14], bytes[15]);
  if (view.getUint32(8) !== 13 || type !== 'IHDR') {
    throw fail({ code: 'input/png', detail: 'damaged PNG file', expected: 'an IHDR chunk of 13 bytes first', found: `chunk ${JSON.stringify(type)} of ${view.getUint32(8)} bytes` });
  }
  const h: PngHeader = { width: view.getUint32(16), height: view.getUint32(20), bitDepth: bytes[24], colorType: bytes[25], interlace: bytes[28] };
  if (h.width < 1 || h.height < 1 || h.width > 0x7fffffff || h.height > 0x7fffffff) {
    throw fail({ code: 'input/png', field: 'IHDR', detail: 'damaged PNG file', expected: 'a width and height of 1 to 2^31-1', found: `${h.width}×${h.height}` });
  }
  const depths = DEPTHS[h.colorType];
  if (!depths) throw fail({ code: 'input/png', field: 'IHDR', detail: 'damaged PNG file', expected: 'colour type 0, 2, 3, 4 or 6', found: String(h.colorType) });
  if (!depths.includes(h.bitDepth)) {
    throw fail({ code: 'input/png', field: 'IHDR', detail: 'damaged PNG file', expected: `bit depth ${depths.join(', ')} for colour type ${h.colorType}`, found: String(h.bitDepth) });
  }
  if (bytes[26] !== 0 || bytes[27] !== 0 || h.interlace > 1) {
    throw fail({ code: 'input/png', field: 'IHDR', detail: 'damaged PNG file', expected: 'compression 0, filter 0, interlace 0 or 1', found: `${bytes[26]}, ${bytes[27]}, ${h.interlace}` });
  }
  const cap = inputLimit('png-pixels');
  if (h.width * h.height > cap) {
    throw fail({
      code: 'input/png-too-large',
      field: 'IHDR',
      expected: `at most ${cap} pixels`,
      found: `${h.width}×${h.height} = ${h.width * h.height} pixels (a decompression bomb or an oversized image; nothing was decoded)`,
      hint: limitHint('png-pixels'),
    });
  }
  return h;
}

/** pngjs's and zlib's error texts → what a user reads (`found …`); unknown texts become a generic phrase. */
export function translatePngError(e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  const code = (e as { code?: string }).code;
  if (/waitng|waiting|Ran out of data|Unexpected end|end of input/i.test(msg) || code === 'Z_BUF_ERROR') return 'the file ends early (truncated)';
  if (/^Crc error/.test(msg)) return 'a chunk whose checksum (CRC) does not match its data (a damaged file)';
  // the chunk type is four raw bytes: any of them may be a line break
  const chunk = /Unsupported critical chunk type ([^]*)$/.exec(msg);
  if (chunk) return `an unknown critical chunk ${JSON.stringify(chunk[1])}`;
  if (/Expected palette not found/.test(msg)) return 'a palette image without a PLTE chunk';
  if (/Transparency chunk must be after palette|More transparent colors/.test(msg)) return 'a transparency (tRNS) chunk that does not fit the palette';
  if (/have should not go down|bitblt|outside image|extra data|size.*out of range|invalid compressed|invalid inflate/i.test(msg) || code === 'ERR_OUT_OF_RANGE') return 'image data that does not match the header (wrong number of rows or bytes)';
  if (/filter type/i.test(msg)) return 'a scanline with an unknown filter type';
  if (code === 'Z_DATA_ERROR' || /incorrect|invalid (?:block|distance|code|stored)|header check|unknown compression/i.test(msg)) return 'corrupt compressed image data';
  if (/IHDR/.test(msg)) return 'no IHDR header chunk first';
  return 'image data that cannot be decoded';
}
