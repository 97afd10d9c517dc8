/**
 * ADE20K boundaries: a replicate from the per-image counts equals the official evaluation of the
 * materialised replicate (each image's GT .mat and prediction PNGs copied once per copy under names that
 * sort consecutively after the original), bit for bit, on a few classes of the tiny fixture.
 */
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRunContext, type Report, type TaskDefinition } from '@cvdevkit/core';
import type { PerImageStats } from '@cvdevkit/metrics';
import ade from '@cvdevkit/ade20k-boundary';
import { fixturePath, makeTempDir } from '@cvdevkit/test-utils';

const ROOT = fixturePath('ade20k', 'tiny');
const GT = join(ROOT, 'annotations_boundary', 'validation');
const PRED = join(ROOT, 'predictions_boundary', 'validation');
const CLASSES = '1,3,13,30,51';
const task = ade.tasks['ade20k/boundary'] as unknown as TaskDefinition;

describe('ade20k/boundary replicate = official metric on the materialised replicate', () => {
  it('bit for bit (F-ODS per class) on a replicate with a repeated and a missing image', async () => {
    const report: Report = await task.evaluate({ gt: GT, pred: PRED, classes: CLASSES }, createRunContext({ workers: 2, perImage: true }));
    const stats = report.extra!.perImage as PerImageStats;
    const rep = await task.replicate!(stats);
    const images = readdirSync(GT).filter((f) => f.endsWith('.mat')).map((f) => f.slice(0, -4)).sort();
    expect(images.length).toBe(stats.images);
    const w = Uint32Array.from([2, 0, 1]);
    const out = new Float64Array(rep.classes.length);
    rep.evaluate(w, out);
    const dir = makeTempDir('cvdevkit-replicate-');
    mkdirSync(join(dir, 'gt'));
    const classDirs = readdirSync(PRED);
    for (const c of classDirs) mkdirSync(join(dir, 'pred', c), { recursive: true });
    images.forEach((im, i) => {
      for (let k = 0; k < w[i]; k++) {
        const copy = `${im}_c${k}`;
        copyFileSync(join(GT, `${im}.mat`), join(dir, 'gt', `${copy}.mat`));
        for (const c of classDirs) copyFileSync(join(PRED, c, `${im}.png`), join(dir, 'pred', c, `${copy}.png`));
      }
    });
    const official = await task.evaluate({ gt: join(dir, 'gt'), pred: join(dir, 'pred'), classes: CLASSES }, createRunContext({ workers: 2 }));
    expect(official.rows.map((r) => r.key)).toEqual(rep.classes);
    official.rows.forEach((r, k) => expect(Object.is(r.odsF, out[k]), `${r.key}: ${r.odsF} vs ${out[k]}`).toBe(true));
  });
});
