/**
 * ILSVRC CLS-LOC: a replicate from the per-image statistics equals the official evaluation of the
 * materialised replicate, bit for bit: every line of the label and prediction files repeated once per
 * copy of its image (copies consecutive), annotation files copied under names that sort in the
 * replicate's order, and the blacklist listing every copy of a blacklisted image (entries beyond the
 * last image kept). Where the official code fails on a replicate (the n(1) quirk reaching a zero
 * label), the replicate is NaN. On the fixture cases and on a generated case with ragged lines,
 * multi-label rows, explicit 0 guesses and a blacklist with duplicates and out-of-range entries.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRunContext, isDevkitError, type Report, type TaskDefinition } from '@cvdevkit/core';
import type { PerImageStats } from '@cvdevkit/metrics';
import clsloc, { CLSLOC_WNIDS } from '@cvdevkit/ilsvrc2015-clsloc';
import { fixturePath, makeTempDir, testRandom } from '@cvdevkit/test-utils';

const task = clsloc.tasks['ilsvrc2015/clsloc'] as unknown as TaskDefinition;

const textLines = (file: string): string[] => readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '');

function options(dir: string, withBoxes: boolean): Record<string, string> {
  const o: Record<string, string> = { pred: join(dir, 'pred.txt'), labels: join(dir, 'gt.txt') };
  if (withBoxes) o.gt = join(dir, 'Annotations');
  if (withBoxes && existsSync(join(dir, 'blacklist.txt'))) o.blacklist = join(dir, 'blacklist.txt');
  return o;
}

function materialise(src: string, dir: string, w: Uint32Array): void {
  const gt = textLines(join(src, 'gt.txt'));
  const pred = textLines(join(src, 'pred.txt'));
  const xml = readdirSync(join(src, 'Annotations')).filter((f) => f.endsWith('.xml')).sort();
  const copies: number[][] = gt.map(() => []);
  const outGt: string[] = [];
  const outPred: string[] = [];
  mkdirSync(join(dir, 'Annotations'), { recursive: true });
  gt.forEach((line, i) => {
    for (let c = 0; c < w[i]; c++) {
      outGt.push(line);
      outPred.push(pred[i]);
      copies[i].push(outGt.length);
      copyFileSync(join(src, 'Annotations', xml[i]), join(dir, 'Annotations', `R${String(outGt.length).padStart(6, '0')}.xml`));
    }
  });
  writeFileSync(join(dir, 'gt.txt'), outGt.join('\n') + '\n');
  writeFileSync(join(dir, 'pred.txt'), outPred.join('\n') + '\n');
  if (existsSync(join(src, 'blacklist.txt'))) {
    const out: string[] = [];
    for (const b of textLines(join(src, 'blacklist.txt')).map(Number)) {
      if (b <= gt.length) out.push(...copies[b - 1].map(String));
      else out.push(String(b));
    }
    writeFileSync(join(dir, 'blacklist.txt'), out.join('\n') + '\n');
  }
}

async function run(dir: string, withBoxes: boolean, perImage: boolean): Promise<Report> {
  return task.evaluate(options(dir, withBoxes), createRunContext({ workers: 1, perImage }));
}

/** A random case: labels 1..4 (1 to 3 per line), 1 to 3 boxes per image, ragged predictions with some 0 labels. */
function generate(dir: string, seed: number, images: number): void {
  const r = testRandom(seed);
  const box = (): number[] => {
    const x = r.below(40);
    const y = r.below(40);
    return [x, y, x + 10 + r.below(30), y + 10 + r.below(30)];
  };
  mkdirSync(join(dir, 'Annotations'), { recursive: true });
  const gt: string[] = [];
  const pred: string[] = [];
  for (let i = 0; i < images; i++) {
    const n = r.below(10) < 7 ? 1 : 2 + r.below(2);
    const labels = Array.from({ length: n }, () => 1 + r.below(4));
    gt.push(labels.join(' '));
    const objects = labels.flatMap((l) => Array.from({ length: 1 + r.below(2) }, () => ({ l, b: box() })));
    const xml = objects.map((o) => `<object><name>${CLSLOC_WNIDS[o.l - 1]}</name><bndbox><xmin>${o.b[0]}</xmin><ymin>${o.b[1]}</ymin><xmax>${o.b[2]}</xmax><ymax>${o.b[3]}</ymax></bndbox></object>`);
    writeFileSync(join(dir, 'Annotations', `img_${String(i).padStart(4, '0')}.xml`), `<annotation><folder>val</folder><filename>img_${i}</filename><source><database>ILSVRC_2015</database></source><size><width>100</width><height>100</height></size>${xml.join('')}</annotation>\n`);
    // only labels the image has (a guess naming an absent label is an official failure); 0 = no guess
    const guesses = Array.from({ length: 1 + r.below(6) }, () => {
      const o = objects[r.below(objects.length)];
      const label = r.below(8) === 0 ? 0 : o.l;
      const b = r.below(2) === 0 ? o.b : box();
      return [label, ...b].join(' ');
    });
    pred.push(guesses.join(' '));
  }
  writeFileSync(join(dir, 'gt.txt'), gt.join('\n') + '\n');
  writeFileSync(join(dir, 'pred.txt'), pred.join('\n') + '\n');
  writeFileSync(join(dir, 'blacklist.txt'), [2, 5, 5, 9, images + 3].join('\n') + '\n');
}

