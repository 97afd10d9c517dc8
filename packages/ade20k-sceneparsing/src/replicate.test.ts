/** The per-image statistics and their replicator: identity = the report bit for bit; a replicate = eval on the materialised replicate. */
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRunContext, isDevkitError, type PerImageStatistics, type Report } from '@cvdevkit/core';
import { compareReports } from '@cvdevkit/analysis';
import { fixturePath, makeTempDir } from '@cvdevkit/test-utils';
import plugin from './index.js';
import { sceneParsingReplicator } from './replicate.js';

const task = plugin.tasks['ade20k/sceneparsing'];
const ROOT = fixturePath('ade20k-sceneparsing');
const dirsOf = (base: string) => ({ gt: join(base, 'annotations', 'validation'), pred: join(base, 'predictions', 'validation') });
const perImageRun = (o: { gt: string; pred: string }) => task.evaluate(o, createRunContext({ workers: 1, perImage: true }));
const statsOf = (r: Report) => r.extra!.perImage as PerImageStatistics;

/** A folder pair holding image i of `names` w[i] times (copies named to sort next to each other, in order). */
function materialise(src: { gt: string; pred: string }, names: string[], w: Uint32Array): { gt: string; pred: string } {
  const dir = dirsOf(makeTempDir('sceneparsing-replicate-'));
  mkdirSync(dir.gt, { recursive: true });
  mkdirSync(dir.pred, { recursive: true });
  names.forEach((name, i) => {
    for (let c = 0; c < w[i]; c++) {
      const copy = `${String(i).padStart(4, '0')}_${c}.png`;
      copyFileSync(join(src.gt, name), join(dir.gt, copy));
      copyFileSync(join(src.pred, name), join(dir.pred, copy));
    }
  });
  return dir;
}

describe('ade20k/sceneparsing per-image statistics', () => {
  for (const name of ['medium', 'edge']) {
    it(`${name}: the identity replicate is the report's IoU and mIoU, bit for bit; a replicate equals eval of its materialised folder`, async () => {
      const src = dirsOf(join(ROOT, name));
      const report = await perImageRun(src);
      const rep = sceneParsingReplicator(statsOf(report));
      expect(rep.images).toBe(report.summary.images);
      expect(rep.classes).toEqual(report.rows.map((r) => r.key));
      const out = new Float64Array(150);
      rep.evaluate(new Uint32Array(rep.images).fill(1), out);
      out.forEach((v, c) => expect(Object.is(v, report.rows[c].iou)).toBe(true));
      let sum = 0;
      for (const v of out) sum += v;
      expect(Object.is(sum / 150, report.summary.mIoU)).toBe(true);
      // a replicate with repeated and dropped images (deterministic draw)
      const names = readdirSync(src.pred).filter((f) => f.endsWith('.png')).sort();
      expect(names.length).toBe(rep.images);
      const w = Uint32Array.from(names, (_, i) => [2, 0, 1, 3][i % 4]);
      rep.evaluate(w, out);
      const materialised = await task.evaluate(materialise(src, names, w), createRunContext({ workers: 1 }));
      out.forEach((v, c) => expect(Object.is(v, materialised.rows[c].iou)).toBe(true));
    });
  }

  it('compare --bootstrap runs on two reports; an edited report or another layout is refused', async () => {
    const a = await perImageRun(dirsOf(join(ROOT, 'medium')));
    const b = structuredClone(a);
    const inputs = [
      { name: 'a', file: 'a.json', report: a },
      { name: 'b', file: 'b.json', report: b },
    ];
    const replicators = inputs.map((i) => sceneParsingReplicator(statsOf(i.report)));
    const result = compareReports(inputs, { bootstrap: 50, seed: 1, replicators });
    expect(result.methods.map((m) => m.summary)).toEqual([a.summary.mIoU, a.summary.mIoU]);
    expect(result.methods[0].ci).toBeDefined();
    const edited = structuredClone(a);
    edited.rows[0].iou = (edited.rows[0].iou as number) + 0.01;
    expect(() => compareReports([{ name: 'e', file: 'e.json', report: edited }, inputs[1]], { bootstrap: 5, replicators })).toThrow(/rows\[0\]\.iou/);
    const e = (() => {
      try {
        sceneParsingReplicator({ ...statsOf(a), kind: 'ranked' });
      } catch (x) {
        return x;
      }
    })();
    expect(isDevkitError(e) && e.kind).toBe('input');
  });
});
