/** The plugin object, the embedded sample, validate() and the options of every task. */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRunContext, isDevkitError, metricNames, reportToJson, type TaskOptionsOf } from '@cvdevkit/core';
import { averagePrecision11 } from '@cvdevkit/metrics';
import plugin from '../src/index.js';
import { PACKAGE_VERSION } from '../src/version.js';
import { makeTempDir } from '@cvdevkit/test-utils';

const FIXTURES = fileURLToPath(new URL('../../../fixtures/voc2010/', import.meta.url));
const MY_TASKS = ['voc2010/cls', 'voc2010/det', 'voc2010/layout', 'voc2010/action'] as const;

// Compile-time: the task ids are typed through TaskRegistry (module augmentation in src/index.ts).
const typedDet: TaskOptionsOf<'voc2010/det'> = { root: '/data/VOCdevkit', set: 'val', comp: 'comp4', classes: 'car,dog' };
const typedAction: TaskOptionsOf<'voc2010/action'> = { root: '/data/VOCdevkit', actions: 'phoning' };
// @ts-expect-error root is required
const untyped: TaskOptionsOf<'voc2010/layout'> = { set: 'val' };

describe('plugin', () => {
  it('types the options of each task id', () => {
    expect([typedDet.root, typedAction.actions, untyped.set]).toEqual(['/data/VOCdevkit', 'phoning', 'val']);
  });

  it('has meta and every task keyed by its id', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    expect(plugin.meta).toMatchObject({ name: 'voc2010', version: pkg.version, packageName: '@cvdevkit/voc2010' });
    expect(PACKAGE_VERSION).toBe(pkg.version);
    for (const [id, t] of Object.entries(plugin.tasks)) expect(t.id).toBe(id);
    for (const id of MY_TASKS) {
      const t = plugin.tasks[id];
      expect(t.metric).toBe('ap-voc2010');
      expect(metricNames(t)).toEqual(id === 'voc2010/det' ? ['ap-voc2010', 'ap-voc2007', 'ap-voc2010-difficult'] : ['ap-voc2010', 'ap-voc2007']);
      expect(t.options.map((o) => o.name).slice(0, 4)).toEqual(['root', 'set', 'comp', 'results']);
    }
    expect(plugin.tasks['voc2010/seg']).toBeDefined();
  });
});

describe('sample, validate', () => {
  let dir = '';
  beforeAll(async () => {
    dir = makeTempDir('voc-sample-');
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it.each(MY_TASKS)('%s: the sample evaluates and validates cleanly', async (id) => {
    const t = plugin.tasks[id];
    const opts = await t.sample!(join(dir, id.replace('/', '_')));
    const report = await t.evaluate(opts, createRunContext({ workers: 1 }));
    expect(report.rows.length).toBeGreaterThan(0);
    expect(typeof report.summary.mAP).toBe('number');
    expect(report.summary.mAP).toBeGreaterThan(0.05);
    expect(report.versions).toEqual({ '@cvdevkit/voc2010': PACKAGE_VERSION });
    expect(JSON.parse(reportToJson(report)).schema).toBe('cvdevkit.report/1');
    expect(await t.validate!(opts, createRunContext())).toEqual([]);
  });

  it('the sample is deterministic', async () => {
    const a = await plugin.tasks['voc2010/det'].sample!(join(dir, 'x'));
    const b = await plugin.tasks['voc2010/det'].sample!(join(dir, 'y'));
    const f = 'results/VOC2010/Main/comp3_det_val_car.txt';
    expect(await readFile(join(a.root, f), 'utf8')).toBe(await readFile(join(b.root, f), 'utf8'));
  });

  it('validate lists every problem of the submission with file and line', async () => {
    const diags = await plugin.tasks['voc2010/det'].validate!({ root: `${FIXTURES}errors_a` }, createRunContext());
    expect(diags).toHaveLength(1);
    expect(diags[0]).toMatchObject({ severity: 'error', code: 'input/unknown-image', line: 3 });
    expect(diags[0].file).toMatch(/comp3_det_val_aeroplane\.txt$/);
    const root = join(dir, 'broken');
    await plugin.tasks['voc2010/cls'].sample!(root);
    const f = join(root, 'results/VOC2010/Main/comp1_cls_val_dog.txt');
    await writeFile(f, (await readFile(f, 'utf8')) + 'nope 1\n2010_000001 x\n2010_000002\n');
    const d2 = await plugin.tasks['voc2010/cls'].validate!({ root }, createRunContext());
    expect(d2.map((d) => d.code)).toEqual(['input/number', 'input/field-count', 'input/unknown-image']);
  });
});

describe('errors', () => {
  it('a missing results file, a bad option and an unknown metric', async () => {
    const dir = makeTempDir('voc-err-');
    try {
      const opts = await plugin.tasks['voc2010/det'].sample!(dir);
      await rm(join(dir, 'results/VOC2010/Main/comp3_det_val_cat.txt'));
      await rm(join(dir, 'results/VOC2010/Main/comp3_det_val_dog.txt'));
      const e = await plugin.tasks['voc2010/det'].evaluate(opts, createRunContext({ workers: 1 })).catch((x: unknown) => x);
      expect(isDevkitError(e) && e.kind === 'input').toBe(true);
      expect((e as { problems: unknown[] }).problems).toHaveLength(2);
      const u = await plugin.tasks['voc2010/det'].evaluate({ root: dir, classes: 'car,plane' }, createRunContext()).catch((x: unknown) => x);
      expect(isDevkitError(u) && u.kind === 'usage').toBe(true);
      const m = await plugin.tasks['voc2010/cls'].evaluate({ root: dir }, createRunContext({ metric: 'nope' })).catch((x: unknown) => x);
      expect(isDevkitError(m) && m.kind === 'usage').toBe(true);
      const r = await plugin.tasks['voc2010/cls'].evaluate({ root: join(dir, 'nowhere') }, createRunContext()).catch((x: unknown) => x);
      expect(isDevkitError(r) && r.kind === 'usage').toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('--metric ap-voc2007 gives the 11-point AP', async () => {
    const r = await plugin.tasks['voc2010/det'].evaluate({ root: `${FIXTURES}edge`, classes: 'aeroplane' }, createRunContext({ metric: 'ap-voc2007' }));
    expect(r.metric).toBe('ap-voc2007');
    const want = JSON.parse(readFileSync(`${FIXTURES}edge/expected.json`, 'utf8')).det.aeroplane;
    expect(r.rows[0].ap).toBe(averagePrecision11(want.rec, want.prec));
    expect(r.rows[0].ap).not.toBe(want.ap);
  });
});
