import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRunContext } from '@cvdevkit/core';
import { readGroundTruthCache } from '@cvdevkit/ilsvrc2015-common';
import { vidTask, type IlsvrcVidOptions } from '../src/index.js';
import { expectReportMatches, readExpected } from '@cvdevkit/test-utils/ilsvrc-expected';

const FIX = join(import.meta.dirname, '../../../fixtures/ilsvrc2015');
const REAL = join(import.meta.dirname, '../../../fixtures/ilsvrc2015/real');
const ctx = () => createRunContext({ workers: 1 });

function caseOptions(dir: string, meta = 'meta.mat'): IlsvrcVidOptions {
  const o: IlsvrcVidOptions = { pred: join(dir, 'pred.txt'), meta: join(dir, meta), list: join(dir, 'val.txt'), gt: join(dir, 'Annotations') };
  if (existsSync(join(dir, 'blacklist.txt'))) o.blacklist = join(dir, 'blacklist.txt');
  return o;
}

describe('ilsvrc2015/vid golden fixtures (eval_vid_detection.m, STMN copy)', () => {
  for (const name of ['vid_edge', 'vid_pred_outside_list']) {
    for (const meta of ['meta.mat', 'synsets.txt']) {
      it(`${name} (${meta}) matches`, async () => {
        const dir = join(FIX, name);
        const report = await vidTask.evaluate(caseOptions(dir, meta), ctx());
        expectReportMatches(report, readExpected(join(dir, 'expected.json')));
      });
    }
  }

  it('vid_pred_outside_list: the detections on frames outside the list are dropped, with a diagnostic', async () => {
    const report = await vidTask.evaluate(caseOptions(join(FIX, 'vid_pred_outside_list')), ctx());
    expect((report.extra as { dropped: number }).dropped).toBeGreaterThan(0);
    expect(report.diagnostics.some((d) => d.code === 'ilsvrc/dropped')).toBe(true);
  });

  it('--exclude-generated leaves out frames with generated boxes (readme wording), needs XML', async () => {
    const dir = join(FIX, 'vid_edge');
    const official = await vidTask.evaluate(caseOptions(dir), ctx());
    const readme = await vidTask.evaluate({ ...caseOptions(dir), excludeGenerated: true }, ctx());
    const npos = (r: typeof official) => r.rows.reduce((s, row) => s + (row.npos as number), 0);
    expect(npos(readme)).toBeLessThan(npos(official));
    expect(readme.diagnostics.some((d) => d.code === 'ilsvrc/excluded-generated')).toBe(true);
    await expect(
      vidTask.evaluate({ ...caseOptions(dir), gt: join(REAL, 'ILSVRC2015_vid_validation_ground_truth.mat'), excludeGenerated: true }, ctx()),
    ).rejects.toMatchObject({ kind: 'usage' });
  });
});

describe('the official VID ground-truth caches', () => {
  it('reads the STMN subset cache and the whole cache (frames, boxes, num_pos_per_class)', () => {
    const sub = readGroundTruthCache(join(REAL, 'ILSVRC2015_vid_validation_ground_truth.mat'));
    expect(sub.imageIds.length).toBe(19953);
    expect(sub.numPos.length).toBe(30);
    const whole = readGroundTruthCache(join(REAL, 'ILSVRC2015_vid_validation_ground_truth_whole.mat'));
    expect(whole.imageIds.length).toBe(176126);
    expect(whole.labels.length).toBe(273505);
    expect(whole.numPos.reduce((a, b) => a + b, 0)).toBe(273505);
  });

  it('perfect detections of every box of the subset cache give AP 1 for each class with positives', async () => {
    const cache = join(REAL, 'ILSVRC2015_vid_validation_ground_truth.mat');
    const gt = readGroundTruthCache(cache);
    const lines: string[] = [];
    for (let i = 0; i < gt.imageIds.length; i++) {
      for (let k = gt.objStart[i]; k < gt.objStart[i + 1]; k++) lines.push(`${gt.imageIds[i]} ${gt.labels[k]} 1 ${Array.from(gt.boxes.subarray(4 * k, 4 * k + 4)).join(' ')}`);
    }
    const tmp = mkdtempSync(join(tmpdir(), 'vid-'));
    try {
      writeFileSync(join(tmp, 'pred.txt'), lines.join('\n'));
      const report = await vidTask.evaluate({ pred: join(tmp, 'pred.txt'), meta: join(REAL, 'meta_vid.mat'), list: '', gt: cache }, ctx());
      for (const row of report.rows) expect(row.ap).toBe((row.npos as number) > 0 ? 1 : 0);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});

describe('ilsvrc2015/vid sample', () => {
  it('writes a case that evaluates', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'vid-sample-'));
    try {
      const opts = await vidTask.sample!(tmp);
      const report = await vidTask.evaluate(opts, ctx());
      expect(report.rows.length).toBeGreaterThan(0);
      expect(report.summary.meanAP).toBeGreaterThan(0);
      expect(report.diagnostics.some((d) => d.code === 'ilsvrc/dropped')).toBe(true);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
