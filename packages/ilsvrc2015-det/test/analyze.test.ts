/**
 * `analyze ilsvrc2015/det`: the overlap sweep at 0.5, the size analysis at 0 (XML ground truth) and the TIDE
 * official-mode baseline are the official per-class APs, bit for bit, on every DET fixture and the real demo; the Hoiem types add up to the FPs;
 * without a hierarchy in the meta file no class is similar.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ILSVRC_REAL, fixtureDir, fixturePath, makeTempDir, removeTempDirs } from '@cvdevkit/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { createRunContext, type Report } from '@cvdevkit/core';
import { runAnalysis, type HoiemResult, type OverlapResult, type SizeResult, type TideResult } from '@cvdevkit/analysis';
import { detTask, type IlsvrcDetOptions } from '../src/index.js';

const FIX = fixturePath('ilsvrc2015');
const ctx = () => createRunContext({ workers: 1 });
const same = (a: unknown, b: unknown): boolean => Object.is(a, b) || (a === null && Number.isNaN(b)) || (b === null && Number.isNaN(a));

function caseOptions(dir: string): IlsvrcDetOptions {
  const o: IlsvrcDetOptions = { pred: join(dir, 'pred.txt'), meta: join(dir, 'meta.mat'), list: join(dir, 'val.txt'), gt: join(dir, 'Annotations') };
  if (existsSync(join(dir, 'blacklist.txt'))) o.blacklist = join(dir, 'blacklist.txt');
  return o;
}

async function expectAnchors(options: IlsvrcDetOptions, where: string, sections = 'overlap,hoiem,tide', context = ctx): Promise<Report> {
  const official = await detTask.evaluate(options, context());
  const report = runAnalysis(await detTask.analyze!({ ...options, only: sections }, context()), { only: sections });
  const a = report.analysis as { overlap: OverlapResult; tide: TideResult; hoiem: HoiemResult; size?: SizeResult };
  const at = a.overlap.thresholds.indexOf(0.5);
  if (a.size) {
    // The size analysis at 0 marks nothing difficult: the official APs and mean, bit for bit.
    expect(a.size.thresholds[0]).toBe(0);
    official.rows.forEach((row, c) => expect(same(a.size!.perClass[c].ap[0], row.ap), `${where} ${row.key} size@0`).toBe(true));
    expect(same(a.size.mAP[0], official.summary.meanAP), `${where} size@0 mean`).toBe(true);
  }
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
  afterAll(() => removeTempDirs());

  for (const name of ['det_edge', 'det_edge_zero_gt', 'det_rand_small', 'det_rand_unsorted_list']) {
    it(`${name}: overlap@0.5 and the TIDE baseline are the official APs`, async () => {
      const report = await expectAnchors(caseOptions(join(FIX, name)), name, 'overlap,size,hoiem,tide');
      expect((report.analysis as { size?: SizeResult }).size, `${name}: XML ground truth has the image sizes`).toBeDefined();
    });
  }

  it('det_real_val2 (9,917 real XMLs): the size analysis at 0 is the official AP; larger thresholds drop positives', async () => {
    // evaluate parses the XML into a parse cache; analyze reads the image sizes back from it.
    const cacheDir = makeTempDir('cvdevkit-ilsvrc-size-');
    const report = await expectAnchors(caseOptions(fixtureDir('ilsvrc2015/det_real_val2')), 'det_real_val2', 'overlap,size,hoiem,tide', () => createRunContext({ workers: 1, cacheDir }));
    const size = (report.analysis as { size: SizeResult }).size;
    for (const c of size.perClass) for (let k = 1; k < c.npos.length; k++) expect(c.npos[k]).toBeLessThanOrEqual(c.npos[k - 1]);
  });

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
      'overlap,size,hoiem,tide',
    );
    // The devkit's .mat cache has no image sizes: the size section is left out, and the report says why.
    expect((report.analysis as { size?: SizeResult }).size).toBeUndefined();
    expect(String((report.analysis as { notes: string[] }).notes)).toMatch(/size: left out \(the ground-truth cache .* holds no image sizes/);
    // The fixture's meta_det.mat holds the 200 classes without the hierarchy: nothing is similar, and the report says so.
    expect(report.extra!.similarGroups).toBe(0);
    expect((report.analysis as { hoiem: HoiemResult }).hoiem.overall.counts.Sim).toBe(0);
    expect(String((report.analysis as { notes: string[] }).notes)).toMatch(/no hierarchy/);
  });
});
