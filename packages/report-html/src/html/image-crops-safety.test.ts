// analyze --images safety (issue 25 item 8): JPEG and PNG only (sniffed, not by name), the header's size
// checked before decoding, pixels and time capped, no symbolic link out of the images folder.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { makeTempDir, removeTempDirs } from '@cvdevkit/test-utils';
import { findImageFile, makeCrop } from './image-crops.js';
import { imageHeader } from './image-header.js';

afterAll(() => removeTempDirs());

/** A JPEG start: SOI, then a baseline SOF0 segment claiming `width`×`height` (no scan: never decodable). */
function jpegHeader(width: number, height: number): Buffer {
  const sof = Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
  return Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00]), sof, Buffer.from([0xff, 0xd9])]);
}

/** A PNG signature and IHDR claiming `width`×`height`. */
function pngHeader(width: number, height: number): Buffer {
  const b = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(b, 0);
  b.writeUInt32BE(13, 8);
  b.write('IHDR', 12, 'latin1');
  b.writeUInt32BE(width, 16);
  b.writeUInt32BE(height, 20);
  b[24] = 8;
  b[25] = 2;
  return b;
}

describe('image crops: only JPEG and PNG, sizes checked first', () => {
  it('an SVG named .jpg is refused without rendering it', async () => {
    const dir = makeTempDir('cvdevkit-crops-');
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="4000" height="4000"><filter id="f"><feTurbulence baseFrequency="0.9" numOctaves="10"/></filter><rect width="4000" height="4000" filter="url(#f)"/></svg>`;
    writeFileSync(join(dir, 'a.jpg'), svg);
    const t0 = Date.now();
    const crop = await makeCrop(join(dir, 'a.jpg'), [[1, 1, 10, 10]]);
    expect(crop).toMatch(/not a JPEG or PNG/);
    expect(Date.now() - t0).toBeLessThan(2000);
  });

  it('the header size is read without decoding; too many pixels is refused before decoding', async () => {
    expect(imageHeader(jpegHeader(640, 480))).toEqual({ format: 'jpeg', width: 640, height: 480 });
    expect(imageHeader(pngHeader(500, 375))).toEqual({ format: 'png', width: 500, height: 375 });
    expect(imageHeader(Buffer.from('GIF89a'))).toBeUndefined();
    const dir = makeTempDir('cvdevkit-crops-');
    writeFileSync(join(dir, 'big.jpg'), jpegHeader(60000, 60000));
    writeFileSync(join(dir, 'big.png'), pngHeader(100000, 100000));
    expect(await makeCrop(join(dir, 'big.jpg'), [[1, 1, 10, 10]])).toMatch(/60000×60000 pixels.*more than/);
    expect(await makeCrop(join(dir, 'big.png'), [[1, 1, 10, 10]])).toMatch(/100000×100000 pixels.*more than/);
    writeFileSync(join(dir, 'truncated.jpg'), jpegHeader(20, 20));
    expect(await makeCrop(join(dir, 'truncated.jpg'), [[1, 1, 10, 10]])).toMatch(/^not a readable image/);
  });

  it('a real JPEG and PNG still crop', async () => {
    const dir = makeTempDir('cvdevkit-crops-');
    await sharp({ create: { width: 80, height: 60, channels: 3, background: '#5080c0' } }).jpeg().toFile(join(dir, 'j.jpg'));
    await sharp({ create: { width: 80, height: 60, channels: 3, background: '#5080c0' } }).png().toFile(join(dir, 'p.png'));
    for (const f of ['j.jpg', 'p.png']) expect(typeof (await makeCrop(join(dir, f), [[10, 10, 40, 40]]))).toBe('object');
  });

  it('a symbolic link out of the images folder is not followed; one inside it is', async () => {
    const root = makeTempDir('cvdevkit-crops-');
    const images = join(root, 'images');
    mkdirSync(images);
    await sharp({ create: { width: 20, height: 20, channels: 3, background: '#000' } }).jpeg().toFile(join(root, 'secret.jpg'));
    await sharp({ create: { width: 20, height: 20, channels: 3, background: '#000' } }).jpeg().toFile(join(images, 'real.jpg'));
    symlinkSync(join(root, 'secret.jpg'), join(images, 'out.jpg'));
    symlinkSync(join(images, 'real.jpg'), join(images, 'in.jpg'));
    expect(findImageFile(images, 'out')).toBeUndefined();
    expect(findImageFile(images, 'in')).toBe(join(images, 'in.jpg'));
  });
});

describe('imageHeader (property)', () => {
  it('never throws on arbitrary bytes, and reads back any size written in a PNG or JPEG header', async () => {
    const fc = await import('fast-check');
    fc.assert(fc.property(fc.uint8Array({ maxLength: 64 }), (b) => void imageHeader(b)));
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 65535 }), fc.integer({ min: 1, max: 65535 }), (w, h) => {
        expect(imageHeader(jpegHeader(w, h))).toEqual({ format: 'jpeg', width: w, height: h });
        expect(imageHeader(pngHeader(w, h))).toEqual({ format: 'png', width: w, height: h });
      }),
    );
  });
});
