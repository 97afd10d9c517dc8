import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ILSVRC_REAL, fixtureDir, fixturePath } from '@cvdevkit/test-utils';
import { describe, expect, it } from 'vitest';
import { createRunContext, isDevkitError } from '@cvdevkit/core';
import { readGroundTruthCache, readGroundTruthXml, readImageList, readSynsets, smallObjectThreshold } from '../src/index.js';

const FIX = fixturePath('ilsvrc2015');
const REAL = ILSVRC_REAL;
const distBuilt = existsSync(join(import.meta.dirname, '../dist/annotations.worker.js'));

describe('meta files', () => {
  it('reads the real meta_det.mat: 200 synsets, ids = positions', () => {
    const s = readSynsets(join(REAL, 'meta_det.mat'));
    expect(s.wnids).toHaveLength(200);
    expect(s.wnids[0]).toBe('n02672831');
    expect(s.names[0]).toBe('accordion');
    expect(s.ids.every((id, i) => id === i + 1)).toBe(true);
    expect(s.labelOf.get('n02691156')).toBe(2);
  });
  it('synsets.txt and meta.mat of a fixture agree', () => {
    const a = readSynsets(join(FIX, 'det_rand_small/meta.mat'));
    const b = readSynsets(join(FIX, 'det_rand_small/synsets.txt'));
    expect(b.wnids).toEqual(a.wnids);
    expect(b.names).toEqual(a.names);
  });
});

describe('small-object threshold', () => {
  it('follows the spec examples', () => {
    expect(smallObjectThreshold(1, 1, 25, 25)).toBe(0.5);
    expect(smallObjectThreshold(1, 1, 24, 24)).toBeCloseTo(0.4983, 4);
    expect(smallObjectThreshold(1, 1, 10, 10)).toBe(0.25);
    expect(smallObjectThreshold(1, 1, 1, 1)).toBe(1 / 121);
    expect(smallObjectThreshold(NaN, 1, 1, 1)).toBe(0.5);
  });
});

describe('ground truth', () => {
  it('the XML of det_real_val2 equals the rows of the official 2015 cache', async () => {
    const dir = fixtureDir('ilsvrc2015/det_real_val2');
    const syn = readSynsets(join(dir, 'meta.mat'));
    const list = readImageList(join(dir, 'val.txt'));
    const xml = await readGroundTruthXml(join(dir, 'Annotations'), list, syn, createRunContext({ workers: 1 }));
    const cache = readGroundTruthCache(join(REAL, 'ILSVRC2015_det_validation_ground_truth.mat'));
    const full = readImageList(join(REAL, 'det_val.txt'));
    const row = new Map(full.names.map((n, i) => [n, i]));
    let compared = 0;
    for (let i = 0; i < list.names.length; i++) {
      const j = row.get(list.names[i])!;
      const a = [xml.objStart[i], xml.objStart[i + 1]];
      const b = [cache.objStart[j], cache.objStart[j + 1]];
      expect(a[1] - a[0]).toBe(b[1] - b[0]);
      expect(Array.from(xml.labels.subarray(a[0], a[1]))).toEqual(Array.from(cache.labels.subarray(b[0], b[1])));
      expect(Array.from(xml.boxes.subarray(4 * a[0], 4 * a[1]))).toEqual(Array.from(cache.boxes.subarray(4 * b[0], 4 * b[1])));
      expect(Array.from(xml.thr.subarray(a[0], a[1]))).toEqual(Array.from(cache.thr.subarray(b[0], b[1])));
      compared++;
    }
    expect(compared).toBe(9917);
  });

  it.skipIf(!distBuilt)('worker threads and the parse cache give the same ground truth', async () => {
    const dir = fixtureDir('ilsvrc2015/det_real_val2');
    const syn = readSynsets(join(dir, 'meta.mat'));
    const list = readImageList(join(dir, 'val.txt'));
    const one = await readGroundTruthXml(join(dir, 'Annotations'), list, syn, createRunContext({ workers: 1 }));
    const cacheDir = mkdtempSync(join(tmpdir(), 'ilsvrc-gt-cache-'));
    try {
      const two = await readGroundTruthXml(join(dir, 'Annotations'), list, syn, createRunContext({ workers: 2, cacheDir }));
      expect(readdirSync(cacheDir)).toHaveLength(1);
      const cached = await readGroundTruthXml(join(dir, 'Annotations'), list, syn, createRunContext({ workers: 2, cacheDir }));
      for (const g of [two, cached]) {
        expect(g.objStart).toEqual(one.objStart);
        expect(g.labels).toEqual(one.labels);
        expect(g.boxes).toEqual(one.boxes);
        expect(g.numPos).toEqual(one.numPos);
        expect(g.imageWidth).toEqual(one.imageWidth);
        expect(g.imageHeight).toEqual(one.imageHeight);
      }
      expect(one.imageWidth!.every((w, i) => w > 0 && one.imageHeight![i] > 0)).toBe(true);
    } finally {
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });

  it('an unknown WNID in an XML names the file and the object', async () => {
    const dir = join(FIX, 'errors/det_gt_unknown_wnid');
    const syn = readSynsets(join(dir, 'meta.mat'));
    const list = readImageList(join(dir, 'val.txt'));
    const err = await readGroundTruthXml(join(dir, 'Annotations'), list, syn, createRunContext({ workers: 1 })).catch((e: unknown) => e);
    expect(isDevkitError(err)).toBe(true);
    expect((err as Error).message).toMatch(/\.xml \[annotation\.object\(1\)\.name\]: .*expected a WNID of the meta file, found "n/);
  });
});
