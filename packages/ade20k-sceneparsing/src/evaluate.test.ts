import { copyFileSync, cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRunContext, isDevkitError, type Report } from '@cvdevkit/core';
import { fixturePath, makeTempDir } from '@cvdevkit/test-utils';
import { encodeGreyPng } from './grey-png.js';
import plugin from './index.js';
import type { SceneParsingOptions } from './options.js';

const task = plugin.tasks['ade20k/sceneparsing'];
const ROOT = fixturePath('ade20k-sceneparsing');
const ctx = (workers = 1) => createRunContext({ workers });
const dirsOf = (base: string) => ({ gt: join(base, 'annotations', 'validation'), pred: join(base, 'predictions', 'validation') });

async function fails(options: SceneParsingOptions) {
  const e = await task.evaluate(options, ctx()).catch((x: unknown) => x);
  if (!isDevkitError(e)) throw new Error(`expected a DevkitError, got ${String(e)}`);
  return e;
}

/** A copy of a fixture case in a temporary folder (to add or change files). */
function copyCase(name: string): { gt: string; pred: string } {
  const dir = makeTempDir('sceneparsing-');
  cpSync(join(ROOT, name), dir, { recursive: true });
  return dirsOf(dir);
}

/** A report without its timings (they differ between runs). */
function numbers(r: Report) {
  return { summary: r.summary, rows: r.rows, matrices: r.matrices, diagnostics: r.diagnostics };
}

