/**
 * `analyze ilsvrc2015/det`: the overlap sweep at 0.5 and the TIDE official-mode baseline are the official
 * per-class APs, bit for bit, on every DET fixture and the real demo; the Hoiem types add up to the FPs;
 * without a hierarchy in the meta file no class is similar.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ILSVRC_REAL, fixturePath } from '@cvdevkit/test-utils';
import { describe, expect, it } from 'vitest';
import { createRunContext, type Report } from '@cvdevkit/core';
import type { HoiemResult, OverlapResult, TideResult } from '@cvdevkit/analysis';
import { detTask, type IlsvrcDetOptions } from '../src/index.js';

const FIX = fixturePath('ilsvrc2015');
const ctx = () => createRunContext({ workers: 1 });
const same = (a: unknown, b: unknown): boolean => Object.is(a, b) || (a === null && Number.isNaN(b)) || (b === null && Number.isNaN(a));

function caseOptions(dir: string): IlsvrcDetOptions {
  const o: IlsvrcDetOptions = { pred: join(dir, 'pred.txt'), meta: join(dir, 'meta.mat'), list: join(dir, 'val.txt'), gt: join(dir, 'Annotations') };
  if (existsSync(join(dir, 'blacklist.txt'))) o.blacklist = join(dir, 'blacklist.txt');
  return o;
}

async function expectAnchors(options: IlsvrcDetOptions, where: string): Promise<Report> {
  const official = await detTask.evaluate(options, ctx());
  const report = await detTask.analyze!({ ...options, only: 'overlap,hoiem,tide' }, ctx());
  const a = report.analysis as { overlap: OverlapResult; tide: TideResult; hoiem: HoiemResult };
  const at = a.overlap.thresholds.indexOf(0.5);
  expect(report.rows).toHaveLength(official.rows.length);
  official.rows.forEach((row, c) => {
    expect(report.rows[c].key).toBe(row.key);
    expect(same(a.overlap.perClass[c].ap[at], row.ap), `${where} ${row.key}: ${a.overlap.perClass[c].ap[at]} vs ${row.ap}`).toBe(true);
    expect(same(a.tide.perClass[c].ap, row.ap), `${where} ${row.key} tide baseline`).toBe(true);
    const h = a.hoiem.perClass[c];
    expect(h.counts.Loc + h.counts.Sim + h.counts.Oth + h.counts.BG, `${where} ${row.key} Hoiem types`).toBe(report.rows[c].fp);
  });
  expect(same(a.tide.ap, official.summary.meanAP)).toBe(true);
  return report;
}

describe('ilsvrc2015/det analyze anchors', () => {
  for (const name of ['det_edge', 'det_edge_zero_gt', 'det_rand_small', 'det_rand_unsorted_list']) {
    it(`${name}: overlap@0.5 and the TIDE baseline are the official APs`, async () => {
      await expectAnchors(caseOptions(join(FIX, name)), name);
    });
  }

  it('the real demo (49k detections, 200 classes): anchors hold; no hierarchy in its meta', async () => {
    const report = await expectAnchors(
      {
        pred: join(ILSVRC_REAL, 'demo.val.pred.det.txt'),
        meta: join(ILSVRC_REAL, 'meta_det.mat'),
        list: join(ILSVRC_REAL, 'det_val.txt'),
        gt: join(ILSVRC_REAL, 'ILSVRC2015_det_validation_ground_truth.mat'),
        blacklist: join(ILSVRC_REAL, 'ILSVRC2015_det_validation_blacklist.txt'),
      },
      'demo',
    );
    // The fixture's meta_det.mat holds the 200 classes without the hierarchy: nothing is similar, and the report says so.
    expect(report.extra!.similarGroups).toBe(0);
    expect((report.analysis as { hoiem: HoiemResult }).hoiem.overall.counts.Sim).toBe(0);
    expect(String((report.analysis as { notes: string[] }).notes)).toMatch(/no hierarchy/);
  });
});
