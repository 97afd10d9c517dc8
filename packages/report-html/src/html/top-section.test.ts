import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { makeTempDir, removeTempDirs } from '@cvdevkit/test-utils';
import { cropRegion, findImageFile, makeCrop } from './image-crops.js';
import type { TopClass as TopClassLike } from '@cvdevkit/core';
import { topSection } from './top-section.js';

afterAll(() => removeTempDirs());

async function jpeg(dir: string, id: string, width: number, height: number): Promise<string> {
  const file = join(dir, `${id}.jpg`);
  await sharp({ create: { width, height, channels: 3, background: '#5080c0' } }).jpeg().toFile(file);
  return file;
}

const entry = (image: string, rank: number, box: [number, number, number, number], object?: [number, number, number, number]) => ({
  image,
  box,
  score: 1 - rank / 100,
  rank,
  ...(object ? { object: { box: object, class: 'cat', iou: 0.5 } } : {}),
});

describe('image crops', () => {
  it('the region is the union of the +1-pixel boxes plus a margin (at least 8 px), inside the image', () => {
    expect(cropRegion([[11, 21, 50, 60]], 100, 100)).toEqual({ x0: 2, y0: 12, x1: 58, y1: 68 });
    expect(cropRegion([[1, 1, 100, 100]], 100, 100)).toEqual({ x0: 0, y0: 0, x1: 100, y1: 100 });
    expect(cropRegion([[NaN, 1, 2, 3]], 100, 100)).toBeUndefined();
    expect(cropRegion([[200, 200, 300, 300]], 100, 100)).toBeUndefined();
  });

  it('finds <id>.jpg, refuses ids that would leave the folder, and says why an image cannot be cropped', async () => {
    const dir = makeTempDir('cvdevkit-crops-');
    const file = await jpeg(dir, 'a', 400, 300);
    expect(findImageFile(dir, 'a')).toBe(file);
    expect(findImageFile(dir, '../a')).toBeUndefined();
    expect(findImageFile(dir, 'b')).toBeUndefined();
    const crop = await makeCrop(file, [[101, 51, 300, 250]], 160);
    expect(typeof crop).toBe('object');
    if (typeof crop === 'string') return;
    expect(crop.uri.startsWith('data:image/jpeg;base64,')).toBe(true);
    expect(Math.max(crop.width, crop.height)).toBe(160);
    writeFileSync(join(dir, 'bad.jpg'), 'not a JPEG');
    expect(await makeCrop(join(dir, 'bad.jpg'), [[1, 1, 10, 10]])).toMatch(/^not a JPEG or PNG/);
  });
});

describe('top section', () => {
  const top: TopClassLike[] = [
    { key: 'cat', truePositives: [entry('a', 1, [11, 11, 60, 60], [12, 12, 58, 61]), entry('missing', 2, [1, 1, 5, 5])], falsePositives: [{ ...entry('a', 3, [100, 100, 150, 140]), type: 'BG' }], nearMisses: [] },
    { key: 'dog<b>', truePositives: [], falsePositives: [], nearMisses: [] },
  ];

  it('without an images folder: ids and boxes, escaped names, no diagnostics', async () => {
    const r = await topSection(top);
    expect(r.crops).toBe(0);
    expect(r.diagnostics).toEqual([]);
    expect(r.html).toContain('<code>a</code> box <code>[11, 11, 60, 60]</code>');
    expect(r.html).toContain('dog&lt;b&gt;');
    expect(r.html).not.toContain('<svg');
  });

  it('with one: crops with both boxes drawn, one info diagnostic per missing image, the budget respected', async () => {
    const dir = makeTempDir('cvdevkit-crops-');
    await jpeg(dir, 'a', 300, 200);
    const r = await topSection(top, { imagesDir: dir });
    expect(r.crops).toBe(2);
    expect(r.html.match(/<svg class="crop"/g)).toHaveLength(2);
    expect(r.html).toContain('class="gt"');
    expect(r.diagnostics).toEqual([expect.objectContaining({ severity: 'info', code: 'analysis/image-unavailable', message: expect.stringContaining('image missing') })]);
    const capped = await topSection(top, { imagesDir: dir, maxCrops: 1 });
    expect(capped.crops).toBe(1);
    expect(capped.html).toContain('<ul class="more">');
  });
});
