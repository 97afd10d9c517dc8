/**
 * Where pycocotools crashes or hides: each case is an input error naming the file, the entry and the
 * value (exit 2), or a warning where pycocotools goes on (unknown category, empty list, odd polygon).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRunContext, isDevkitError, type DevkitError, type Report } from '@cvdevkit/core';
import { makeTempDir } from '@cvdevkit/test-utils';
import { encodeString, fromBox } from '@cvdevkit/rle';
import plugin from '../src/index.js';
import type { CocoOptions } from '../src/options.js';

type TaskId = keyof typeof plugin.tasks;
import { FIXTURES } from './fixture-cases.js';

const QUIRKS = join(FIXTURES, 'quirks');

function run(task: TaskId, o: CocoOptions): Promise<Report> {
  return plugin.tasks[task].evaluate(o as never, createRunContext({ workers: 1 }));
}

async function failure(task: TaskId, o: CocoOptions): Promise<DevkitError> {
  try {
    await run(task, o);
  } catch (e) {
    if (isDevkitError(e)) return e;
    throw e;
  }
  throw new Error('expected an input error');
}

const image = { id: 1, height: 40, width: 50 };
const cat = { id: 3, name: 'thing' };
const ann = (id: number, extra: Record<string, unknown> = {}) => ({ id, image_id: 1, category_id: 3, area: 100, iscrowd: 0, bbox: [1, 1, 10, 10], segmentation: [[1, 1, 11, 1, 11, 11, 1, 11]], ...extra });

function files(gt: unknown, results: unknown): { gt: string; results: string } {
  const dir = makeTempDir('coco-errors-');
  const g = join(dir, 'gt.json');
  const r = join(dir, 'results.json');
  writeFileSync(g, JSON.stringify(gt));
  writeFileSync(r, JSON.stringify(results));
  return { gt: g, results: r };
}

describe('coco input errors', () => {
  it('a result on an image not in the ground truth: exit 2 with the file, the entry and the id (quirks fixture)', async () => {
    const e = await failure('coco/bbox', { gt: join(QUIRKS, 'gt.json'), results: join(QUIRKS, 'results_bbox_unknown_image.json') });
    expect(e.kind).toBe('input');
    expect(e.exitCode).toBe(2);
    expect(e.code).toBe('input/unknown-image');
    expect(e.file).toBe(join(QUIRKS, 'results_bbox_unknown_image.json'));
    expect(e.message).toMatch(/\[\d+\]\.image_id/);
    expect(e.message).toMatch(/found \d+/);
  });

  it('an empty result list is valid: 0 wherever there is ground truth, -1 elsewhere, and a warning (quirks fixture)', async () => {
    const r = await run('coco/bbox', { gt: join(QUIRKS, 'gt.json'), results: join(QUIRKS, 'results_empty.json') });
    for (const v of Object.values(r.summary)) expect([0, -1]).toContain(v);
    expect(r.summary.AP).toBe(0);
    expect(r.diagnostics.some((d) => d.severity === 'warning' && /empty/.test(d.message))).toBe(true);
  });

  it('duplicate annotation id', async () => {
    const f = files({ images: [image], categories: [cat], annotations: [ann(1), ann(2), ann(1)] }, [{ image_id: 1, category_id: 3, bbox: [1, 1, 10, 10], score: 1 }]);
    const e = await failure('coco/bbox', f);
    expect(e.code).toBe('input/duplicate-id');
    expect(e.message).toContain('annotations[2].id');
    expect(e.message).toContain('annotations[0]');
    expect(e.exitCode).toBe(2);
  });

  it('missing annotation id', async () => {
    const a = ann(1) as Record<string, unknown>;
    delete a.id;
    const f = files({ images: [image], categories: [cat], annotations: [a] }, [{ image_id: 1, category_id: 3, bbox: [1, 1, 10, 10], score: 1 }]);
    const e = await failure('coco/bbox', f);
    expect(e.message).toContain('annotations[0].id');
    expect(e.exitCode).toBe(2);
  });

  it('a GT without iscrowd or area (pycocotools: KeyError)', async () => {
    const f = files({ images: [image], categories: [cat], annotations: [ann(1, { iscrowd: undefined })] }, []);
    expect((await failure('coco/bbox', f)).message).toContain('annotations[0].iscrowd');
  });

  it('a first polygon of 4 numbers (pycocotools takes it for a box and raises)', async () => {
    const f = files({ images: [image], categories: [cat], annotations: [ann(1, { segmentation: [[1, 1, 5, 5]] })] }, [{ image_id: 1, category_id: 3, bbox: [1, 1, 10, 10], score: 1 }]);
    const e = await failure('coco/segm', f);
    expect(e.exitCode).toBe(2);
    expect(e.message).toContain('annotations[0].segmentation');
  });

  it('a malformed compressed RLE result', async () => {
    const f = files({ images: [image], categories: [cat], annotations: [ann(1)] }, [{ image_id: 1, category_id: 3, segmentation: { size: [40, 50], counts: '~~~' }, score: 1 }]);
    const e = await failure('coco/segm', f);
    expect(e.exitCode).toBe(2);
    expect(e.file).toBe(f.results);
    expect(e.message).toContain('[0].segmentation');
    expect(e.message.split('expected').length - 1).toBe(1); // said once, not in the detail too
    expect(e.message.split('found').length - 1).toBe(1);
  });

  it('RLE counts that do not cover the mask', async () => {
    const f = files({ images: [image], categories: [cat], annotations: [ann(1, { iscrowd: 1, segmentation: { size: [40, 50], counts: [10, 20] } })] }, [{ image_id: 1, category_id: 3, bbox: [1, 1, 10, 10], score: 1 }]);
    const e = await failure('coco/segm', f);
    expect(e.exitCode).toBe(2);
    expect(e.message).toContain('annotations[0].segmentation');
  });

  it('masks measured and dropped while reading: a malformed one keeps its error, and its place among the others', async () => {
    const ok = { size: [40, 50], counts: encodeString(fromBox([2, 2, 9, 9], 40, 50)) };
    // result 0's mask is dropped (no ground truth of category 4 on image 1); result 1's string is malformed
    const results = [
      { image_id: 1, category_id: 4, segmentation: ok, score: 1 },
      { image_id: 1, category_id: 3, segmentation: { size: [40, 50], counts: '5:~' }, score: 0.5 },
      { image_id: 1, category_id: 3, segmentation: ok },
    ];
    const gt = { images: [image], categories: [cat, { id: 4, name: 'other' }], annotations: [ann(1)] };
    // a missing score is checked before the masks are (pycocotools' order of failure is kept)
    const first = await failure('coco/segm', files(gt, results));
    expect(first.message).toContain('[2].score');
    const e = await failure('coco/segm', files(gt, results.slice(0, 2)));
    expect(e.message).toContain('[1].segmentation');
    expect(e.message).toContain('5:~');
    // the same error as where nothing is dropped (result 0 on a category with ground truth)
    const kept = await failure('coco/segm', files(gt, [{ ...results[0], category_id: 3 }, results[1]]));
    expect(e.message.replace(/\S*results\.json/g, '')).toBe(kept.message.replace(/\S*results\.json/g, ''));
  });

  it('a segm result with an uncompressed RLE and no bbox (pycocotools: TypeError)', async () => {
    const f = files({ images: [image], categories: [cat], annotations: [ann(1)] }, [{ image_id: 1, category_id: 3, segmentation: { size: [40, 50], counts: [0, 2000] }, score: 1 }]);
    const e = await failure('coco/segm', f);
    expect(e.message).toContain('[0].segmentation');
    expect(e.message).toContain('compressed RLE');
  });

  it('results of unknown categories are ignored with one warning counting them', async () => {
    const det = { image_id: 1, bbox: [1, 1, 10, 10], score: 0.5 };
    const f = files({ images: [image], categories: [cat], annotations: [ann(1)] }, [{ ...det, category_id: 3 }, { ...det, category_id: 99 }, { ...det, category_id: 98 }]);
    const r = await run('coco/bbox', f);
    const w = r.diagnostics.filter((d) => /not in the ground truth/.test(d.message));
    expect(w).toHaveLength(1);
    expect(w[0].message).toMatch(/^.*2 result\(s\)/);
    expect(r.summary.AP).toBeGreaterThan(0.99);
  });

  it('an odd-length polygon is evaluated (last number dropped) with a warning', async () => {
    const f = files({ images: [image], categories: [cat], annotations: [ann(1, { segmentation: [[1, 1, 11, 1, 11, 11, 1, 11, 7]] })] }, [{ image_id: 1, category_id: 3, bbox: [1, 1, 10, 10], score: 1 }]);
    const r = await run('coco/segm', f);
    expect(r.diagnostics.some((d) => /odd number of coordinates/.test(d.message))).toBe(true);
  });

  it('a bbox result list whose later entry has no bbox (pycocotools: KeyError)', async () => {
    const f = files({ images: [image], categories: [cat], annotations: [ann(1)] }, [{ image_id: 1, category_id: 3, bbox: [1, 1, 10, 10], score: 1 }, { image_id: 1, category_id: 3, score: 1 }]);
    const e = await failure('coco/bbox', f);
    expect(e.message).toContain('[1].bbox');
  });

  it('usage errors: --max-dets with fewer than 3 values for bbox, a bad --area-rng, an unknown --fix', async () => {
    const f = files({ images: [image], categories: [cat], annotations: [ann(1)] }, []);
    for (const o of [{ maxDets: '1,10' }, { areaRng: 'all=0' }, { fix: 'everything' }, { useCats: 2 }]) {
      const e = await failure('coco/bbox', { ...f, ...o });
      expect(e.kind).toBe('usage');
      expect(e.exitCode).toBe(1);
    }
  });

  it('keypoint lists of the wrong length', async () => {
    const kp = Array.from({ length: 51 }, (_, i) => (i % 3 === 2 ? 2 : 5));
    const f = files(
      { images: [image], categories: [{ id: 1, name: 'person' }], annotations: [{ id: 1, image_id: 1, category_id: 1, area: 100, iscrowd: 0, bbox: [1, 1, 10, 10], keypoints: kp, num_keypoints: 17 }] },
      [{ image_id: 1, category_id: 1, keypoints: kp.slice(0, 48), score: 1 }],
    );
    const e = await failure('coco/keypoints', f);
    expect(e.message).toContain('[0].keypoints');
    expect(e.message).toContain('48 numbers');
  });

  it('the readers\' errors carry the package\'s codes (no generic input/invalid): file, entry, field, expected and found', async () => {
    const det = { image_id: 1, category_id: 3, bbox: [1, 1, 10, 10], score: 1 };
    const cases: [string, unknown, unknown, string, RegExp][] = [
      ['a GT without annotations', { images: [image], categories: [cat] }, [det], 'coco/file-layout', /annotations/],
      // a root of the other kind is the reader's JSON shape error (byte 0)
      ['a GT that is a list', [image], [det], 'input/json', /expected a JSON object.*found "\["/],
      ['results that are an object', { images: [image], categories: [cat], annotations: [ann(1)] }, { results: [det] }, 'input/json', /expected a JSON list.*found "\{"/],
      ['an annotation that is a number', { images: [image], categories: [cat], annotations: [7] }, [det], 'coco/field-type', /annotations\[0\].*found 7/],
      ['a string score', { images: [image], categories: [cat], annotations: [ann(1)] }, [{ ...det, score: 'high' }], 'coco/field-type', /\[0\]\.score.*high/],
      ['a GT without area', { images: [image], categories: [cat], annotations: [ann(1, { area: undefined })] }, [det], 'coco/missing-field', /annotations\[0\]\.area/],
      ['a result without score', { images: [image], categories: [cat], annotations: [ann(1)] }, [det, { ...det, score: undefined }], 'coco/missing-field', /\[1\]\.score/],
      ['a result with none of bbox, segmentation, keypoints', { images: [image], categories: [cat], annotations: [ann(1)] }, [{ image_id: 1, category_id: 3, score: 1 }], 'coco/missing-field', /\[0\].*none of them/],
    ];
    for (const [name, gt, results, code, message] of cases) {
      const f = files(gt, results);
      const e = await failure('coco/bbox', f);
      expect(e.code, name).toBe(code);
      expect(e.exitCode, name).toBe(2);
      expect(e.message, name).toMatch(message);
    }
    const kp = Array.from({ length: 51 }, (_, i) => (i % 3 === 2 ? 2 : 5));
    const person = { images: [image], categories: [{ id: 1, name: 'person' }], annotations: [{ id: 1, image_id: 1, category_id: 1, area: 100, iscrowd: 0, bbox: [1, 1, 10, 10], keypoints: kp, num_keypoints: 17 }] };
    const e = await failure('coco/keypoints', files(person, [{ image_id: 1, category_id: 1, keypoints: kp, score: 1 }, { image_id: 1, category_id: 1, score: 1 }]));
    expect([e.code, e.exitCode]).toEqual(['coco/keypoints', 2]);
    expect(e.message).toContain('[1].keypoints');
  });
});
