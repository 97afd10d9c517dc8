/** `cvdevkit merge coco/<task> … --arrays`: the merge hook reads the task options of the merge command line (`context.options`). */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRunContext, isDevkitError, type Report } from '@cvdevkit/core';
import { makeTempDir } from '@cvdevkit/test-utils';
import plugin from '../src/index.js';
import type { CocoOptions } from '../src/options.js';
import { FIXTURES } from './fixture-cases.js';

type WithArrays = Report & { precision?: unknown; recall?: unknown; scores?: unknown };
const ctx = () => createRunContext({ workers: 1 });

describe('coco merge options', () => {
  it('--arrays given to merge: the merged report holds precision, recall and scores equal to one run with --arrays', async () => {
    const task = plugin.tasks['coco/bbox'];
    const dir = makeTempDir('coco-merge-arrays-');
    const base: CocoOptions = { gt: join(FIXTURES, 'quirks', 'gt.json'), results: join(FIXTURES, 'quirks', 'results_bbox.json') };
    const files = [1, 2].map((i) => join(dir, `s${i}.json`));
    for (let i = 1; i <= 2; i++) await task.evaluate({ ...base, shard: `${i}/2`, recordsOut: files[i - 1] }, ctx());
    const whole = (await task.evaluate({ ...base, arrays: true }, ctx())) as WithArrays;
    const merged = (await task.merge!(files, Object.assign(ctx(), { options: { arrays: true } }))) as WithArrays;
    expect(merged.precision).toBeDefined();
    for (const k of ['precision', 'recall', 'scores'] as const) expect(merged[k]).toEqual(whole[k]);
    expect(merged.summary).toEqual(whole.summary);
    // without the option (or from a caller that passes no options): no arrays
    const plain = (await task.merge!(files, ctx())) as WithArrays;
    expect(plain.precision).toBeUndefined();
  });

  it('eval options given to merge: accepted when they repeat the shards\' settings, refused (exit 1) when they differ; other input files refused (exit 2)', async () => {
    const task = plugin.tasks['coco/bbox'];
    const dir = makeTempDir('coco-merge-opts-');
    const base: CocoOptions = { gt: join(FIXTURES, 'quirks', 'gt.json'), results: join(FIXTURES, 'quirks', 'results_bbox.json'), maxDets: '1,10,50', fix: 'ignore' };
    const files = [1, 2].map((i) => join(dir, `s${i}.json`));
    for (let i = 1; i <= 2; i++) await task.evaluate({ ...base, shard: `${i}/2`, recordsOut: files[i - 1] }, ctx());
    const merge = (options: Partial<CocoOptions>) => task.merge!(files, Object.assign(ctx(), { options }));
    const same = await merge({ ...base, maxDets: '50,10,1' });
    expect(same.summary).toEqual((await task.evaluate(base, ctx())).summary);
    const refused: [Partial<CocoOptions>, number, RegExp][] = [
      [{ maxDets: '1,10,100' }, 1, /--max-dets: the shards ran with \[1,10,50\]/],
      [{ iouThrs: '0.5' }, 1, /--iou-thrs/],
      [{ fix: 'maxdets' }, 1, /--fix: the shards ran with ignore.*found maxdets/],
      [{ useCats: 0 }, 1, /--use-cats/],
      [{ shard: '1/2' }, 1, /--shard: for eval/],
      [{ results: join(FIXTURES, 'quirks', 'results_segm.json') }, 2, /results_segm\.json.*bytes/],
    ];
    for (const [options, exit, message] of refused) {
      let e: unknown;
      try {
        await merge(options);
      } catch (x) {
        e = x;
      }
      expect(isDevkitError(e) && e.exitCode, JSON.stringify(options)).toBe(exit);
      expect((e as Error).message).toMatch(message);
    }
  });
});
