/** --shard i/n --records-out, then merge: the same report as one run, bit for bit. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRunContext, isDevkitError, type Report } from '@cvdevkit/core';
import { makeTempDir } from '@cvdevkit/test-utils';
import plugin from '../src/index.js';
import { mergeCocoShards } from '../src/run.js';
import type { CocoOptions } from '../src/options.js';
import { FIXTURES } from './fixture-cases.js';

const ctx = () => createRunContext({ workers: 1 });
const strip = (r: Report) => ({ summary: r.summary, rows: r.rows, curves: r.curves, extra: r.extra, diagnostics: r.diagnostics });

describe('coco shards', () => {
  for (const [task, results, extra] of [
    ['coco/bbox', 'results_bbox.json', {}],
    ['coco/segm', 'results_segm.json', { useCats: 0 }],
    ['coco/keypoints', 'results_keypoints.json', {}],
  ] as const) {
    it(`${task}: three shards merged equal one run`, async () => {
      const dir = makeTempDir('coco-shard-');
      const base: CocoOptions = { gt: join(FIXTURES, 'random_small', task === 'coco/keypoints' ? 'gt_keypoints.json' : 'gt.json'), results: join(FIXTURES, 'random_small', results), ...extra };
      const whole = await plugin.tasks[task].evaluate(base, ctx());
      const files = [];
      for (let i = 1; i <= 3; i++) {
        const f = join(dir, `s${i}.json${i === 2 ? '.gz' : ''}`);
        const part = await plugin.tasks[task].evaluate({ ...base, shard: `${i}/3`, recordsOut: f }, ctx());
        expect(part.diagnostics.some((d) => /covers shard/.test(d.message))).toBe(true);
        files.push(f);
      }
      const merged = await plugin.tasks[task].merge!([files[2], files[0], files[1]], ctx());
      expect(strip(merged)).toEqual(strip(whole));
      if (task !== 'coco/bbox') return;
      const withArrays = (await mergeCocoShards(task.slice(5) as 'bbox', files, ctx(), true)) as Report & { precision: unknown };
      const wholeArrays = (await plugin.tasks[task].evaluate({ ...base, arrays: true }, ctx())) as Report & { precision: unknown };
      expect(withArrays.precision).toEqual(wholeArrays.precision);
    });
  }

  it('refuses a missing shard, a repeated one, and shards of other settings', async () => {
    const dir = makeTempDir('coco-shard-');
    const base: CocoOptions = { gt: join(FIXTURES, 'quirks', 'gt.json'), results: join(FIXTURES, 'quirks', 'results_bbox.json') };
    const f = (n: string) => join(dir, n);
    await plugin.tasks['coco/bbox'].evaluate({ ...base, shard: '1/2', recordsOut: f('a.json') }, ctx());
    await plugin.tasks['coco/bbox'].evaluate({ ...base, shard: '2/2', recordsOut: f('b.json') }, ctx());
    await plugin.tasks['coco/bbox'].evaluate({ ...base, shard: '2/2', recordsOut: f('c.json'), maxDets: '1,10,50' }, ctx());
    for (const files of [[f('a.json')], [f('a.json'), f('a.json')], [f('a.json'), f('c.json')]]) {
      try {
        await plugin.tasks['coco/bbox'].merge!(files, ctx());
        expect.fail('expected an input error');
      } catch (e) {
        expect(isDevkitError(e) && e.exitCode).toBe(2);
      }
    }
    try {
      await plugin.tasks['coco/bbox'].evaluate({ ...base, shard: '1/2' }, ctx());
      expect.fail('expected a usage error');
    } catch (e) {
      expect(isDevkitError(e) && e.kind).toBe('usage');
    }
  });
});
