/**
 * A bootstrap replicate computed from the per-image statistics equals the official metric run by the
 * real task on the materialised replicate: a VOC devkit tree in which every image is listed once per
 * copy (copies consecutive, fresh ids), every ground-truth and results line repeated once per copy of
 * its image, annotations copied. Compared bit for bit, on the medium fixture, for det, cls and action.
 */
import { copyFileSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRunContext, type Report, type TaskDefinition } from '@cvdevkit/core';
import type { PerImageStats } from '@cvdevkit/metrics';
import voc from '@cvdevkit/voc2010';
import { fixturePath, makeTempDir, testRandom } from '@cvdevkit/test-utils';

const ROOT = fixturePath('voc2010', 'medium');
const DATA = join(ROOT, 'VOC2010');
const RESULTS = join(ROOT, 'results', 'VOC2010');

/** Copy ids: `2099_` + a running 6-digit number (the VOC hash needs `YYYY_NNNNNN`). */
function copyIds(images: readonly string[], w: Uint32Array): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let seq = 0;
  images.forEach((id, i) => {
    const copies: string[] = [];
    for (let c = 0; c < w[i]; c++) copies.push(`2099_${String(++seq).padStart(6, '0')}`);
    out.set(id, copies);
  });
  return out;
}

/** Every line whose first token is an image id, repeated once per copy with the copy's id. */
function replicateLines(text: string, copies: Map<string, string[]>): string {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const m = /^(\s*)(\S+)(.*)$/.exec(line);
    const ids = m ? copies.get(m[2]) : undefined;
    if (!m || !ids) {
      if (line.trim() !== '') out.push(line);
      continue;
    }
    for (const id of ids) out.push(`${m[1]}${id}${m[3]}`);
  }
  return out.join('\n') + '\n';
}

function materialise(dir: string, images: readonly string[], w: Uint32Array, withAnnotations: boolean): void {
  const copies = copyIds(images, w);
  for (const sub of ['ImageSets/Main', 'ImageSets/Action']) {
    mkdirSync(join(dir, 'VOC2010', sub), { recursive: true });
    for (const f of readdirSync(join(DATA, sub))) writeFileSync(join(dir, 'VOC2010', sub, f), replicateLines(readFileSync(join(DATA, sub, f), 'utf8'), copies));
  }
  for (const sub of ['Main', 'Action']) {
    mkdirSync(join(dir, 'results', 'VOC2010', sub), { recursive: true });
    for (const f of readdirSync(join(RESULTS, sub))) writeFileSync(join(dir, 'results', 'VOC2010', sub, f), replicateLines(readFileSync(join(RESULTS, sub, f), 'utf8'), copies));
  }
  if (withAnnotations) {
    mkdirSync(join(dir, 'VOC2010', 'Annotations'));
    for (const [id, ids] of copies) for (const c of ids) copyFileSync(join(DATA, 'Annotations', `${id}.xml`), join(dir, 'VOC2010', 'Annotations', `${c}.xml`));
  }
}

async function run(task: string, root: string, perImage: boolean): Promise<Report> {
  const t = (voc.tasks as unknown as Record<string, TaskDefinition>)[task];
  return t.evaluate({ root }, createRunContext({ workers: 1, perImage }));
}

/** The test units in the order the per-image statistics number them. */
function unitIds(task: string): string[] {
  if (task === 'voc2010/det') return readFileSync(join(DATA, 'ImageSets/Main/val.txt'), 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => l.trim());
  const seen = new Map<string, true>();
  const dir = task === 'voc2010/cls' ? 'Main' : 'Action';
  const files = readdirSync(join(DATA, 'ImageSets', dir)).filter((f) => /^[a-z]+_val\.txt$/.test(f));
  // classes in the task's order (VOC_CLASSES / VOC_ACTIONS are alphabetical, as readdir sorted)
  for (const f of files.sort()) for (const l of readFileSync(join(DATA, 'ImageSets', dir, f), 'utf8').split('\n')) if (l.trim() !== '') seen.set(l.trim().split(/\s+/)[0], true);
  return [...seen.keys()];
}

describe.each(['voc2010/det', 'voc2010/cls', 'voc2010/action'])('%s replicate = official metric on the materialised replicate', (task) => {
  it('bit for bit, on two random replicates and the identity', async () => {
    const report = await run(task, ROOT, true);
    const stats = report.extra!.perImage as PerImageStats;
    const rep = await (voc.tasks as unknown as Record<string, TaskDefinition>)[task].replicate!(stats);
    const ids = unitIds(task);
    expect(ids.length).toBe(stats.images);
    const random = testRandom(3);
    const weights = [new Uint32Array(stats.images).fill(1), random.resampleCounts(stats.images), random.resampleCounts(stats.images)];
    for (const w of weights) {
      const out = new Float64Array(rep.classes.length);
      rep.evaluate(w, out);
      const dir = makeTempDir('cvdevkit-replicate-');
      materialise(dir, ids, w, task === 'voc2010/det');
      const official = await run(task, dir, false);
      expect(official.rows.map((r) => r.key)).toEqual(rep.classes);
      official.rows.forEach((r, k) => expect(Object.is(r.ap, out[k]) || (r.ap === null && Number.isNaN(out[k])), `${r.key}: ${r.ap} vs ${out[k]}`).toBe(true));
    }
  });
});