function pngSize(file: string): { width: number; height: number } {
  const b = readFileSync(file);
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

function writeZeros(gtFile: string, predFile: string): void {
  const { width, height } = pngSize(gtFile);
  writeFileSync(predFile, encodeGreyPng({ width, height, data: new Uint8Array(width * height) }));
}

describe('ade20k/sceneparsing evaluate', () => {
  it('warns, naming each file, about a ground truth without prediction and a prediction without ground truth', async () => {
    const r = await task.evaluate(dirsOf(join(ROOT, 'quirks/missing_files')), ctx());
    expect(r.summary.images).toBe(2);
    expect(r.summary.skipped).toBe(2);
    const w = r.diagnostics.filter((d) => d.severity === 'warning');
    expect(w.map((d) => [d.code, String(d.file).split('/').slice(-3).join('/')])).toEqual([
      ['input/missing-prediction', 'annotations/validation/ADE_val_00000003.png'],
      ['input/missing-file', 'predictions/validation/ADE_val_00000009.png'],
    ]);
    expect(w[0].message).toContain('--missing-as-wrong');
  });

  it('--missing-as-wrong scores a missing prediction exactly as an all-0 prediction file', async () => {
    const c = copyCase('quirks/missing_files');
    const wrong = await task.evaluate({ ...c, missingAsWrong: true }, ctx());
    expect(wrong.summary.images).toBe(3);
    writeZeros(join(c.gt, 'ADE_val_00000003.png'), join(c.pred, 'ADE_val_00000003.png'));
    const zeros = await task.evaluate(c, ctx());
    expect(wrong.summary).toEqual({ ...zeros.summary, skipped: 1 });
    expect(wrong.rows).toEqual(zeros.rows);
    expect(wrong.matrices).toEqual(zeros.matrices);
    expect(wrong.summary.score).toBeLessThan((await task.evaluate(dirsOf(join(ROOT, 'quirks/missing_files')), ctx())).summary.score!);
  });

  it('--missing-as-wrong scores a truecolour prediction as all 0 too (the official code skips it)', async () => {
    const c = copyCase('quirks/rgb_pred');
    const skipped = await task.evaluate(c, ctx());
    expect(skipped.summary.images).toBe(1);
    const wrong = await task.evaluate({ ...c, missingAsWrong: true }, ctx());
    expect(wrong.summary.images).toBe(2);
    expect(wrong.diagnostics[0]).toMatchObject({ code: 'input/png-color-type', severity: 'warning' });
    writeZeros(join(c.gt, 'ADE_val_00000001.png'), join(c.pred, 'ADE_val_00000001.png'));
    const zeros = await task.evaluate(c, ctx());
    expect(wrong.rows).toEqual(zeros.rows);
    expect(wrong.summary.score).toBe(zeros.summary.score);
  });

  it('the confusion matrix holds every pixel of the scored images, over the bins in use', async () => {
    const r = await task.evaluate(dirsOf(join(ROOT, 'tiny')), ctx());
    const m = r.matrices.confusion;
    expect(m.labels[0]).toBe('(unlabeled / 0)');
    expect(m.labels.length).toBeLessThan(151);
    expect(m.counts.flat().reduce((s, v) => s + v, 0)).toBe(48 * 64 + 2 * 96 * 128);
    // rows after the first are the labeled pixels; the diagonal after the first cell is the correct ones
    expect(m.counts.slice(1).flat().reduce((s, v) => s + v, 0)).toBe(r.summary.pixelsLabeled);
    expect(m.counts.reduce((s, row, i) => s + (i > 0 ? row[i] : 0), 0)).toBe(r.summary.pixelsCorrect);
  });

  it('worker threads give the same report as one thread', async () => {
    const d = dirsOf(join(ROOT, 'edge'));
    expect(numbers(await task.evaluate(d, ctx(2)))).toEqual(numbers(await task.evaluate(d, ctx(1))));
  });

  it('shards merged give the report of one run, bit for bit, for any shard count', async () => {
    const c = copyCase('edge');
    // a gap and an extra file, so that warnings are split over shards too
    copyFileSync(join(c.gt, 'ADE_val_00000002.png'), join(c.gt, 'ADE_val_00000002b.png'));
    copyFileSync(join(c.pred, 'ADE_val_00000004.png'), join(c.pred, 'ADE_val_00000004x.png'));
    const out = makeTempDir('sceneparsing-shards-');
    for (const missingAsWrong of [false, true]) {
      const whole = numbers(await task.evaluate({ ...c, missingAsWrong }, ctx()));
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 1, max: 12 }), fc.boolean(), async (n, gzip) => {
          const files: string[] = [];
          for (let i = 1; i <= n; i++) {
            const f = join(out, `n${n}-${i}-${missingAsWrong}.json${gzip ? '.gz' : ''}`);
            await task.evaluate({ ...c, missingAsWrong, shard: `${i}/${n}`, countsOut: f }, ctx());
            files.push(f);
          }
          const merged = await task.merge!(files.reverse(), ctx());
          expect(numbers(merged)).toEqual(whole);
        }),
        { numRuns: 4 },
      );
    }
  });

  it('merge refuses counts files of different evaluations, a missing shard and a damaged file', async () => {
    const out = makeTempDir('sceneparsing-merge-');
    const a = dirsOf(join(ROOT, 'tiny'));
    const b = dirsOf(join(ROOT, 'edge'));
    const f = (name: string) => join(out, name);
    await task.evaluate({ ...a, shard: '1/2', countsOut: f('a1.json') }, ctx());
    await task.evaluate({ ...a, shard: '2/2', countsOut: f('a2.json') }, ctx());
    await task.evaluate({ ...b, shard: '2/2', countsOut: f('b2.json') }, ctx());
    await task.evaluate({ ...a, missingAsWrong: true, shard: '2/2', countsOut: f('w2.json') }, ctx());
    const code = async (files: string[]) => {
      const e = await task.merge!(files, ctx()).catch((x: unknown) => x);
      return isDevkitError(e) ? [e.code, e.exitCode] : e;
    };
    expect(await code([f('a1.json'), f('b2.json')])).toEqual(['input/counts-mismatch', 2]);
    expect(await code([f('a1.json'), f('w2.json')])).toEqual(['input/counts-mismatch', 2]);
    expect(await code([f('a1.json')])).toEqual(['input/counts-incomplete', 2]);
    // an identical copy of a shard is ignored; a different file for the same shard is a conflict
    const once = numbers(await task.merge!([f('a1.json'), f('a2.json')], ctx()));
    expect(numbers(await task.merge!([f('a1.json'), f('a2.json'), f('a2.json')], ctx()))).toEqual(once);
    const text = readFileSync(f('a2.json'), 'utf8');
    writeFileSync(f('other.json'), text.replace(/"pixelCorrect":([1-9]\d*)/, (_m, v: string) => `"pixelCorrect":${Number(v) - 1}`));
    expect(await code([f('a1.json'), f('a2.json'), f('other.json')])).toEqual(['input/counts-conflict', 2]);
    writeFileSync(f('bad.json'), text.replace('"pixelLabeled":', '"pixelLabeled":-'));
    expect(await code([f('a1.json'), f('bad.json')])).toEqual(['input/counts-file', 2]);
    writeFileSync(f('cut.json'), text.slice(0, 100));
    expect(await code([f('a1.json'), f('cut.json')])).toEqual(['input/counts-file', 2]);
  });

  it('--shard without --counts-out and a bad --shard are usage errors (exit 1)', async () => {
    const d = dirsOf(join(ROOT, 'tiny'));
    expect((await fails({ ...d, shard: '1/2' })).exitCode).toBe(1);
    expect((await fails({ ...d, shard: '0/2', countsOut: 'x.json' })).code).toBe('usage/shard');
    expect((await fails({ ...d, shard: 'a', countsOut: 'x.json' })).code).toBe('usage/shard');
  });

  it('refuses bad input with exit 2 naming the file: missing folder, damaged PNG, RGB ground truth, 4-bit greyscale', async () => {
    expect((await fails({ gt: join(ROOT, 'nope'), pred: join(ROOT, 'tiny') })).code).toBe('input/missing-folder');
    const c = copyCase('tiny');
    const first = join(c.pred, 'ADE_val_00000001.png');
    writeFileSync(first, readFileSync(first).subarray(0, 60));
    const png = readFileSync(join(c.gt, 'ADE_val_00000002.png'));
    // colour type 2 in the header (the CRC then fails too, but the header is read first)
    const rgb = Buffer.from(png);
    rgb[25] = 2;
    writeFileSync(join(c.gt, 'ADE_val_00000002.png'), rgb);
    const e = await fails(c);
    expect(e.exitCode).toBe(2);
    expect(e.problems.map((p) => [p.code, String(p.file).split('/').pop()])).toEqual([
      ['input/png', 'ADE_val_00000001.png'],
      ['input/png-color-type', 'ADE_val_00000002.png'],
    ]);
    const d = makeTempDir('sceneparsing-lowbit-');
    mkdirSync(join(d, 'gt'));
    mkdirSync(join(d, 'pred'));
    writeFileSync(join(d, 'gt', 'a.png'), encodeGreyPng({ width: 2, height: 1, data: [1, 2] }));
    // a 4-bit greyscale PNG: IHDR depth byte patched on a valid 8-bit file is not decodable, so only the header is checked first
    const four = encodeGreyPng({ width: 2, height: 1, data: [1, 2] });
    four[24] = 4;
    writeFileSync(join(d, 'pred', 'a.png'), four);
    const low = await fails({ gt: join(d, 'gt'), pred: join(d, 'pred') });
    expect(low.problems[0].code).toBe('input/png-depth');
  });

  it('no image evaluated is exit 2 (the official code fails), and says why', async () => {
    const e = await fails(dirsOf(join(ROOT, 'quirks/no_predictions')));
    expect(e.code).toBe('input/no-images');
    expect(e.message).toContain('no *.png file in the predictions folder');
    const d = makeTempDir('sceneparsing-nogt-');
    mkdirSync(join(d, 'gt'));
    cpSync(join(ROOT, 'tiny/predictions/validation'), join(d, 'pred'), { recursive: true });
    expect((await fails({ gt: join(d, 'gt'), pred: join(d, 'pred') })).message).toContain('none with a usable ground truth');
  });

  it('validate lists every problem as an error and every skip as a warning, without scoring', async () => {
    const resize = await task.validate!(dirsOf(join(ROOT, 'quirks/resize')), ctx());
    expect(resize.map((d) => [d.severity, d.code])).toEqual([
      ['error', 'input/size-mismatch'],
      ['error', 'input/size-mismatch'],
    ]);
    expect(resize[1].message).toContain('120×150');
    const missing = await task.validate!(dirsOf(join(ROOT, 'quirks/missing_files')), ctx());
    expect(missing.map((d) => d.severity)).toEqual(['warning', 'warning']);
    expect(await task.validate!(dirsOf(join(ROOT, 'tiny')), ctx())).toEqual([]);
    const none = await task.validate!(dirsOf(join(ROOT, 'quirks/no_predictions')), ctx());
    expect(none.map((d) => [d.severity, d.code])).toEqual([
      ['error', 'input/no-images'],
      ['warning', 'input/missing-prediction'],
    ]);
  });

  it('the embedded sample evaluates (demo)', async () => {
    const dir = makeTempDir('sceneparsing-sample-');
    const options = await task.sample!(dir);
    const r = await task.evaluate(options, ctx());
    expect(r.summary.images).toBe(4);
    expect(r.summary.pixelAccuracy).toBeGreaterThan(0.5);
    expect(r.summary.pixelAccuracy).toBeLessThan(1);
    expect(r.diagnostics).toEqual([]);
  });
});
