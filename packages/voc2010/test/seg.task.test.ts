/** voc2010/seg and voc2010/seg-from-det as tasks: sample, validate, problem collection, end-to-end from detections. */
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createRunContext, reportToJson, type DevkitError } from '@cvdevkit/core';
import { encodeIndexedPng } from '@cvdevkit/formats/png';
import { segFromDetTask, segTask } from '../src/seg/task.js';
import { VOC_CLASSES } from '../src/seg/classes.js';
import { formatDetResults } from '../src/writers/index.js';

const FIXTURES = fileURLToPath(new URL('../../../fixtures/voc2010/', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'cvdevkit-seg-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const ctx = () => createRunContext({ workers: 1 });

describe('voc2010/seg task', () => {
  it('evaluates its embedded sample (all 21 IoUs defined)', async () => {
    const dir = join(tmp, 'sample');
    const options = await segTask.sample!(dir);
    const report = await segTask.evaluate(options, ctx());
    expect(report.rows).toHaveLength(21);
    expect(report.rows[0].key).toBe('background');
    for (const r of report.rows) expect(Number.isNaN(r.iou)).toBe(false);
    expect(report.summary.mIoU).toBeGreaterThan(0.3);
    expect(report.summary.mIoU).toBeLessThan(1);
    expect(report.matrices.confusion.counts).toHaveLength(21);
    expect(JSON.parse(reportToJson(report)).schema).toBe('cvdevkit.report/1');
    expect(await segTask.validate!(options, ctx())).toEqual([]);
  });

  it('validate lists the official failures as error diagnostics', async () => {
    const a = await segTask.validate!({ root: join(FIXTURES, 'errors_a') }, ctx());
    expect(a.map((d) => d.code)).toEqual(['input/label-range']);
    expect(a[0].severity).toBe('error');
    expect(a[0].file).toContain('2010_000301.png');
    expect(a[0].message).toMatch(/^pixel \d+,\d+: results image '2010_000301' has out of range value 21/);
    const b = await segTask.validate!({ root: join(FIXTURES, 'errors_b') }, ctx());
    expect(b.map((d) => d.code)).toEqual(['input/size-mismatch']);
    expect(await segTask.validate!({ root: join(FIXTURES, 'edge') }, ctx())).toEqual([]);
  });

  it('collects every problem of the run (missing result PNGs, bad values) into one input error', async () => {
    const root = join(tmp, 'edge-broken');
    cpSync(join(FIXTURES, 'edge'), root, { recursive: true });
    const resDir = join(root, 'results/VOC2010/Segmentation/comp5_val_cls');
    rmSync(join(resDir, '2010_000302.png'));
    writeFileSync(join(resDir, '2010_000304.png'), encodeIndexedPng({ width: 2, height: 1, data: [0, 255] }));
    const worker = fileURLToPath(new URL('../dist/seg/seg.worker.js', import.meta.url));
    // in-process, and (after a build) with worker threads: same problems, in image-set order
    for (const workers of existsSync(worker) ? [1, 3] : [1]) {
      const err = (await segTask.evaluate({ root }, createRunContext({ workers })).catch((e: unknown) => e)) as DevkitError;
      expect(err.kind).toBe('input');
      expect(err.exitCode).toBe(2);
      expect(err.problems.map((p) => p.code)).toEqual(['input/missing-file', 'input/label-range', 'input/size-mismatch']);
      expect(err.message).toContain('2010_000302.png');
      expect(err.message).toContain('2010_000304.png (pixel 2,1)');
    }
  });

  it('a missing image set and a missing root are clear errors', async () => {
    const e1 = (await segTask.evaluate({ root: join(FIXTURES, 'edge'), set: 'nope' }, ctx()).catch((e: unknown) => e)) as DevkitError;
    expect(e1.kind).toBe('input');
    expect(e1.message).toContain('nope.txt');
    const e2 = (await segTask.evaluate({ root: join(tmp, 'does-not-exist') }, ctx()).catch((e: unknown) => e)) as DevkitError;
    expect(e2.kind).toBe('usage');
  });

  it('an entirely void ground truth contributes nothing and is reported as a warning', async () => {
    const root = join(tmp, 'void');
    mkdirSync(join(root, 'VOC2010/ImageSets/Segmentation'), { recursive: true });
    mkdirSync(join(root, 'VOC2010/SegmentationClass'), { recursive: true });
    mkdirSync(join(root, 'results/VOC2010/Segmentation/comp5_val_cls'), { recursive: true });
    writeFileSync(join(root, 'VOC2010/ImageSets/Segmentation/val.txt'), '2010_000001\n2010_000002\n');
    const put = (dir: string, id: string, data: number[]) => writeFileSync(join(root, dir, `${id}.png`), encodeIndexedPng({ width: 2, height: 2, data }));
    put('VOC2010/SegmentationClass', '2010_000001', [255, 255, 255, 255]);
    put('VOC2010/SegmentationClass', '2010_000002', [0, 1, 1, 255]);
    put('results/VOC2010/Segmentation/comp5_val_cls', '2010_000001', [3, 3, 3, 3]);
    put('results/VOC2010/Segmentation/comp5_val_cls', '2010_000002', [0, 1, 0, 5]);
    const report = await segTask.evaluate({ root }, ctx());
    expect(report.diagnostics.map((d) => d.code)).toEqual(['seg/all-void']);
    expect(report.rows[0].iou).toBe(0.5);
    expect(report.rows[1].iou).toBe(0.5);
    expect(report.rows[3].iou).toBeNaN();
    expect(report.summary.mIoU).toBeNull();
  });
});

describe('voc2010/seg-from-det task', () => {
  it('paints detections into PNGs that voc2010/seg scores (boxes equal to the objects give IoU 1)', async () => {
    const root = join(tmp, 'fromdet');
    const V = join(root, 'VOC2010');
    mkdirSync(join(V, 'ImageSets/Segmentation'), { recursive: true });
    mkdirSync(join(V, 'SegmentationClass'), { recursive: true });
    mkdirSync(join(root, 'results/VOC2010/Main'), { recursive: true });
    writeFileSync(join(V, 'ImageSets/Segmentation/val.txt'), '2010_000001\n2010_000002\n');
    const W = 12;
    const H = 8;
    const gt = (boxes: [number, number, number, number, number][]) => {
      const d = new Uint8Array(W * H);
      for (const [label, x1, y1, x2, y2] of boxes) for (let y = y1; y <= y2; y++) for (let x = x1; x <= x2; x++) d[(y - 1) * W + x - 1] = label;
      return d;
    };
    writeFileSync(join(V, 'SegmentationClass/2010_000001.png'), encodeIndexedPng({ width: W, height: H, data: gt([[7, 2, 2, 6, 5]]) }));
    writeFileSync(join(V, 'SegmentationClass/2010_000002.png'), encodeIndexedPng({ width: W, height: H, data: gt([[15, 1, 1, 12, 8], [12, 4, 3, 9, 6]]) }));
    const dets: Record<string, { image: string; confidence: number; box: [number, number, number, number] }[]> = {
      car: [{ image: '2010_000001', confidence: 0.8, box: [1.6, 2.4, 6.4, 5.49] }, { image: '2010_000001', confidence: 0.01, box: [8, 1, 12, 8] }],
      dog: [{ image: '2010_000002', confidence: 0.9, box: [4, 3, 9, 6] }],
      person: [{ image: '2010_000002', confidence: 0.5, box: [-5, -5, 50, 50] }, { image: '2010_999999', confidence: 1, box: [1, 1, 2, 2] }],
    };
    for (const cls of VOC_CLASSES) writeFileSync(join(root, `results/VOC2010/Main/comp3_det_val_${cls}.txt`), formatDetResults(dets[cls] ?? []));

    const made = await segFromDetTask.evaluate({ root, threshold: 0.05, instances: true, order: 'confidence' }, ctx());
    expect(made.summary).toEqual({ images: 2, detectionsRead: 5, detectionsUsed: 3 });
    const report = await segTask.evaluate({ root, comp: 'comp3' }, ctx());
    const iou = Object.fromEntries(report.rows.map((r) => [r.key, r.iou]));
    expect(iou.background).toBe(1);
    expect(iou.car).toBe(1);
    expect(iou.dog).toBe(1);
    expect(iou.person).toBe(1);
    expect(iou.cat).toBeNaN();
    // --out-dir puts the class PNGs elsewhere (and the instance PNGs next to them)
    const other = join(root, 'elsewhere', 'mine_val_cls');
    await segFromDetTask.evaluate({ root, outDir: other, instances: true }, ctx());
    expect(existsSync(join(other, '2010_000002.png'))).toBe(true);
    expect(existsSync(join(root, 'elsewhere', 'comp3_val_inst', '2010_000002.png'))).toBe(true);
    // the VOC2010 default paints in class order: person (15) overwrites dog (12) in image 2
    await segFromDetTask.evaluate({ root, threshold: 0.05, segComp: 'comp5' }, ctx());
    const classOrder = await segTask.evaluate({ root }, ctx());
    expect(classOrder.rows.find((r) => r.key === 'dog')?.iou).toBe(0);
  });

  it('a missing class results file is an input error naming it', async () => {
    const root = join(tmp, 'fromdet-missing');
    mkdirSync(join(root, 'VOC2010/ImageSets/Segmentation'), { recursive: true });
    writeFileSync(join(root, 'VOC2010/ImageSets/Segmentation/val.txt'), '2010_000001\n');
    const err = (await segFromDetTask.evaluate({ root }, ctx()).catch((e: unknown) => e)) as DevkitError;
    expect(err.kind).toBe('input');
    expect(err.message).toContain('comp3_det_val_aeroplane.txt');
  });
});
