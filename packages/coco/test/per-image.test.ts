/**
 * Per-image statistics and their replicator (`compare --bootstrap`): on the identity the replicator gives every
 * category's AP of the report bit for bit; on a replicate, the AP that an evaluation of the materialised
 * replicate (every image's ground truth and results listed w[i] times, copies next to each other) gives.
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
const run = (task: Task, o: CocoOptions, perImage = true) => plugin.tasks[task].evaluate(o, createRunContext({ workers: 1, perImage }));
const statsOf = (r: Report) => r.extra!.perImage as PerImageStatistics;

interface Json {
  images: { id: number }[];
  annotations: { id: number; image_id: number }[];
  [k: string]: unknown;
}

/** The ground truth and results of a replicate: image i (sorted ids) listed w[i] times as new images next to each other. */
function materialise(o: CocoOptions, w: Uint32Array): CocoOptions {
  const gt = JSON.parse(readFileSync(o.gt, 'utf8')) as Json;
  const results = JSON.parse(readFileSync(o.results, 'utf8')) as { image_id: number }[];
  const ids = gt.images.map((im) => im.id).sort((a, b) => a - b);
  const pos = new Map(ids.map((id, i) => [id, i]));
  const copyId = (id: number, c: number) => (pos.get(id)! + 1) * 1000 + c;
  const copies = <T>(list: T[], imageOf: (x: T) => number, make: (x: T, c: number) => T) => list.flatMap((x) => Array.from({ length: w[pos.get(imageOf(x))!] }, (_, c) => make(x, c)));
  let next = 1;
  const out = {
    ...gt,
    images: copies(gt.images, (im) => im.id, (im, c) => ({ ...im, id: copyId(im.id, c) })),
    // a GT id of 0 never matches: it keeps its id (its image is drawn at most once)
    annotations: copies(gt.annotations, (a) => a.image_id, (a, c) => ({ ...a, id: a.id === 0 ? 0 : next++, image_id: copyId(a.image_id, c) })),
  };
  const dir = makeTempDir('coco-replicate-');
  writeFileSync(join(dir, 'gt.json'), JSON.stringify(out));
  writeFileSync(join(dir, 'results.json'), JSON.stringify(copies(results, (r) => r.image_id, (r, c) => ({ ...r, image_id: copyId(r.image_id, c) }))));
  return { ...o, gt: join(dir, 'gt.json'), results: join(dir, 'results.json') };
}

/** A deterministic draw of multiplicities 0..3 (images holding a GT id 0 at most once). */
function draw(n: number, seed: number, atMostOnce: Set<number>): Uint32Array {
  let s = seed;
  return Uint32Array.from({ length: n }, (_, i) => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    const v = (s >>> 16) % 4;
    return atMostOnce.has(i) ? Math.min(v, 1) : v;
  });
}

const same = (a: number, b: unknown) => (Number.isNaN(a) ? b === undefined || b === null || Number.isNaN(b) : Object.is(a, b));

