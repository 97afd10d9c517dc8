import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '@cvdevkit/core';
import { expectReportMatches, readExpected } from '@cvdevkit/test-utils/ilsvrc-expected';

const ROOT = join(import.meta.dirname, '../../..');
const BIN = join(ROOT, 'apps/cli/dist/bin.js');
const FIX = join(ROOT, 'fixtures/ilsvrc2015');
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

describe.skipIf(!built)('cvdevkit eval ilsvrc2015/vid (built CLI)', () => {
  for (const name of ['vid_edge', 'vid_pred_outside_list']) {
    it(`${name} --format json matches the official eval_vid_detection.m`, () => {
      const d = join(FIX, name);
      const args = ['eval', 'ilsvrc2015/vid', '--pred', join(d, 'pred.txt'), '--meta', join(d, 'meta.mat'), '--list', join(d, 'val.txt'), '--gt', join(d, 'Annotations'), '--format', 'json'];
      if (existsSync(join(d, 'blacklist.txt'))) args.push('--blacklist', join(d, 'blacklist.txt'));
      const r = cvdevkit(args);
      expect(r.code, r.stderr).toBe(0);
      expectReportMatches(nulls(JSON.parse(r.stdout) as Report), readExpected(join(d, 'expected.json')));
    });
  }

  it('cvdevkit demo ilsvrc2015/vid runs the embedded sample', () => {
    const r = cvdevkit(['demo', 'ilsvrc2015/vid', '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as Report).task).toBe('ilsvrc2015/vid');
  });
});
