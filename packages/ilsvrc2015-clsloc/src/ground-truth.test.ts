import { copyFileSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRunContext, isDevkitError } from '@cvdevkit/core';
import { readAnnotationObjects, UNKNOWN_LABEL } from './annotation.js';
import { listAnnotationFiles, readGroundTruthBoxes } from './ground-truth.js';
import { builtInSynsets, readSynsetMap } from './meta.js';
import { writeSample } from './sample.js';
import { CLSLOC_WNIDS } from './synsets.js';
import { makeTempDir } from '@cvdevkit/test-utils';

const REAL = new URL('../../../fixtures/ilsvrc2015/real/', import.meta.url).pathname;
const synsets = builtInSynsets();

function xml(objects: string, head = '<folder>val</folder><filename>x</filename><source><database>d</database></source><size><width>9</width><height>9</height></size>'): string {
  return `<annotation>${head}${objects}</annotation>`;
}
const obj = (name: string, b: (string | number)[]) =>
  `<object><name>${name}</name><bndbox><xmin>${b[0]}</xmin><ymin>${b[1]}</ymin><xmax>${b[2]}</xmax><ymax>${b[3]}</ymax></bndbox></object>`;

describe('readAnnotationObjects', () => {
  it('maps WNIDs to their position in meta_clsloc.mat and reads boxes with str2double', () => {
    const a = readAnnotationObjects(xml(obj('n02119789', [1, 2, 3, 4]) + obj('n02100735', ['1.5', ' 2e1 ', 3, 4])), 'a.xml', synsets.labels);
    expect(a.labels).toEqual([1, 2]);
    expect(a.boxes).toEqual([1, 2, 3, 4, 1.5, 20, 3, 4]);
  });

  it('deletes line breaks inside values (VOCxml2struct)', () => {
    const a = readAnnotationObjects(xml(obj('n02119789', ['1\n0', 2, 3, 4])), 'a.xml', synsets.labels);
    expect(a.boxes[0]).toBe(10);
  });

  it('keeps an unknown WNID as an empty label (fails only when looked at)', () => {
    const a = readAnnotationObjects(xml(obj('n00000000', [1, 2, 3, 4])), 'a.xml', synsets.labels);
    expect(a.labels).toEqual([UNKNOWN_LABEL]);
    expect(a.unknownWnid).toBe('n00000000');
  });

  it('an image without <object> is the official rmfield failure; missing fields are reported together', () => {
    try {
      readAnnotationObjects('<annotation><folder>v</folder></annotation>', 'a.xml', synsets.labels);
      expect.unreachable();
    } catch (e) {
      expect(isDevkitError(e)).toBe(true);
      if (!isDevkitError(e)) return;
      expect(e.kind).toBe('input');
      expect(e.problems.map((p) => p.field)).toEqual(['annotation.filename', 'annotation.source.database', 'annotation.size', 'annotation.object']);
      expect(e.message).toContain('a.xml [annotation.object]');
    }
  });

  it('rejects junk coordinates and a missing bndbox', () => {
    try {
      readAnnotationObjects(xml(obj('n02119789', [1, 'abc', 3, 4]) + '<object><name>n02119789</name></object>'), 'a.xml', synsets.labels);
      expect.unreachable();
    } catch (e) {
      if (!isDevkitError(e)) throw e;
      expect(e.problems.map((p) => p.field)).toEqual(['annotation.object(1).bndbox.ymin', 'annotation.object(2).bndbox']);
    }
  });
});

