import { PNG } from 'pngjs';
import { isDevkitError, type Problem } from '@cvdevkit/core';
import { describeFsError, readInputBytesSync } from '@cvdevkit/formats';
import { readPngHeader, translatePngError } from '@cvdevkit/formats/png';
import { decodeGrey8Png } from './grey-png.js';

/** A decoded prediction: row-major uint8 values (what MATLAB's `imread` returns for the file). */
export interface PredictionMap {
  width: number;
  height: number;
  data: Uint8Array;
  /** Set when the file is valid but unusual (low bit depth): a note for the report. */
  note?: string;
  /** True when every value is known to be 0 (found by the 8-bit greyscale decoder); absent = not known. */
  allZero?: boolean;
}

export type PredictionResult = { ok: true; map: PredictionMap } | { ok: false; problem: Problem };

const EXPECTED = '8-bit greyscale PNG (values 0..255 = probability v/255)';

const COLOR_TYPE_NAMES: Record<number, string> = {
  0: 'greyscale',
  2: 'RGB',
  3: 'palette',
  4: 'greyscale+alpha',
  6: 'RGBA',
};

/** The first 8 bytes of every PNG file. */
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export interface PngHeader {
  width: number;
  height: number;
  depth: number;
  colorType: number;
}

/** Reads the IHDR of a PNG from its first 26 bytes (null when the bytes are not a PNG header). */
export function parsePngHeader(bytes: Uint8Array): PngHeader | null {
  if (bytes.length < 26) return null;
  for (let i = 0; i < 8; i++) if (bytes[i] !== PNG_SIGNATURE[i]) return null;
  if (bytes[12] !== 0x49 || bytes[13] !== 0x48 || bytes[14] !== 0x44 || bytes[15] !== 0x52) return null; // "IHDR"
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20), depth: bytes[24], colorType: bytes[25] };
}

/**
 * Whether a header describes a usable prediction: 8-bit (or 1/2/4-bit) greyscale, greyscale+alpha,
 * or a palette image; returns the problem otherwise. Palette images are checked further after decoding.
 */
export function headerProblem(h: PngHeader, file: string): Problem | undefined {
  const kind = `${h.depth}-bit ${COLOR_TYPE_NAMES[h.colorType] ?? `colour type ${h.colorType}`} PNG`;
  if (h.depth === 16) {
    return { code: 'input/png-depth', file, expected: EXPECTED, found: kind, hint: 'save the map as 8-bit (uint8) greyscale' };
  }
  if (h.colorType === 2 || h.colorType === 6) {
    return { code: 'input/png-color-type', file, expected: EXPECTED, found: kind, hint: 'save one channel: a greyscale image per class' };
  }
  if (h.colorType !== 0 && h.colorType !== 3 && h.colorType !== 4) {
    return { code: 'input/png-color-type', file, expected: EXPECTED, found: kind };
  }
  return undefined;
}

/**
 * Decodes a prediction PNG to the uint8 values MATLAB's `imread` gives (`evaluate_imgs.m:20` divides them by 255):
 * - 8-bit greyscale (with or without alpha, with or without a tRNS colour): the grey values;
 * - 1/2/4-bit greyscale: the raw sample values 0..2^d-1 (not rescaled, like `imread`; reported in `note`);
 * - a palette whose entries are all grey with entry i = (i,i,i): the values (= the indices `imread` returns);
 * rejected: 16-bit, RGB/RGBA, a palette with colours (or grey levels that differ from the index).
 * `expectSize` (height, width of the ground truth) adds the size check.
 */
export function decodePrediction(bytes: Uint8Array, file: string, expectSize?: { height: number; width: number }): PredictionResult {
  const header = parsePngHeader(bytes);
  if (!header) return { ok: false, problem: { code: 'input/png', file, expected: EXPECTED, found: 'not a PNG file' } };
  const bad = headerProblem(header, file);
  if (bad) return { ok: false, problem: bad };
  if (expectSize && (header.height !== expectSize.height || header.width !== expectSize.width)) {
    return { ok: false, problem: sizeProblem(file, expectSize, header) };
  }
  try {
    // the full IHDR check and the pixel cap, before pngjs allocates anything
    readPngHeader(bytes, file);
  } catch (e) {
    if (isDevkitError(e)) return { ok: false, problem: e.problems[0] };
    throw e;
  }
  if (header.colorType === 0 && header.depth === 8) {
    const fast = decodeGrey8Png(bytes);
    if (fast) return { ok: true, map: fast };
  }
  let png: ReturnType<typeof PNG.sync.read> & { transColor?: number[]; palette?: number[][] };
  try {
    // skipRescale keeps low-bit-depth samples raw (as imread does); pngjs never applies gamma.
    png = PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), { skipRescale: true }) as typeof png;
  } catch (e) {
    return { ok: false, problem: { code: 'input/png', file, expected: EXPECTED, found: `an unreadable PNG (${translatePngError(e)})` } };
  }
  const { width, height } = png;
  const rgba = png.data;
  const n = width * height;
  const data = new Uint8Array(n);
  if (header.colorType === 3) {
    const palette = png.palette ?? [];
    for (let i = 0; i < palette.length; i++) {
      const [r, g, b] = palette[i];
      if (r !== i || g !== i || b !== i) {
        return {
          ok: false,
          problem: {
            code: 'input/png-color-type',
            file,
            expected: `${EXPECTED}, or a palette whose entry i is grey (i,i,i)`,
            found: `palette entry ${i} = (${r},${g},${b})`,
            hint: 'save the map as 8-bit greyscale',
          },
        };
      }
    }
  }
  // pngjs expands to RGBA; a greyscale tRNS colour t is replaced by (0,0,0,0) there, so restore it.
  const trans = header.colorType === 0 && png.transColor ? png.transColor[0] : -1;
  for (let i = 0, p = 0; i < n; i++, p += 4) {
    data[i] = trans >= 0 && rgba[p + 3] === 0 ? trans : rgba[p];
  }
  const map: PredictionMap = { width, height, data };
  if (header.depth < 8 && header.colorType === 0) {
    map.note = `${header.depth}-bit greyscale PNG: values 0..${2 ** header.depth - 1} are used as v/255, as the official imread does`;
  }
  return { ok: true, map };
}

export function sizeProblem(file: string, expect: { height: number; width: number }, found: { height: number; width: number }): Problem {
  return {
    code: 'input/size-mismatch',
    file,
    expected: `${expect.height}x${expect.width} (HxW, the size of the ground truth)`,
    found: `${found.height}x${found.width}`,
  };
}

/** Reads and decodes one prediction file; a missing file is a problem, not an exception. */
export function readPrediction(path: string, displayName: string, expectSize?: { height: number; width: number }): PredictionResult {
  let bytes: Uint8Array;
  try {
    bytes = readInputBytesSync(path, { kind: 'png', expected: 'a prediction PNG' });
  } catch (e) {
    if (!isDevkitError(e)) throw e;
    const p = e.problems[0];
    const missing = p.code === 'input/missing-file';
    return {
      ok: false,
      problem: {
        ...p,
        code: missing ? 'input/missing-prediction' : p.code,
        file: displayName,
        expected: missing ? 'a prediction PNG for every image and class' : p.expected,
        found: missing && p.found === describeFsError({ code: 'ENOENT' }) ? 'no such file' : p.found,
      },
    };
  }
  return decodePrediction(bytes, displayName, expectSize);
}
