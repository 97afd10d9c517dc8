/**
 * A hurried user's path mistakes: the error says what is missing (exit 2) and the hint what is there
 * (the VOC2010 folder one level down or up, the image sets, the results prefixes).
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createRunContext, isDevkitError, type DevkitError } from '@cvdevkit/core';
import { makeTempDir, removeTempDirs } from '@cvdevkit/test-utils';
import plugin from './index.js';
import { imageSetHint, resultsHint, rootHint } from './path-hints.js';

const MEDIUM = fileURLToPath(new URL('../../../fixtures/voc2010/medium', import.meta.url));
const tmp = makeTempDir('cvdevkit-hints-');
afterAll(removeTempDirs);

// tmp/VOCdevkit/VOC2010 → the medium fixture's dataset; tmp/VOCdevkit/results → its results
const devkit = join(tmp, 'VOCdevkit');
mkdirSync(devkit);
symlinkSync(join(MEDIUM, 'VOC2010'), join(devkit, 'VOC2010'), 'dir');
symlinkSync(join(MEDIUM, 'results'), join(devkit, 'results'), 'dir');

async function failure(task: 'voc2010/det' | 'voc2010/cls' | 'voc2010/seg', options: Record<string, string>): Promise<DevkitError> {
  const e = await plugin.tasks[task].evaluate({ root: devkit, ...options } as never, createRunContext({ workers: 1 })).then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!isDevkitError(e)) throw new Error(`expected a DevkitError, got ${String(e)}`);
  expect(e.exitCode).toBe(2);
  return e;
}

describe('--root one level off', () => {
  it('too shallow: the folder holding VOCdevkit/VOC2010 is named', async () => {
    const e = await failure('voc2010/det', { root: tmp });
    expect(e.code).toBe('input/missing-folder');
    expect(e.found).toBe('no VOC2010/ and no ImageSets/ in it');
    expect(e.hint).toMatch(/one level too shallow\? found .*VOCdevkit\/VOC2010\/: use --root .*VOCdevkit$/);
  });

  it('too deep (VOC2010/JPEGImages, VOC2010/ImageSets/Main): the devkit above is named', async () => {
    for (const deep of [join(devkit, 'VOC2010', 'Annotations'), join(devkit, 'VOC2010', 'ImageSets', 'Main')]) {
      const e = await failure('voc2010/det', { root: deep });
      expect(e.code).toBe('input/missing-folder');
      expect(e.hint).toMatch(/too deep\? found .*ImageSets\/ above it: use --root .*VOCdevkit$/);
    }
  });

  it('several candidates one level down: all named', () => {
    const two = join(tmp, 'two');
    for (const d of ['a', 'b']) {
      mkdirSync(join(two, d, 'VOC2010', 'ImageSets'), { recursive: true });
    }
    expect(rootHint(two)).toMatch(/VOC2010\/ found in a, b: use --root .*two\/a \(or another of them\)/);
    expect(rootHint(join(tmp, 'two', 'a', 'VOC2010', 'ImageSets'))).toMatch(/too deep/);
    mkdirSync(join(tmp, 'nothing'));
    expect(rootHint(join(tmp, 'nothing'))).toBeUndefined();
  });
});

describe('a wrong --set', () => {
  it('det and seg list the image sets present', async () => {
    const det = await failure('voc2010/det', { set: 'vall' });
    expect(det.code).toBe('input/missing-file');
    expect(det.message).toContain('ImageSets/Main/vall.txt: expected an image-set list, found no such file');
    expect(det.hint).toBe('image sets present: train, trainval, val; choose one with --set');
    const seg = await failure('voc2010/seg', { set: 'vall' });
    expect(seg.hint).toBe('image sets present: train, trainval, val; choose one with --set');
  });

  it('cls: each hint once (20 class lists and 20 results files missing)', async () => {
    const e = await failure('voc2010/cls', { set: 'vall' });
    expect(e.problems).toHaveLength(40);
    const hints = e.problems.filter((p) => p.hint !== undefined).map((p) => p.hint);
    expect(hints).toHaveLength(2);
    expect(hints[0]).toContain('image sets present: train, trainval, val');
    expect(hints[1]).toContain('results present: comp1_cls_val_*, comp3_det_val_*');
  });

  it('an empty or missing image-set folder says so', () => {
    const sets = join(tmp, 'sets', 'ImageSets');
    mkdirSync(join(sets, 'Main'), { recursive: true });
    expect(imageSetHint(join(sets, 'Main', 'val.txt'))).toMatch(/holds no image set$/);
    expect(imageSetHint(join(sets, 'Layout', 'val.txt'))).toBe('no Layout/ image sets here; folders present: Main');
  });
});

describe('a wrong --comp', () => {
  it('det lists the results prefixes present, once', async () => {
    const e = await failure('voc2010/det', { comp: 'comp4' });
    expect(e.problems).toHaveLength(20);
    expect(e.problems[0].found).toBe('no such file');
    expect(e.problems[0].hint).toBe('results present: comp1_cls_val_*, comp3_det_val_* (names are <comp>_<task>_<set>…); check --comp (comp1, comp3 here) and --set');
    expect(e.problems.slice(1).every((p) => p.hint === undefined)).toBe(true);
  });

  it('a missing results folder is named', () => {
    const res = join(tmp, 'res');
    mkdirSync(join(res, 'Main'), { recursive: true });
    writeFileSync(join(res, 'Main', 'comp2_det_test_car.txt'), '');
    expect(resultsHint(join(res, 'Main', 'comp3_det_val_car.txt'))).toContain('results present: comp2_det_test_*');
    expect(resultsHint(join(res, 'Layout', 'comp7_layout_val.xml'))).toMatch(/no Layout\/ results folder in .*res \(--results <folder>\)/);
  });
});
