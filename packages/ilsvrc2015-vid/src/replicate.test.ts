/**
 * ILSVRC DET / VID: a replicate from the per-image statistics equals the official evaluation of the
 * materialised replicate (every list line repeated once per copy, copies consecutive, fresh names and
 * indices numbered so that copies of an image are consecutive in index order; predictions and blacklist
 * lines repeated per copy; annotations copied), bit for bit, on the fixture cases.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRunContext, type Report, type TaskDefinition } from '@cvdevkit/core';
import type { PerImageStats } from '@cvdevkit/metrics';
import det from '@cvdevkit/ilsvrc2015-det';
import vid from '@cvdevkit/ilsvrc2015-vid';
import { fixturePath, makeTempDir, testRandom } from '@cvdevkit/test-utils';

const lines = (file: string): string[][] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => l.trim().split(/\s+/));

function options(dir: string): Record<string, string> {
  const o: Record<string, string> = { pred: join(dir, 'pred.txt'), meta: join(dir, 'meta.mat'), list: join(dir, 'val.txt'), gt: join(dir, 'Annotations') };
  if (existsSync(join(dir, 'blacklist.txt'))) o.blacklist = join(dir, 'blacklist.txt');
  return o;
}

function materialise(src: string, dir: string, w: Uint32Array): void {
  const list = lines(join(src, 'val.txt'));
  // new indices: entries in ascending original index, copies consecutive
  const byIndex = list.map((_, i) => i).sort((a, b) => Number(list[a][1]) - Number(list[b][1]) || a - b);
  const newIdx: number[][] = list.map(() => []);
  let next = 0;
  for (const i of byIndex) for (let c = 0; c < w[i]; c++) newIdx[i].push(++next);
  const copiesOfIndex = new Map<string, number[]>();
  list.forEach((l, i) => copiesOfIndex.set(l[1], newIdx[i]));
  const out: string[] = [];
  list.forEach(([name], i) => {
    newIdx[i].forEach((idx, c) => {
      const copy = `c${c}/${name}`;
      out.push(`${copy} ${idx}`);
      const to = join(dir, 'Annotations', `${copy}.xml`);
      mkdirSync(dirname(to), { recursive: true });
      copyFileSync(join(src, 'Annotations', `${name}.xml`), to);
    });
  });
  writeFileSync(join(dir, 'val.txt'), out.join('\n') + '\n');
  for (const f of ['pred.txt', 'blacklist.txt']) {
    if (!existsSync(join(src, f))) continue;
    const rows: string[] = [];
    for (const l of lines(join(src, f))) for (const idx of copiesOfIndex.get(l[0]) ?? []) rows.push([String(idx), ...l.slice(1)].join(' '));
    writeFileSync(join(dir, f), rows.join('\n') + '\n');
  }
  copyFileSync(join(src, 'meta.mat'), join(dir, 'meta.mat'));
}

const CASES: [string, TaskDefinition, string][] = [
  ['det_edge', det.tasks['ilsvrc2015/det'] as unknown as TaskDefinition, 'det'],
  ['det_rand_small', det.tasks['ilsvrc2015/det'] as unknown as TaskDefinition, 'det'],
  ['det_rand_unsorted_list', det.tasks['ilsvrc2015/det'] as unknown as TaskDefinition, 'det'],
  ['vid_edge', vid.tasks['ilsvrc2015/vid'] as unknown as TaskDefinition, 'vid'],
];

describe.each(CASES)('ilsvrc2015 %s: replicate = official metric on the materialised replicate', (name, task) => {
  it('bit for bit on the identity and three random replicates', async () => {
    const src = fixturePath('ilsvrc2015', name);
    const report: Report = await task.evaluate(options(src), createRunContext({ workers: 1, perImage: true }));
    const stats = report.extra!.perImage as PerImageStats;
    const rep = await task.replicate!(stats);
    const random = testRandom(11);
    const weights = [new Uint32Array(stats.images).fill(1), ...[0, 1, 2].map(() => random.resampleCounts(stats.images))];
    for (const w of weights) {
      const out = new Float64Array(rep.classes.length);
      rep.evaluate(w, out);
      const dir = makeTempDir('cvdevkit-replicate-');
      materialise(src, dir, w);
      let official: Report;
      try {
        official = await task.evaluate(options(dir), createRunContext({ workers: 1 }));
      } catch (e) {
        // a replicate without any detection on its images: the official code fails (img_ids(1) of an empty list)
        expect((e as { code?: string }).code).toBe('input/no-detections');
        continue;
      }
      expect(official.rows.map((r) => r.key)).toEqual(rep.classes);
      official.rows.forEach((r, k) => expect(Object.is(r.ap, out[k]) || (r.ap === null && Number.isNaN(out[k])), `${r.key}: ${r.ap} vs ${out[k]}`).toBe(true));
    }
  });
});