describe('coco per-image statistics and replicator', () => {
  const cases: [Task, string, CocoOptions][] = [
    ['coco/bbox', 'quirks', { gt: join(FIXTURES, 'quirks', 'gt.json'), results: join(FIXTURES, 'quirks', 'results_bbox.json') }],
    ['coco/bbox', 'random_small', { gt: join(FIXTURES, 'random_small', 'gt.json'), results: join(FIXTURES, 'random_small', 'results_bbox.json'), maxDets: '1,5,100' }],
    ['coco/segm', 'random_small useCats=0', { gt: join(FIXTURES, 'random_small', 'gt.json'), results: join(FIXTURES, 'random_small', 'results_segm.json'), useCats: 0 }],
    ['coco/keypoints', 'random_small', { gt: join(FIXTURES, 'random_small', 'gt_keypoints.json'), results: join(FIXTURES, 'random_small', 'results_keypoints.json') }],
  ];
  for (const [task, name, o] of cases) {
    it(`${task} ${name}: identity = the report's per-category AP bit for bit; replicates = eval of the materialised replicate`, async () => {
      const report = await run(task, o);
      const rep = cocoReplicator(statsOf(report));
      expect(rep.classes).toEqual(report.rows.map((r) => r.key));
      const out = new Float64Array(rep.classes.length);
      const summary = rep.evaluate(new Uint32Array(rep.images).fill(1), out);
      out.forEach((v, k) => expect(same(v, report.rows[k].AP), `category ${rep.classes[k]}: ${v} vs ${String(report.rows[k].AP)}`).toBe(true));
      // the replicator's own summary: pycocotools' AP (the mean over the pooled cells), bit for bit
      expect(Object.is(summary, report.summary.AP)).toBe(true);
      const gt = JSON.parse(readFileSync(o.gt, 'utf8')) as Json;
      const ids = gt.images.map((im) => im.id).sort((a, b) => a - b);
      const zeroIdImages = new Set(gt.annotations.filter((a) => a.id === 0).map((a) => ids.indexOf(a.image_id)));
      for (const seed of [1, 2]) {
        const w = draw(rep.images, seed, zeroIdImages);
        const s = rep.evaluate(w, out);
        const materialised = await run(task, materialise(o, w), false);
        out.forEach((v, k) => expect(same(v, materialised.rows[k].AP), `seed ${seed} category ${rep.classes[k]}: ${v} vs ${String(materialised.rows[k].AP)}`).toBe(true));
        expect(same(s as number, materialised.summary.AP === -1 ? NaN : materialised.summary.AP)).toBe(true);
      }
    });
  }

  it('compare --bootstrap on two COCO reports; an edited report or another layout is refused', async () => {
    const o: CocoOptions = { gt: join(FIXTURES, 'random_small', 'gt.json'), results: join(FIXTURES, 'random_small', 'results_bbox.json') };
    const dir = makeTempDir('coco-compare-');
    const results = JSON.parse(readFileSync(o.results, 'utf8')) as { score: number }[];
    writeFileSync(join(dir, 'b.json'), JSON.stringify(results.map((r, i) => ({ ...r, score: i % 3 === 0 ? r.score / 2 : r.score }))));
    const a = await run('coco/bbox', o);
    const b = await run('coco/bbox', { ...o, results: join(dir, 'b.json') });
    const inputs = [
      { name: 'a', file: 'a.json', report: a },
      { name: 'b', file: 'b.json', report: b },
    ];
    const replicators = inputs.map((i) => cocoReplicator(statsOf(i.report)));
    const result = compareReports(inputs, { bootstrap: 30, seed: 3, replicators });
    expect(result.methods.map((m) => m.summary)).toEqual([a.summary.AP, b.summary.AP]);
    expect(result.methods.every((m) => Array.isArray(m.ci))).toBe(true);
    const edited = structuredClone(a);
    const k = edited.rows.findIndex((r) => typeof r.AP === 'number' && r.AP > 0.1);
    edited.rows[k].AP = (edited.rows[k].AP as number) - 0.1;
    expect(() => compareReports([{ name: 'e', file: 'e.json', report: edited }, inputs[1]], { bootstrap: 5, replicators })).toThrow(new RegExp(`rows\\[${k}\\]\\.AP`));
    let e: unknown;
    try {
      cocoReplicator({ ...statsOf(a), kind: 'ranked' });
    } catch (x) {
      e = x;
    }
    expect(isDevkitError(e) && e.kind).toBe('input');
  });

  it('a shard stores none and says so', async () => {
    const dir = makeTempDir('coco-shard-');
    const r = await run('coco/bbox', { gt: join(FIXTURES, 'quirks', 'gt.json'), results: join(FIXTURES, 'quirks', 'results_bbox.json'), shard: '1/2', recordsOut: join(dir, 's.json') });
    expect(r.extra?.perImage).toBeUndefined();
    expect(r.diagnostics.map((d) => d.code)).toContain('coco/no-per-image');
  });
});
