/** `analyze ilsvrc2015/vid`: overlap@0.5, size@0 and the TIDE official-mode baseline are the official per-class APs, bit for bit. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRunContext } from '@cvdevkit/core';
import { runAnalysis, type OverlapResult, type SizeResult, type TideResult } from '@cvdevkit/analysis';
import { vidTask, type IlsvrcVidOptions } from '../src/index.js';

const FIX = join(import.meta.dirname, '../../../fixtures/ilsvrc2015');
const ctx = () => createRunContext({ workers: 1 });
const same = (a: unknown, b: unknown): boolean => Object.is(a, b) || (a === null && Number.isNaN(b)) || (b === null && Number.isNaN(a));

describe('ilsvrc2015/vid analyze anchors', () => {
  for (const name of ['vid_edge', 'vid_pred_outside_list']) {
    it(`${name}: overlap@0.5 and the TIDE baseline are the official APs`, async () => {
      const dir = join(FIX, name);
      const options: IlsvrcVidOptions = { pred: join(dir, 'pred.txt'), meta: join(dir, 'meta.mat'), list: join(dir, 'val.txt'), gt: join(dir, 'Annotations') };
      if (existsSync(join(dir, 'blacklist.txt'))) options.blacklist = join(dir, 'blacklist.txt');
      const official = await vidTask.evaluate(options, ctx());
      const report = runAnalysis(await vidTask.analyze!({ ...options, only: 'overlap,size,tide' }, ctx()), { only: 'overlap,size,tide' });
      const a = report.analysis as { overlap: OverlapResult; tide: TideResult; size: SizeResult };
      const at = a.overlap.thresholds.indexOf(0.5);
      official.rows.forEach((row, c) => {
        expect(same(a.overlap.perClass[c].ap[at], row.ap), `${name} ${row.key}`).toBe(true);
        expect(same(a.tide.perClass[c].ap, row.ap), `${name} ${row.key} tide`).toBe(true);
        expect(same(a.size.perClass[c].ap[0], row.ap), `${name} ${row.key} size@0`).toBe(true);
      });
      expect(same(a.tide.ap, official.summary.meanAP)).toBe(true);
      expect(same(a.size.mAP[0], official.summary.meanAP)).toBe(true);
    });
  }
});
