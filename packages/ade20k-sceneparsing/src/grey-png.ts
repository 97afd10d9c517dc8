/**
 * Writes label maps as greyscale PNGs (8-bit, or 16-bit when a value is above 255): the layout of the
 * ADE20K release's annotations. Used by the embedded sample (`cvdevkit demo`) and by the tests.
 */
import pngjs from 'pngjs';

export interface LabelMap {
  width: number;
  height: number;
  /** One value per pixel, row-major. */
  data: ArrayLike<number>;
}

/** Encodes a label map as a greyscale PNG; `bitDepth` 16 (or any value above 255) writes 16-bit samples. */
export function encodeGreyPng(map: LabelMap, bitDepth: 8 | 16 = 8): Buffer {
  const { width, height, data } = map;
  if (data.length !== width * height) throw new RangeError(`label map: ${data.length} values for ${width}×${height}`);
  let depth: 8 | 16 = bitDepth;
  for (let i = 0; i < data.length; i++) {
    const v = data[i];
    if (!Number.isInteger(v) || v < 0 || v > 65535) throw new RangeError(`label map: value ${v} at index ${i} is not an integer 0..65535`);
    if (v > 255) depth = 16;
  }
  // pngjs packs 16-bit greyscale from a Uint16Array-like buffer of samples
  const pixels = depth === 16 ? Uint16Array.from(data) : Buffer.from(Uint8Array.from(data));
  const png = { width, height, data: pixels, gamma: 0 } as unknown as InstanceType<typeof pngjs.PNG>;
  return pngjs.PNG.sync.write(png, { colorType: 0, inputColorType: 0, bitDepth: depth, inputHasAlpha: false });
}
