import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '@cvdevkit/core';
import { close, expectReportMatches, readExpected } from '@cvdevkit/test-utils/ilsvrc-expected';

const ROOT = join(import.meta.dirname, '../../..');
const BIN = join(ROOT, 'apps/cli/dist/bin.js');
const FIX = join(ROOT, 'fixtures/ilsvrc2015');
const REAL = join(ROOT, 'fixtures/ilsvrc2015/real');
const built = existsSync(BIN) && existsSync(join(import.meta.dirname, '../dist/index.js'));

function cvdevkit(args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** JSON reports write NaN as null. */
function nulls(report: Report): Report {
  const fix = (a: (number | null)[] | undefined) => a?.map((v) => (v === null ? NaN : v));
  for (const c of report.curves) {
    c.recall = fix(c.recall as (number | null)[]) as number[];
    c.precision = fix(c.precision as (number | null)[]) as number[];
  }
  for (const r of report.rows) if (r.ap === null) r.ap = NaN;
  for (const k of Object.keys(report.summary)) if (report.summary[k] === null) report.summary[k] = NaN;
  return report;
}

describe.skipIf(!built)('cvdevkit eval ilsvrc2015/det (built CLI)', () => {
  it('det_edge --format json matches the official numbers', () => {
    const d = join(FIX, 'det_edge');
    const r = cvdevkit(['eval', 'ilsvrc2015/det', '--pred', join(d, 'pred.txt'), '--meta', join(d, 'meta.mat'), '--list', join(d, 'val.txt'), '--gt', join(d, 'Annotations'), '--blacklist', join(d, 'blacklist.txt'), '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expectReportMatches(nulls(JSON.parse(r.stdout) as Report), readExpected(join(d, 'expected.json')));
  });

  it('the published demo via the cache: mean AP 0.5900608141381709, median 0.601198743524221', () => {
    const r = cvdevkit([
      'eval', 'ilsvrc2015/det',
      '--pred', join(REAL, 'demo.val.pred.det.txt'),
      '--meta', join(REAL, 'meta_det.mat'),
      '--list', join(REAL, 'det_val.txt'),
      '--gt', join(REAL, 'ILSVRC2015_det_validation_ground_truth.mat'),
      '--blacklist', join(REAL, 'ILSVRC2015_det_validation_blacklist.txt'),
      '--format', 'json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as Report;
    close(report.summary.meanAP, 0.5900608141381709, 'meanAP');
    close(report.summary.medianAP, 0.601198743524221, 'medianAP');
    expect(report.rows).toHaveLength(200);
  });

  it('a prediction on an image outside the list exits 2 with file:line', () => {
    const d = join(FIX, 'errors/det_pred_outside_list');
    const r = cvdevkit(['eval', 'ilsvrc2015/det', '--pred', join(d, 'pred.txt'), '--meta', join(d, 'meta.mat'), '--list', join(d, 'val.txt'), '--gt', join(d, 'Annotations'), '--format', 'json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/pred\.txt:\d+ \[image index\]: expected an image index of the image list, found 2/);
  });
});
