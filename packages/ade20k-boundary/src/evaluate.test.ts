import { beforeAll, describe, expect, it, vi } from 'vitest';
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRunContext, isDevkitError, type ProgressSink } from '@cvdevkit/core';
import { makeTempDir } from '@cvdevkit/test-utils';

// Stub engine (the real one is exercised by test/golden.test.ts): deterministic counts from the inputs.
vi.mock('@cvdevkit/boundary', async (importOriginal) => {
  const { DEFAULT_SEED, isAllZero } = await importOriginal<typeof import('@cvdevkit/boundary')>();
  const n = 99;
  const thresholds = Float64Array.from({ length: n }, (_, i) => (i + 1) / 100);
  const ones = (a: Uint8Array | null) => (a ? a.reduce((s, v) => s + (v ? 1 : 0), 0) : 0);
  return {
    DEFAULT_SEED,
    isAllZero,
    boundaryThresholds: () => thresholds.slice(),
    evaluateBoundary: (pred: Uint8Array, gt: Uint8Array | null, _h: number, _w: number, o: { seed?: number }) => {
      const f = (fn: (t: number) => number) => Float64Array.from({ length: n }, (_, t) => fn(t));
      const hist = new Float64Array(256);
      for (let i = 0; i < pred.length; i++) hist[pred[i]]++;
      const atLeast = new Float64Array(257);
      for (let v = 255; v >= 0; v--) atLeast[v] = atLeast[v + 1] + hist[v];
      const above = (t: number) => atLeast[Math.ceil((t + 1) * 2.55)];
      const g = ones(gt);
      return {
        cntR: f((t) => (gt ? Math.min(g, above(t)) : 0)),
        sumR: f(() => g),
        cntP: f((t) => (gt ? Math.min(g, above(t)) : 0)),
        sumP: f((t) => above(t) + (o.seed === 1 && above(t) > 0 ? 1 : 0)),
      };
    },
    collectBoundaryScores: (perImage: { cntR: Float64Array; sumR: Float64Array; sumP: Float64Array }[], th: Float64Array) => {
      let r = 0;
      let s = 0;
      let p = 0;
      for (const c of perImage) {
        r += c.cntR[0];
        s += c.sumR[0];
        p += c.sumP[0];
      }
      const R = r / (s || 1);
      const P = r / (p || 1);
      const F = R + P === 0 ? 0 : (2 * R * P) / (R + P);
      return {
        odsThreshold: th[0], odsRecall: R, odsPrecision: P, odsF: F, oisRecall: R, oisPrecision: P, oisF: F, ap: R / 2,
        curve: { threshold: th, recall: new Float64Array(th.length).fill(R), precision: new Float64Array(th.length).fill(P), f: new Float64Array(th.length).fill(F) },
      };
    },
  };
});

const { default: plugin, mergeBoundaryCounts } = await import('./index.js');
const { writeAde20kBoundarySample } = await import('./sample.js');
const task = plugin.tasks['ade20k/boundary'];
const ctx = (extra: Parameters<typeof createRunContext>[0] = {}) => createRunContext({ workers: 1, ...extra });

async function failure(p: Promise<unknown>): Promise<{ kind: string; message: string; problems: number }> {
  try {
    await p;
  } catch (e) {
    if (isDevkitError(e)) return { kind: e.kind, message: e.message, problems: e.problems.length };
    throw e;
  }
  throw new Error('no error');
}

let sample: { gt: string; pred: string };
beforeAll(async () => {
  sample = await writeAde20kBoundarySample(makeTempDir('ade20k-eval-'));
});

describe('plugin shape', () => {
  it('declares the tasks, options and metric', () => {
    expect(plugin.meta.name).toBe('ade20k');
    expect(plugin.meta.packageName).toBe('@cvdevkit/ade20k-boundary');
    expect(Object.keys(plugin.tasks)).toEqual(['ade20k/boundary', 'ade20k/boundary-merge']);
    expect(task.metric).toBe('bsds-ods');
    expect(task.options.map((o) => o.name)).toEqual(['gt', 'pred', 'seed', 'shard', 'countsOut', 'classes', 'debugCounts']);
    expect(task.options.find((o) => o.name === 'seed')!.default).toBe(12345);
    expect(plugin.tasks['ade20k/boundary-merge'].options.map((o) => o.name)).toEqual(['counts', 'debugCounts']);
  });
});

