/** --fix: each named fix changes exactly what it says, checked against pycocotools' own arrays. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRunContext, type Report } from '@cvdevkit/core';
import plugin from '../src/index.js';
import type { CocoOptions } from '../src/options.js';
import { pairwiseSum } from '../src/pairwise-sum.js';
import { FIXTURES, flatten, loadCase } from './fixture-cases.js';

type TaskId = keyof typeof plugin.tasks;
const run = (task: TaskId, o: CocoOptions) => plugin.tasks[task].evaluate(o, createRunContext({ workers: 1 })) as Promise<Report & { precision?: unknown; recall?: unknown }>;

describe('coco --fix', () => {
  it('maxdets: AP read at the largest --max-dets (pycocotools gives -1 without 100), from pycocotools\' precision', async () => {
    const e = loadCase('params').evaluations.find((x) => x.name === 'bbox_maxDets_1_5_20')!;
    const o: CocoOptions = { gt: join(FIXTURES, 'params', e.gt), results: join(FIXTURES, 'params', e.results), maxDets: '1,5,20' };
    expect((await run('coco/bbox', o)).summary.AP).toBe(-1);
    const fixed = await run('coco/bbox', { ...o, fix: 'maxdets' });
    const [T, R, K, A, M] = e.counts!;
    const p = flatten(e.precision);
    const cells: number[] = [];
    for (let t = 0; t < T; t++) for (let r = 0; r < R; r++) for (let k = 0; k < K; k++) {
      const v = p[(((t * R + r) * K + k) * A + 0) * M + (M - 1)];
      if (v > -1) cells.push(v);
    }
    expect(fixed.summary.AP).toBe(pairwiseSum(cells) / cells.length);
    expect(fixed.extra?.protocol).toBe('pycocotools 2.0.11 + fix maxdets');
  });

  it('mask-area: segm results with a bbox score as the same results without it (pycocotools\' segm arrays)', async () => {
    for (const c of ['quirks', 'random_small']) {
      const want = loadCase(c).evaluations.find((x) => x.name === 'segm')!;
      const got = await run('coco/segm', { gt: join(FIXTURES, c, 'gt.json'), results: join(FIXTURES, c, 'results_segm_bbox.json'), fix: 'mask-area', arrays: true });
      expect(got.summary).toEqual(want.summary);
      expect(flatten(got.precision)).toEqual(flatten(want.precision));
      expect(got.extra?.protocol).toBe('pycocotools 2.0.11 + fix mask-area');
    }
  });

  it('ignore: a non-crowd GT marked "ignore": 1 leaves the counted ground truth', async () => {
    const gtPath = join(FIXTURES, 'quirks', 'gt.json');
    const gt = JSON.parse(readFileSync(gtPath, 'utf8')) as { annotations: { category_id: number; iscrowd: number; ignore?: number }[] };
    const o: CocoOptions = { gt: gtPath, results: join(FIXTURES, 'quirks', 'results_bbox.json') };
    const plain = await run('coco/bbox', o);
    const fixed = await run('coco/bbox', { ...o, fix: 'ignore' });
    const marked = new Map<string, number>();
    for (const a of gt.annotations) if (a.ignore && !a.iscrowd) marked.set(String(a.category_id), (marked.get(String(a.category_id)) ?? 0) + 1);
    expect(marked.size).toBeGreaterThan(0);
    for (const row of plain.rows) {
      const f = fixed.rows.find((r) => r.key === row.key)!;
      expect(f.ngt).toBe((row.ngt as number) - (marked.get(row.key) ?? 0));
    }
    expect(fixed.summary).not.toEqual(plain.summary);
    expect(fixed.extra?.fixes).toEqual(['ignore']);
  });
});