describe('voc2010/seg replicate = official metric on the materialised replicate', () => {
  it('bit for bit on the identity and a random replicate', async () => {
    const report = await run('voc2010/seg', ROOT, true);
    const stats = report.extra!.perImage as PerImageStats;
    const rep = await (voc.tasks as unknown as Record<string, TaskDefinition>)['voc2010/seg'].replicate!(stats);
    const ids = readFileSync(join(DATA, 'ImageSets/Segmentation/val.txt'), 'utf8').split('\n').map((l) => l.trim()).filter((l) => l !== '');
    expect(ids.length).toBe(stats.images);
    const random = testRandom(5);
    for (const w of [new Uint32Array(stats.images).fill(1), random.resampleCounts(stats.images)]) {
      const out = new Float64Array(rep.classes.length);
      rep.evaluate(w, out);
      const dir = makeTempDir('cvdevkit-replicate-');
      const copies = copyIds(ids, w);
      mkdirSync(join(dir, 'VOC2010', 'ImageSets', 'Segmentation'), { recursive: true });
      mkdirSync(join(dir, 'VOC2010', 'SegmentationClass'));
      const resDir = join(dir, 'results', 'VOC2010', 'Segmentation', 'comp5_val_cls');
      mkdirSync(resDir, { recursive: true });
      const list: string[] = [];
      for (const [id, cs] of copies) {
        for (const c of cs) {
          list.push(c);
          copyFileSync(join(DATA, 'SegmentationClass', `${id}.png`), join(dir, 'VOC2010', 'SegmentationClass', `${c}.png`));
          copyFileSync(join(RESULTS, 'Segmentation', 'comp5_val_cls', `${id}.png`), join(resDir, `${c}.png`));
        }
      }
      writeFileSync(join(dir, 'VOC2010', 'ImageSets', 'Segmentation', 'val.txt'), list.join('\n') + '\n');
      const official = await run('voc2010/seg', dir, false);
      official.rows.forEach((r, k) => expect(Object.is(r.iou, out[k]) || (r.iou === null && Number.isNaN(out[k])), `${r.key}: ${r.iou} vs ${out[k]}`).toBe(true));
    }
  });
});

/** Every `<layout>` repeated once per copy of its image (copies consecutive), `<image>` renamed; other layouts kept once. */
function replicateLayouts(xml: string, copies: Map<string, string[]>): string {
  return xml.replace(/<layout>[\s\S]*?<\/layout>/g, (layout) => {
    const id = /<image>\s*([^<]*?)\s*<\/image>/.exec(layout)?.[1];
    const ids = id === undefined ? undefined : copies.get(id);
    if (!ids) return layout;
    return ids.map((c) => layout.replace(/<image>[^<]*<\/image>/, `<image>${c}</image>`)).join('\n');
  });
}

describe.each(['medium', 'edge'])('voc2010/layout replicate = official metric on the materialised replicate (%s)', (name) => {
  it('bit for bit on the identity and three random replicates', async () => {
    const root = fixturePath('voc2010', name);
    const data = join(root, 'VOC2010');
    const report = await run('voc2010/layout', root, true);
    const stats = report.extra!.perImage as PerImageStats;
    const rep = await (voc.tasks as unknown as Record<string, TaskDefinition>)['voc2010/layout'].replicate!(stats);
    const listText = readFileSync(join(data, 'ImageSets/Layout/val.txt'), 'utf8');
    const ids = [...new Set(listText.split('\n').filter((l) => l.trim() !== '').map((l) => l.trim().split(/\s+/)[0]))];
    expect(ids.length).toBe(stats.images);
    const xml = readFileSync(join(root, 'results', 'VOC2010', 'Layout', 'comp7_layout_val.xml'), 'utf8');
    const random = testRandom(9);
    const weights = [new Uint32Array(stats.images).fill(1), random.resampleCounts(stats.images), random.resampleCounts(stats.images), random.resampleCounts(stats.images)];
    for (const w of weights) {
      const out = new Float64Array(rep.classes.length);
      rep.evaluate(w, out);
      const dir = makeTempDir('cvdevkit-replicate-');
      const copies = copyIds(ids, w);
      mkdirSync(join(dir, 'VOC2010', 'ImageSets', 'Layout'), { recursive: true });
      writeFileSync(join(dir, 'VOC2010', 'ImageSets', 'Layout', 'val.txt'), replicateLines(listText, copies));
      mkdirSync(join(dir, 'VOC2010', 'Annotations'));
      for (const [id, cs] of copies) for (const c of cs) copyFileSync(join(data, 'Annotations', `${id}.xml`), join(dir, 'VOC2010', 'Annotations', `${c}.xml`));
      mkdirSync(join(dir, 'results', 'VOC2010', 'Layout'), { recursive: true });
      writeFileSync(join(dir, 'results', 'VOC2010', 'Layout', 'comp7_layout_val.xml'), replicateLayouts(xml, copies));
      const official = await run('voc2010/layout', dir, false);
      if (w === weights[0]) expect(official.rows.map((r) => r.ap)).toEqual(report.rows.map((r) => r.ap));
      expect(official.rows.map((r) => r.key)).toEqual(rep.classes);
      official.rows.forEach((r, k) => expect(Object.is(r.ap, out[k]) || (r.ap === null && Number.isNaN(out[k])), `${r.key}: ${r.ap} vs ${out[k]}`).toBe(true));
    }
  });
});