describe('evaluate (stub engine)', () => {
  it('the default worker count (chosen from the work) gives the counts of one worker, every unit once', async () => {
    let advanced = 0;
    const progress: ProgressSink = { begin: () => {}, advance: (n = 1) => void (advanced += n), end: () => {} };
    const auto = await task.evaluate({ ...sample, debugCounts: true }, createRunContext({ workers: 2, workersAuto: true, progress }));
    const one = await task.evaluate({ ...sample, debugCounts: true }, ctx());
    expect(auto.extra!.counts).toEqual(one.extra!.counts);
    expect(auto.summary.score).toBe(one.summary.score);
    expect(advanced).toBe(300);
  });

  it('evaluates the sample: 150 rows, the summary, curves for classes with counts, progress', async () => {
    const events: string[] = [];
    const progress: ProgressSink = { begin: (l, n) => events.push(`begin ${l} ${n}`), advance: (n = 1) => events.push(`+${n}`), end: () => events.push('end') };
    const r = await task.evaluate({ ...sample, debugCounts: true }, ctx({ progress }));
    expect(r.task).toBe('ade20k/boundary');
    expect(r.metric).toBe('bsds-ods');
    expect(r.rows).toHaveLength(150);
    expect(r.rows[0]).toMatchObject({ key: 'class_001', name: 'wall' });
    expect(Object.keys(r.rows[0]).sort()).toEqual(['ap', 'key', 'name', 'odsF', 'odsPrecision', 'odsRecall', 'odsThreshold', 'oisF', 'oisPrecision', 'oisRecall'].sort());
    expect(r.summary.score).toBe(r.rows.reduce((s, x) => s + (x.odsF as number), 0) / 150);
    expect(r.summary.images).toBe(2);
    expect(r.curves.map((c) => c.key)).toEqual(['class_001', 'class_003', 'class_005', 'class_013', 'class_030']);
    expect(Object.keys(r.extra!.counts as object)).toEqual(['class_001', 'class_003', 'class_005', 'class_013', 'class_030']);
    expect(events[0]).toBe('begin ade20k/boundary 300');
    expect(events.filter((e) => e === '+1')).toHaveLength(300);
    expect(events.at(-1)).toBe('end');
    expect(r.versions['@cvdevkit/ade20k-boundary']).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('writes the sample deterministically', async () => {
    const other = await writeAde20kBoundarySample(makeTempDir('ade20k-eval2-'));
    const a = await task.evaluate({ ...sample, debugCounts: true }, ctx());
    const b = await task.evaluate({ ...other, debugCounts: true }, ctx());
    expect(b.rows).toEqual(a.rows);
    expect(b.extra).toEqual(a.extra);
  });

  it('merges any number of shards into the single-run report', async () => {
    const single = await task.evaluate({ ...sample, debugCounts: true }, ctx());
    const dir = makeTempDir('ade20k-shards-');
    const files: string[] = [];
    for (let i = 1; i <= 7; i++) {
      const file = join(dir, `s${i}.json`);
      const partial = await task.evaluate({ ...sample, shard: `${i}/7`, countsOut: file }, ctx());
      expect(partial.summary).toMatchObject({ shard: i, shards: 7, unitsTotal: 300 });
      files.push(file);
    }
    const merged = mergeBoundaryCounts(files, { debugCounts: true });
    expect(merged.rows).toEqual(single.rows);
    expect(merged.summary).toEqual(single.summary);
    expect(merged.extra).toEqual(single.extra);
    // one merge path: the `merge` hook (cvdevkit merge) and the ade20k/boundary-merge task agree
    const viaHook = await task.merge!(files, ctx({ perImage: true }));
    const viaTask = await plugin.tasks['ade20k/boundary-merge'].evaluate({ counts: files.join(',') }, ctx({ perImage: true }));
    expect(viaHook.rows).toEqual(single.rows);
    expect(viaHook.summary).toEqual(single.summary);
    expect(viaTask.rows).toEqual(viaHook.rows);
    expect(viaTask.extra).toEqual(viaHook.extra);
    // the deprecated alias says what to run instead, once; the hook does not
    expect(viaTask.diagnostics.filter((d) => d.code === 'ade20k/deprecated-task').map((d) => d.message)).toEqual([expect.stringContaining('cvdevkit merge ade20k/boundary')]);
    expect(viaHook.diagnostics.some((d) => d.code === 'ade20k/deprecated-task')).toBe(false);
    expect((viaHook.extra as { perImage?: unknown }).perImage).toBeDefined();
    const missing = await failure(plugin.tasks['ade20k/boundary-merge'].evaluate({ counts: files.slice(1).join(',') }, ctx()));
    expect(missing.kind).toBe('input');
    expect(missing.message).toMatch(/missing .*ADE_val_00000001 class_001.*shards given: 2\/7/);
  });

  it('uses the seed', async () => {
    const a = await task.evaluate({ ...sample, classes: '30', debugCounts: true }, ctx());
    const b = await task.evaluate({ ...sample, classes: '30', seed: 1, debugCounts: true }, ctx());
    expect(b.extra).not.toEqual(a.extra);
    expect(b.summary.seed).toBe(1);
  });

  it('needs --counts-out with a shard and checks options', async () => {
    expect((await failure(task.evaluate({ ...sample, shard: '1/2' }, ctx()))).message).toMatch(/--counts-out/);
    expect((await failure(task.evaluate({ ...sample, shard: '3/2', countsOut: 'x' }, ctx()))).kind).toBe('usage');
    expect((await failure(task.evaluate({ ...sample, seed: -3 }, ctx()))).kind).toBe('usage');
    const noGt = await failure(task.evaluate({ ...sample, gt: join(sample.gt, 'nope') }, ctx()));
    expect(noGt).toMatchObject({ kind: 'input' });
    expect(noGt.message).toMatch(/nope.*no such folder/);
  });

  it('reports every missing or bad prediction of a run together (exit 2)', async () => {
    const root = makeTempDir('ade20k-bad-');
    const pred = join(root, 'pred');
    cpSync(sample.pred, pred, { recursive: true });
    rmSync(join(pred, 'class_007'), { recursive: true });
    rmSync(join(pred, 'class_009', 'ADE_val_00000002.png'));
    const missing = await failure(task.evaluate({ gt: sample.gt, pred }, ctx()));
    expect(missing.kind).toBe('input');
    expect(missing.problems).toBe(2);
    expect(missing.message).toMatch(/class_007: expected a folder class_007 with 2 PNG files, found no such folder/);
    expect(missing.message).toMatch(/class_009\/ADE_val_00000002\.png: .*found no such file/);

    cpSync(join(sample.pred, 'class_007'), join(pred, 'class_007'), { recursive: true });
    cpSync(join(sample.pred, 'class_009'), join(pred, 'class_009'), { recursive: true });
    writeFileSync(join(pred, 'class_002', 'ADE_val_00000001.png'), 'not a png');
    const { PNG } = await import('pngjs');
    const rgb = new PNG({ width: 96, height: 64 });
    writeFileSync(join(pred, 'class_140', 'ADE_val_00000002.png'), PNG.sync.write(rgb, { colorType: 2 }));
    const small = new PNG({ width: 10, height: 10 });
    writeFileSync(join(pred, 'class_150', 'ADE_val_00000001.png'), PNG.sync.write(small, { colorType: 0, inputColorType: 6 }));
    const bad = await failure(task.evaluate({ gt: sample.gt, pred }, ctx()));
    expect(bad.problems).toBe(3);
    expect(bad.message).toMatch(/class_002\/ADE_val_00000001\.png: expected 8-bit greyscale PNG.*found not a PNG file/);
    expect(bad.message).toMatch(/class_140\/ADE_val_00000002\.png: .*found 8-bit RGB PNG/);
    expect(bad.message).toMatch(/class_150\/ADE_val_00000001\.png: expected 64x96 .*found 10x10/);

    const diags = await task.validate!({ gt: sample.gt, pred }, ctx());
    expect(diags.map((d) => d.code).sort()).toEqual(['input/png', 'input/png-color-type', 'input/size-mismatch']);
    expect(diags.find((d) => d.code === 'input/png')).toMatchObject({ severity: 'error', file: join(pred, 'class_002', 'ADE_val_00000001.png') });
    expect(diags.find((d) => d.code === 'input/png')!.message).toMatch(/^expected 8-bit greyscale/);
    rmSync(join(pred, 'class_007'), { recursive: true });
    const both = await task.validate!({ gt: sample.gt, pred }, ctx());
    expect(both.map((d) => d.code).sort()).toEqual(['input/missing-prediction', 'input/png', 'input/png-color-type', 'input/size-mismatch']);
    expect(await task.validate!({ ...sample }, ctx())).toEqual([]);
  });
});