describe('readGroundTruthBoxes', () => {
  it('lists *.xml in ASCII order, ignoring other files', () => {
    const dir = makeTempDir('clsloc-list-');
    for (const f of ['b.xml', 'B.xml', 'a.xml', 'a.txt', '.hidden.xml', '_.xml']) writeFileSync(join(dir, f), '');
    mkdirSync(join(dir, 'sub.xml'));
    expect(listAnnotationFiles(dir)).toEqual(['B.xml', '_.xml', 'a.xml', 'b.xml']);
  });

  it('reads an Annotations directory and caches the parse (keyed by sizes and mtimes)', async () => {
    const dir = makeTempDir('clsloc-gt-');
    const options = await writeSample(dir);
    const cacheDir = join(dir, 'cache');
    const a = await readGroundTruthBoxes(options.gt!, synsets, createRunContext({ workers: 1, cacheDir }));
    expect(a.fromCache).toBeUndefined();
    expect(a.images).toBe(8);
    const b = await readGroundTruthBoxes(options.gt!, synsets, createRunContext({ workers: 1, cacheDir }));
    expect(b.fromCache).toBe(true);
    expect(Array.from(b.offsets)).toEqual(Array.from(a.offsets));
    expect(Array.from(b.labels)).toEqual(Array.from(a.labels));
    expect(Array.from(b.boxes)).toEqual(Array.from(a.boxes));
    // a changed file invalidates the cache
    writeFileSync(join(options.gt!, 'ILSVRC2012_val_00000001.xml'), xml(obj('n02119789', [1, 2, 3, 4]) + obj('n02119789', [5, 6, 7, 8])));
    const c = await readGroundTruthBoxes(options.gt!, synsets, createRunContext({ workers: 1, cacheDir }));
    expect(c.fromCache).toBeUndefined();
    expect(c.offsets[1]).toBe(2);
  });

  it('a cache file of another folder copied over this one is not used (issue 25 item 2)', async () => {
    const dirA = makeTempDir('clsloc-swap-a-');
    const dirB = makeTempDir('clsloc-swap-b-');
    const a = await writeSample(dirA);
    const b = await writeSample(dirB);
    writeFileSync(join(b.gt!, 'ILSVRC2012_val_00000001.xml'), xml(obj('n02119789', [11, 12, 13, 14])));
    const truthB = await readGroundTruthBoxes(b.gt!, synsets, createRunContext({ workers: 1 }));
    const cacheDir = join(dirA, 'cache');
    await readGroundTruthBoxes(a.gt!, synsets, createRunContext({ workers: 1, cacheDir }));
    const [aFile] = readdirSync(cacheDir);
    await readGroundTruthBoxes(b.gt!, synsets, createRunContext({ workers: 1, cacheDir }));
    const bFile = readdirSync(cacheDir).find((f) => f !== aFile)!;
    copyFileSync(join(cacheDir, aFile), join(cacheDir, bFile));
    const logs: string[] = [];
    const again = await readGroundTruthBoxes(b.gt!, synsets, createRunContext({ workers: 1, cacheDir, log: (m) => void logs.push(m) }));
    expect(again.fromCache).toBeUndefined();
    expect(Array.from(again.boxes)).toEqual(Array.from(truthB.boxes));
    expect(logs).toHaveLength(1);
  });

  it('worker threads + this thread give the same arrays as one thread (1,600 files)', async () => {
    const dir = makeTempDir('clsloc-many-');
    for (let i = 0; i < 1600; i++) {
      const objs = Array.from({ length: 1 + (i % 3) }, (_, k) => obj(CLSLOC_WNIDS[(i * 7 + k) % 1000], [i, k, i + 10 + k, k + 20]));
      writeFileSync(join(dir, `im_${String(i).padStart(5, '0')}.xml`), xml(objs.join('')));
    }
    const one = await readGroundTruthBoxes(dir, synsets, createRunContext({ workers: 1 }));
    const two = await readGroundTruthBoxes(dir, synsets, createRunContext({ workers: 3 }));
    expect(two.images).toBe(1600);
    expect(Array.from(two.offsets)).toEqual(Array.from(one.offsets));
    expect(Array.from(two.labels)).toEqual(Array.from(one.labels));
    expect(Array.from(two.boxes)).toEqual(Array.from(one.boxes));
    expect(two.labels[two.offsets[1599]]).toBe(((1599 * 7) % 1000) + 1);
  });

  it('collects the problems of every annotation file', async () => {
    const dir = makeTempDir('clsloc-bad-');
    writeFileSync(join(dir, '1.xml'), xml(''));
    writeFileSync(join(dir, '2.xml'), xml(obj('n02119789', [1, 2, 3, 4])));
    writeFileSync(join(dir, '3.xml'), '<annotation><folder>');
    try {
      await readGroundTruthBoxes(dir, synsets, createRunContext({ workers: 1 }));
      expect.unreachable();
    } catch (e) {
      if (!isDevkitError(e)) throw e;
      expect(e.problems.map((p) => p.file)).toEqual([join(dir, '1.xml'), join(dir, '3.xml')]);
    }
  });

  it('reads the real rec cache: 50,000 images, 80,477 boxes', async () => {
    const gt = await readGroundTruthBoxes(join(REAL, 'ILSVRC2015_clsloc_validation_ground_truth.mat'), synsets, createRunContext({ workers: 1 }));
    expect(gt.kind).toBe('mat');
    expect(gt.images).toBe(50000);
    expect(gt.labels.length).toBe(80477);
    // rec(1): label 490, bbox [111 108 441 193]; rec(2): two boxes of 361
    expect(gt.labels[0]).toBe(490);
    expect(Array.from(gt.boxes.subarray(0, 4))).toEqual([111, 108, 441, 193]);
    expect(Array.from(gt.labels.subarray(gt.offsets[1], gt.offsets[2]))).toEqual([361, 361]);
  });

  it('a missing path is an input error', async () => {
    await expect(readGroundTruthBoxes('/nonexistent/Annotations', synsets, createRunContext())).rejects.toMatchObject({ kind: 'input', code: 'input/missing-file' });
  });
});

describe('synset maps', () => {
  it('the built-in map equals the real meta_clsloc.mat and map_clsloc.txt', () => {
    const mat = readSynsetMap(join(REAL, 'meta_clsloc.mat'));
    const txt = readSynsetMap(join(REAL, 'map_clsloc.txt'));
    expect(mat.count).toBe(1000);
    expect([...mat.labels]).toEqual([...synsets.labels]);
    expect([...txt.labels].sort()).toEqual([...synsets.labels].sort());
  });
});