async function check(src: string, withBoxes: boolean, seed: number, count: number): Promise<number> {
  const report = await run(src, withBoxes, true);
  const stats = report.extra!.perImage as PerImageStats;
  const field = withBoxes ? 'locError' : 'clsError';
  expect(stats.valueField).toBe(field);
  const rep = await (clsloc.tasks['ilsvrc2015/clsloc'] as unknown as TaskDefinition).replicate!(stats);
  const random = testRandom(seed);
  const weights = [new Uint32Array(stats.images).fill(1), ...Array.from({ length: count }, () => random.resampleCounts(stats.images))];
  let failures = 0;
  for (const w of weights) {
    const out = new Float64Array(rep.classes.length);
    rep.evaluate(w, out);
    const dir = makeTempDir('cvdevkit-replicate-clsloc-');
    materialise(src, dir, w);
    let official: Report | undefined;
    try {
      official = await run(dir, withBoxes, false);
    } catch (e) {
      if (!isDevkitError(e)) throw e;
    }
    if (!official) {
      failures++;
      expect(Array.from(out).every(Number.isNaN), `the official code fails on this replicate, the replicate gives ${Array.from(out).join(', ')}`).toBe(true);
      continue;
    }
    expect(official.rows.map((r) => r.key)).toEqual(rep.classes);
    official.rows.forEach((r, k) => expect(Object.is(r[field], out[k]), `${field} with ${r.key} guesses: official ${String(r[field])}, replicate ${out[k]}`).toBe(true));
    expect(Object.is(official.summary[field], out[4])).toBe(true);
  }
  return failures;
}

describe('ilsvrc2015/clsloc replicate = official metric on the materialised replicate', () => {
  it('clsloc_edge (blacklist, ragged lines, label 0), localisation and classification error', async () => {
    await check(fixturePath('ilsvrc2015', 'clsloc_edge'), true, 1, 6);
    await check(fixturePath('ilsvrc2015', 'clsloc_edge'), false, 2, 3);
  });
  it('clsloc_multilabel_quirk: n(1) of the replicate’s first line, failures where the official code fails', async () => {
    await check(fixturePath('ilsvrc2015', 'clsloc_multilabel_quirk'), true, 3, 8);
    await check(fixturePath('ilsvrc2015', 'clsloc_multilabel_quirk'), false, 4, 4);
  });
  it('a generated case: multi-label lines, explicit 0 guesses, blacklist duplicates and out-of-range entries', async () => {
    const src = makeTempDir('cvdevkit-clsloc-case-');
    generate(src, 13, 30);
    const failures = await check(src, true, 5, 6);
    await check(src, false, 6, 3);
    // seeded: one replicate reaches an official failure, the others evaluate
    expect(failures).toBeGreaterThan(0);
    expect(failures).toBeLessThan(7);
  });
});
