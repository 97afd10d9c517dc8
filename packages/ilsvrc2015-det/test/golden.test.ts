import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ILSVRC_REAL, fixtureDir, fixturePath, readFixtureJson } from '@cvdevkit/test-utils';
import { describe, expect, it } from 'vitest';
import { createRunContext, isDevkitError, type DevkitError } from '@cvdevkit/core';
import { detTask, type IlsvrcDetOptions } from '../src/index.js';
import { close, expectReportMatches, readExpected } from '@cvdevkit/test-utils/ilsvrc-expected';

const FIX = fixturePath('ilsvrc2015');
const REAL = ILSVRC_REAL;

function caseOptions(dir: string, meta = 'meta.mat'): IlsvrcDetOptions {
  const o: IlsvrcDetOptions = { pred: join(dir, 'pred.txt'), meta: join(dir, meta), list: join(dir, 'val.txt'), gt: join(dir, 'Annotations') };
  if (existsSync(join(dir, 'blacklist.txt'))) o.blacklist = join(dir, 'blacklist.txt');
  return o;
}

const ctx = () => createRunContext({ workers: 1 });

describe('ilsvrc2015/det golden fixtures', () => {
  for (const name of ['det_edge', 'det_edge_zero_gt', 'det_rand_small', 'det_rand_unsorted_list']) {
    it(`${name} matches the official eval_detection.m`, async () => {
      const dir = join(FIX, name);
      const report = await detTask.evaluate(caseOptions(dir), ctx());
      expectReportMatches(report, readExpected(join(dir, 'expected.json')));
    });
    it(`${name} with the plain-text synsets.txt meta gives the same numbers`, async () => {
      const dir = join(FIX, name);
      const report = await detTask.evaluate(caseOptions(dir, 'synsets.txt'), ctx());
      expectReportMatches(report, readExpected(join(dir, 'expected.json')));
    });
  }

  it('det_real_val2 (9,917 real XMLs) matches', async () => {
    const dir = fixtureDir('ilsvrc2015/det_real_val2');
    const report = await detTask.evaluate(caseOptions(dir), createRunContext({ workers: 2 }));
    expectReportMatches(report, readExpected(join(dir, 'expected.json')));
  });

  it('the published demo via the ground-truth cache: mean 0.590, median 0.601, every class and curve', async () => {
    const report = await detTask.evaluate(
      {
        pred: join(REAL, 'demo.val.pred.det.txt'),
        meta: join(REAL, 'meta_det.mat'),
        list: join(REAL, 'det_val.txt'),
        gt: join(REAL, 'ILSVRC2015_det_validation_ground_truth.mat'),
        blacklist: join(REAL, 'ILSVRC2015_det_validation_blacklist.txt'),
      },
      ctx(),
    );
    close(report.summary.meanAP, 0.5900608141381709, 'meanAP');
    close(report.summary.medianAP, 0.601198743524221, 'medianAP');
    const demo = readExpected(join(REAL, 'demo_det_expected.json')) as unknown as {
      mean_ap: number;
      median_ap: number;
      per_class: { id: number; wnid: string; name: string; ap: number; num_dets: number; final_recall: number; final_precision: number }[];
    };
    close(report.summary.meanAP, demo.mean_ap, 'meanAP');
    close(report.summary.medianAP, demo.median_ap, 'medianAP');
    expect(report.rows).toHaveLength(200);
    for (const pc of demo.per_class) {
      const row = report.rows[pc.id - 1];
      expect(row.key).toBe(pc.wnid);
      expect(row.name).toBe(pc.name);
      close(row.ap as number, pc.ap, `ap of ${pc.wnid}`);
      expect(row.ndet).toBe(pc.num_dets);
    }
    const curves = readFixtureJson('ilsvrc2015/real/demo_det_pr_curves.json') as { id: number; recall: unknown; precision: unknown }[];
    const { curve } = await import('@cvdevkit/test-utils/ilsvrc-expected');
    for (const c of curves) {
      const cv = report.curves[c.id - 1];
      const rec = curve(c.recall);
      const prec = curve(c.precision);
      expect(cv.recall!.length).toBe(rec.length);
      for (let i = 0; i < rec.length; i++) close(cv.recall![i], rec[i], `recall[${i}] of ${c.id}`);
      for (let i = 0; i < prec.length; i++) close(cv.precision![i], prec[i], `precision[${i}] of ${c.id}`);
    }
  });
});

describe('ilsvrc2015/det bad input (the official code fails) → DevkitError kind input', () => {
  for (const name of ['det_blacklist_unknown_wnid', 'det_empty_pred', 'det_gt_unknown_wnid', 'det_pred_outside_list']) {
    it(name, async () => {
      const dir = join(FIX, 'errors', name);
      expect(readExpected(join(dir, 'expected.json')).ok).toBe(false);
      let err: unknown;
      try {
        await detTask.evaluate(caseOptions(dir), ctx());
      } catch (e) {
        err = e;
      }
      expect(isDevkitError(err), String(err)).toBe(true);
      const d = err as DevkitError;
      expect(d.kind).toBe('input');
      expect(d.exitCode).toBe(2);
      expect(d.problems[0].file).toBeTruthy();
    });
  }
});

// The VID fixtures carry what the official eval_detection.m gives on them (expected_eval_detection.json).
describe('ilsvrc2015/vid fixtures through the DET task', () => {
  it('vid_edge through the DET task equals eval_detection.m (expected_eval_detection.json)', async () => {
    const dir = join(FIX, 'vid_edge');
    const exp = readExpected(join(dir, 'expected_eval_detection.json'));
    const report = await detTask.evaluate(caseOptions(dir), ctx());
    expectReportMatches(report, exp);
  });

  it('vid_pred_outside_list through the DET task is an input error (eval_detection.m fails)', async () => {
    const dir = join(FIX, 'vid_pred_outside_list');
    expect(readExpected(join(dir, 'expected_eval_detection.json')).ok).toBe(false);
    await expect(detTask.evaluate(caseOptions(dir), ctx())).rejects.toMatchObject({ kind: 'input', code: 'input/unknown-image' });
  });
});
