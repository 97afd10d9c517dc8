/**
 * Reads a ground-truth or prediction PNG as the official code's `imread` + `uint16` cast sees it, through
 * the formats package's label reader: greyscale values as stored (8- or 16-bit, no rescaling), palette
 * images as their indices, grey+alpha as the grey channel. Decisions of ours where `imread` would give
 * something the official code does not define: a truecolour prediction is reported (the caller skips it
 * as the official code does); a truecolour ground truth and 1/2/4-bit greyscale files are refused
 * (Octave and MATLAB read low-bit greyscale differently, and no official number exists for them).
 */
import { isDevkitError, type Problem } from '@cvdevkit/core';
import { readInputBytesSync } from '@cvdevkit/formats';
import { decodeLabelPng, readPngHeader, type LabelImage } from '@cvdevkit/formats/png';

export type ReadLabel =
  | { ok: true; image: LabelImage }
  /** A truecolour (RGB / RGBA) file: `size(im, 3) ~= 1`. */
  | { ok: false; truecolour: true; height: number; width: number }
  | { ok: false; truecolour: false; problem: Problem };

const COLOUR_NAMES: Record<number, string> = { 0: 'greyscale', 2: 'RGB', 3: 'palette', 4: 'greyscale+alpha', 6: 'RGBA' };

/** Reads one label PNG; `what` names it in messages (`a ground-truth PNG`). Never throws for bad input. */
export function readLabel(file: string, what: string): ReadLabel {
  try {
    const bytes = readInputBytesSync(file, { kind: 'png', expected: what });
    const header = readPngHeader(bytes, file);
    if (header.colorType === 2 || header.colorType === 6) return { ok: false, truecolour: true, height: header.height, width: header.width };
    if (header.bitDepth < 8 && header.colorType !== 3) {
      return {
        ok: false,
        truecolour: false,
        problem: {
          code: 'input/png-depth',
          file,
          expected: `${what}: 8- or 16-bit greyscale, or a palette PNG`,
          found: `a ${header.bitDepth}-bit ${COLOUR_NAMES[header.colorType]} PNG`,
          hint: 'save the labels as 8-bit greyscale (imread reads low-bit greyscale differently in MATLAB and Octave)',
        },
      };
    }
    return { ok: true, image: decodeLabelPng(bytes, file) };
  } catch (e) {
    if (isDevkitError(e)) return { ok: false, truecolour: false, problem: e.problems[0] };
    throw e;
  }
}
