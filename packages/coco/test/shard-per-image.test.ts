/**
 * --shard i/n --records-out, then merge --per-image: the merged report's per-image statistics (extra.perImage)
 * equal one run's over all images, bit for bit, and `compare --bootstrap` takes the merged reports.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRunContext, isDevkitError, type PerImageStatistics, type Report } from '@cvdevkit/core';
import { compareReports } from '@cvdevkit/analysis';
import { makeTempDir } from '@cvdevkit/test-utils';
import plugin from '../src/index.js';
import type { CocoOptions } from '../src/options.js';
import { cocoReplicator } from '../src/replicate.js';
import { FIXTURES } from './fixture-cases.js';

type Task = 'coco/bbox' | 'coco/segm' | 'coco/keypoints';
const ctx = (perImage: boolean) => createRunContext({ workers: 1, perImage });
const strip = (r: Report) => ({ summary: r.summary, rows: r.rows, curves: r.curves, extra: r.extra, diagnostics: r.diagnostics });

/** The shards' records files of `o` over n shards. */
async function shards(task: Task, o: CocoOptions, n: number, perImage = false): Promise<string[]> {
  const dir = makeTempDir('coco-shard-pi-');
  const files: string[] = [];
  for (let i = 1; i <= n; i++) {
    const f = join(dir, `s${i}.json${i === 2 ? '.gz' : ''}`);
    await plugin.tasks[task].evaluate({ ...o, shard: `${i}/${n}`, recordsOut: f }, ctx(perImage));
    files.push(f);
  }
  return files;
}

const small = (f: string): CocoOptions => ({ gt: join(FIXTURES, 'random_small', 'gt.json'), results: join(FIXTURES, 'random_small', f) });

describe('coco per-image statistics after --shard and merge', () => {
  const cases: [Task, string, CocoOptions, number][] = [
    ['coco/bbox', 'quirks', { gt: join(FIXTURES, 'quirks', 'gt.json'), results: join(FIXTURES, 'quirks', 'results_bbox.json') }, 2],
    ['coco/bbox', 'random_small maxDets 1,5,100 --fix maxdets,ignore', { ...small('results_bbox.json'), maxDets: '1,5,100', fix: 'maxdets,ignore' }, 3],
    ['coco/segm', 'random_small useCats=0', { ...small('results_segm.json'), useCats: 0 }, 3],
    ['coco/keypoints', 'random_small', { gt: join(FIXTURES, 'random_small', 'gt_keypoints.json'), results: join(FIXTURES, 'random_small', 'results_keypoints.json') }, 2],
  ];
  for (const [task, name, o, n] of cases) {
    it(`${task} ${name}: ${n} shards merged with --per-image = one run with --per-image, bit for bit`, async () => {
      const whole = await plugin.tasks[task].evaluate(o, ctx(true));
      expect(whole.extra?.perImage).toBeDefined();
      const files = await shards(task, o, n);
      const merged = await plugin.tasks[task].merge!([...files].reverse(), ctx(true));
      expect(strip(merged)).toEqual(strip(whole));
      // and without --per-image, none (as evaluate without it)
      const plain = await plugin.tasks[task].merge!(files, ctx(false));
      expect(plain.extra?.perImage).toBeUndefined();
    });
  }

  it('compare --bootstrap on merged reports: the same intervals as on the unsharded reports', async () => {
    const o = small('results_bbox.json');
    const dir = makeTempDir('coco-compare-');
    const results = JSON.parse(readFileSync(o.results, 'utf8')) as { score: number }[];
    writeFileSync(join(dir, 'b.json'), JSON.stringify(results.map((r, i) => ({ ...r, score: i % 3 === 0 ? r.score / 2 : r.score }))));
    const ob = { ...o, results: join(dir, 'b.json') };
    const mergedA = await plugin.tasks['coco/bbox'].merge!(await shards('coco/bbox', o, 2), ctx(true));
    const mergedB = await plugin.tasks['coco/bbox'].merge!(await shards('coco/bbox', ob, 3), ctx(true));
    const wholeA = await plugin.tasks['coco/bbox'].evaluate(o, ctx(true));
    const wholeB = await plugin.tasks['coco/bbox'].evaluate(ob, ctx(true));
    const compare = (a: Report, b: Report) => {
      const inputs = [
        { name: 'a', file: 'a.json', report: a },
        { name: 'b', file: 'b.json', report: b },
      ];
      return compareReports(inputs, { bootstrap: 30, seed: 5, replicators: inputs.map((i) => cocoReplicator(i.report.extra!.perImage as PerImageStatistics)) });
    };
    const fromMerged = compare(mergedA, mergedB);
    expect(fromMerged.methods.every((m) => Array.isArray(m.ci))).toBe(true);
    expect(fromMerged).toEqual(compare(wholeA, wholeB));
    // a merged report and an unsharded one are the same run: they compare with each other too
    expect(compare(mergedA, wholeB)).toEqual(fromMerged);
  });

  it('a merge says why it stores none: no single AP cell (as evaluate says), or a shard file without the counts; a damaged count is refused', async () => {
    const o: CocoOptions = { ...small('results_bbox.json'), maxDets: '1,100,100' };
    const whole = await plugin.tasks['coco/bbox'].evaluate(o, ctx(true));
    const merged = await plugin.tasks['coco/bbox'].merge!(await shards('coco/bbox', o, 2), ctx(true));
    expect(whole.extra?.perImage).toBeUndefined();
    expect(strip(merged)).toEqual(strip(whole));
    expect(merged.diagnostics.map((d) => d.code)).toContain('coco/no-per-image');

    const files = await shards('coco/bbox', small('results_bbox.json'), 2);
    const first = JSON.parse(readFileSync(files[0], 'utf8')) as { perImage?: { categories: { posCount: string }[] } };
    const old = join(makeTempDir('coco-shard-old-'), 'old.json');
    writeFileSync(old, JSON.stringify({ ...first, perImage: undefined }));
    const m = await plugin.tasks['coco/bbox'].merge!([old, files[1]], ctx(true));
    expect(m.extra?.perImage).toBeUndefined();
    expect(m.diagnostics.find((d) => d.code === 'coco/no-per-image')?.message).toContain(old);

    const k = first.perImage!.categories.findIndex((c) => c.posCount.length > 0);
    const bytes = Buffer.from(first.perImage!.categories[k].posCount, 'base64');
    const counts = new Uint32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
    counts[0] += 1;
    first.perImage!.categories[k].posCount = Buffer.from(counts.buffer).toString('base64');
    writeFileSync(old, JSON.stringify(first));
    let e: unknown;
    try {
      await plugin.tasks['coco/bbox'].merge!([old, files[1]], ctx(true));
    } catch (x) {
      e = x;
    }
    expect(isDevkitError(e) && e.exitCode).toBe(2);
    expect(String((e as Error).message)).toContain(`perImage.categories[${k}].posCount`);
  });
});
