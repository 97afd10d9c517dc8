/** Image sizes for rendering detections: the JPEG (as `imfinfo` in the official code), else the label PNG, else the annotation. */
import { constants } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { inputError } from '@cvdevkit/core';
import { inputLimit, limitHint, readInputBytes, readInputText } from '@cvdevkit/formats';

export interface ImageSize {
  width: number;
  height: number;
  source: 'jpeg' | 'png' | 'annotation';
}

/** The first bytes of a regular file (undefined when there is none; a FIFO or device is never opened). */
async function head(file: string, bytes: number): Promise<Buffer | undefined> {
  let fh;
  try {
    if (!(await stat(file)).isFile()) return undefined;
    fh = await open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch {
    return undefined;
  }
  try {
    const buf = Buffer.alloc(bytes);
    const { bytesRead } = await fh.read(buf, 0, bytes, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

/** Width and height from a JPEG's SOFn segment (baseline, progressive, lossless, …). */
export function jpegSize(buf: Uint8Array): { width: number; height: number } | undefined {
  if (buf.length < 4 || buf[0] !== 0xff || buf[1] !== 0xd8) return undefined;
  let i = 2;
  while (i + 4 <= buf.length) {
    if (buf[i] !== 0xff) return undefined;
    const marker = buf[i + 1];
    if (marker === 0xff) {
      i++;
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2;
      continue;
    }
    const len = (buf[i + 2] << 8) | buf[i + 3];
    const isSof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isSof) {
      if (i + 9 > buf.length) return undefined;
      return { height: (buf[i + 5] << 8) | buf[i + 6], width: (buf[i + 7] << 8) | buf[i + 8] };
    }
    i += 2 + len;
  }
  return undefined;
}

/** Width and height from a PNG's IHDR. */
export function pngSize(buf: Uint8Array): { width: number; height: number } | undefined {
  if (buf.length < 24 || buf[12] !== 0x49 || buf[13] !== 0x48 || buf[14] !== 0x44 || buf[15] !== 0x52) return undefined;
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  return { width: dv.getUint32(16), height: dv.getUint32(20) };
}

/**
 * The size of image `id`: `JPEGImages/<id>.jpg` (read up to its frame header), else
 * `SegmentationClass/<id>.png`, else `<size>` of `Annotations/<id>.xml`. None → input error.
 */
export async function imageSize(dataDir: string, id: string): Promise<ImageSize> {
  const jpg = join(dataDir, 'JPEGImages', `${id}.jpg`);
  const start = await head(jpg, 65536);
  if (start) {
    const s = jpegSize(start) ?? jpegSize(await readInputBytes(jpg, { kind: 'png', expected: 'a JPEG image' }));
    if (!s) throw inputError({ code: 'input/jpeg', file: jpg, expected: 'a JPEG file with a frame header', found: 'no SOF segment' });
    return checkPixels({ ...s, source: 'jpeg' }, jpg);
  }
  const pngFile = join(dataDir, 'SegmentationClass', `${id}.png`);
  const png = await head(pngFile, 32);
  const ps = png && pngSize(png);
  if (ps) return checkPixels({ ...ps, source: 'png' }, pngFile);
  const xmlFile = join(dataDir, 'Annotations', `${id}.xml`);
  const xml = await readInputText(xmlFile, { kind: 'xml', expected: 'an annotation' }).catch(() => undefined);
  const size = xml && /<size>([\s\S]*?)<\/size>/.exec(xml)?.[1];
  const w = size && /<width>\s*(\d+)\s*<\/width>/.exec(size)?.[1];
  const h = size && /<height>\s*(\d+)\s*<\/height>/.exec(size)?.[1];
  if (w && h && Number(w) > 0 && Number(h) > 0) return checkPixels({ width: Number(w), height: Number(h), source: 'annotation' }, xmlFile);
  throw inputError({
    code: 'input/image-size',
    file: jpg,
    detail: `cannot find the size of image '${id}'`,
    expected: 'JPEGImages/<id>.jpg, SegmentationClass/<id>.png or Annotations/<id>.xml with <size>',
    found: 'none of them',
  });
}

/** A size whose label image would exceed the `png-pixels` cap is refused before anything is allocated. */
function checkPixels(size: ImageSize, file: string): ImageSize {
  const cap = inputLimit('png-pixels');
  if (size.width * size.height > cap) {
    throw inputError({ code: 'input/image-size', file, expected: `an image of at most ${cap} pixels`, found: `${size.width}×${size.height}`, hint: limitHint('png-pixels') });
  }
  return size;
}
