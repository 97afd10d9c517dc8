/**
 * Golden tests against the official devkit (fixtures/ade20k: seeded correspondPixels, CP_SEED = 12345).
 * The full runs use worker threads, so they need the build (`pnpm build`) like every worker-based test.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRunContext, type Report } from '@cvdevkit/core';
import type { BoundaryCountSet, StoredCounts } from '../src/counts.js';
import { makeTempDir } from '@cvdevkit/test-utils';

// Until @cvdevkit/boundary lands its engine, these tests are skipped (they cannot run without it).
const engine = ((await import('@cvdevkit/boundary').catch(() => ({}))) as Record<string, unknown>);
const engineReady = typeof engine.evaluateBoundary === 'function' && typeof engine.collectBoundaryScores === 'function';
const { default: plugin, mergeBoundaryCounts } = engineReady
  ? await import('../src/index.js')
  : ({ default: { tasks: {} } } as unknown as typeof import('../src/index.js'));
const { entryKey, storeCounts } = await import('../src/counts.js');
const { reportFromCounts } = engineReady ? await import('../src/report.js') : ({} as typeof import('../src/report.js'));

const FIXTURES = join(import.meta.dirname, '../../../fixtures/ade20k');
const TOL = 1e-9;

interface ExpectedClass {
  class: number;
  T_ODS: number;
  R_ODS: number;
  P_ODS: number;
  F_ODS: number;
  R_OIS: number;
  P_OIS: number;
  F_OIS: number;
  AP: number;
}
type Arr = number[];
interface Expected {
  images: string[];
  thresholds: number[];
  challenge_score_mean_F_ODS: number;
  mean_F_OIS_150: number;
  mean_AP_150: number;
  classes: ExpectedClass[];
  pr: Record<string, { R: Arr; P: Arr; F: Arr }>;
  counts: Record<string, Record<string, { cntR: Arr; sumR: Arr; cntP: Arr; sumP: Arr }>>;
}

const FIELD_MAP: [keyof ExpectedClass, string][] = [
  ['T_ODS', 'odsThreshold'],
  ['R_ODS', 'odsRecall'],
  ['P_ODS', 'odsPrecision'],
  ['F_ODS', 'odsF'],
  ['R_OIS', 'oisRecall'],
  ['P_OIS', 'oisPrecision'],
  ['F_OIS', 'oisF'],
  ['AP', 'ap'],
];

function loadExpected(name: string): Expected {
  return JSON.parse(readFileSync(join(FIXTURES, name, 'expected.json'), 'utf8')) as Expected;
}

/** Every number of the report against expected.json: 150 classes x 8, the means, the curves. */
function expectParity(report: Report, expected: Expected): void {
  expect(report.rows).toHaveLength(150);
  const mismatches: string[] = [];
  expected.classes.forEach((c, i) => {
    const row = report.rows[i];
    expect(row.key).toBe(`class_${String(c.class).padStart(3, '0')}`);
    for (const [from, to] of FIELD_MAP) {
      const got = row[to] as number;
      if (!(Math.abs(got - c[from]) <= TOL)) mismatches.push(`${row.key} ${to}: got ${got}, expected ${c[from]}`);
    }
  });
  expect(mismatches).toEqual([]);
  expect(Math.abs(report.summary.score! - expected.challenge_score_mean_F_ODS)).toBeLessThanOrEqual(TOL);
  expect(Math.abs(report.summary.odsF! - expected.challenge_score_mean_F_ODS)).toBeLessThanOrEqual(TOL);
  expect(Math.abs(report.summary.oisF! - expected.mean_F_OIS_150)).toBeLessThanOrEqual(TOL);
  expect(Math.abs(report.summary.ap! - expected.mean_AP_150)).toBeLessThanOrEqual(TOL);
  // curves: exactly the classes with any count, R/P/F per threshold
  expect(report.curves.map((c) => c.key).sort()).toEqual(Object.keys(expected.pr).map((k) => `class_${k.padStart(3, '0')}`).sort());
  for (const [k, pr] of Object.entries(expected.pr)) {
    const curve = report.curves.find((c) => c.key === `class_${k.padStart(3, '0')}`)!;
    expect(curve.threshold).toEqual(expected.thresholds);
    for (const [from, to] of [['R', 'recall'], ['P', 'precision'], ['F', 'f']] as const) {
      const got = curve[to] as number[];
      expect(got).toHaveLength(pr[from].length);
      got.forEach((v, i) => expect(Math.abs(v - pr[from][i])).toBeLessThanOrEqual(TOL));
    }
  }
}

function expectDebugCounts(report: Report, expected: Expected): void {
  const got = report.extra?.counts as Record<string, Record<string, unknown>>;
  const want: Record<string, Record<string, unknown>> = {};
  for (const [cls, perImage] of Object.entries(expected.counts)) want[`class_${cls.padStart(3, '0')}`] = perImage;
  expect(got).toEqual(want);
}

/** The official counts as a count set (to check the scoring step on its own). */
function officialCountSet(expected: Expected): BoundaryCountSet {
  const entries = new Map<string, StoredCounts>();
  for (const [cls, perImage] of Object.entries(expected.counts)) {
    for (const [image, c] of Object.entries(perImage)) {
      entries.set(entryKey(expected.images.indexOf(image), Number(cls)), storeCounts(Number(cls), c));
    }
  }
  return { seed: 12345, thresholds: Float64Array.from(expected.thresholds), images: expected.images, classes: Array.from({ length: 150 }, (_, i) => i + 1), entries };
}

const task = plugin.tasks['ade20k/boundary'];
// Worker threads inherit the process's Node options; when vitest runs with `--conditions source`
// (vitest.config.ts ssr.resolve.externalConditions), a thread would resolve @cvdevkit/* to .ts sources and
// fail to load, so the runs stay in this thread then. The worker path is covered end to end by
// test/cli.test.ts (the built binary, 2 workers) and by bench/medium.bench.mjs.
const sourceCondition = process.execArgv.some((a, i, all) => a === '--conditions=source' || ((a === '--conditions' || a === '-C') && all[i + 1] === 'source'));
const WORKERS = sourceCondition ? 1 : 2;
const context = () => createRunContext({ workers: WORKERS });
const run = (name: string, gtLayout: string, extra: Record<string, unknown> = {}) =>
  task.evaluate(
    {
      gt: join(FIXTURES, name, gtLayout, 'validation'),
      pred: join(FIXTURES, name, 'predictions_boundary/validation'),
      debugCounts: true,
      ...extra,
    },
    context(),
  );

describe.skipIf(!engineReady).each(['tiny', 'medium'])('ade20k/boundary golden: %s', (name) => {
  const expected = loadExpected(name);

  it('scores the official counts exactly (collect_eval_bdry)', () => {
    expectParity(reportFromCounts(officialCountSet(expected), { debugCounts: true }), expected);
  });

  let report: Report;
  beforeAll(async () => {
    report = await run(name, 'annotations_boundary');
  });

  it('matches every number of the official evaluation (Octave GT layout)', () => {
    expect(report.summary.images).toBe(expected.images.length);
    expectParity(report, expected);
    expectDebugCounts(report, expected);
  });

  it('gives the same report from the MATLAB GT layout (sparse logical, -v7)', async () => {
    const matlab = await run(name, 'annotations_boundary_matlab');
    expect(matlab.rows).toEqual(report.rows);
    expect(matlab.summary).toEqual(report.summary);
    expectDebugCounts(matlab, expected);
  });

  // Sharding is checked on tiny only (medium would triple the time of this file; the stub-engine test shards 7 ways).
  it.runIf(name === 'tiny')('3 shards merged give a bit-identical report', async () => {
    const dir = makeTempDir(`ade20k-shards-${name}-`);
    const files: string[] = [];
    for (let i = 1; i <= 3; i++) {
      const file = join(dir, `counts-${i}.json${i === 2 ? '.gz' : ''}`);
      const partial = await run(name, 'annotations_boundary', { shard: `${i}/3`, countsOut: file });
      expect(partial.rows).toEqual([]);
      expect(partial.summary.shard).toBe(i);
      files.push(file);
    }
    const merged = mergeBoundaryCounts(files.reverse(), { debugCounts: true });
    expect(merged.rows).toEqual(report.rows);
    expect(merged.summary).toEqual(report.summary);
    expect(merged.curves).toEqual(report.curves);
    expect(merged.extra).toEqual(report.extra);
    const viaTask = await plugin.tasks['ade20k/boundary-merge'].evaluate({ counts: dir }, context());
    expect(viaTask.rows).toEqual(report.rows);
    expect(viaTask.extra).toBeUndefined();
  });
});

describe.skipIf(!engineReady)('ade20k/boundary golden: tiny edge cases', () => {
  it('MATLAB -v6 layout and one worker thread give the same numbers', async () => {
    const expected = loadExpected('tiny');
    const report = await task.evaluate(
      {
        gt: join(FIXTURES, 'tiny/annotations_boundary_matlab_v6/validation'),
        pred: join(FIXTURES, 'tiny/predictions_boundary/validation'),
        debugCounts: true,
      },
      createRunContext({ workers: 1 }),
    );
    expectParity(report, expected);
    expectDebugCounts(report, expected);
  });

  it('a class subset scores those classes only', async () => {
    const expected = loadExpected('tiny');
    const report = await run('tiny', 'annotations_boundary', { classes: '50-57', debugCounts: false });
    expect(report.rows.map((r) => r.key)).toEqual(['class_050', 'class_051', 'class_052', 'class_053', 'class_054', 'class_055', 'class_056', 'class_057']);
    report.rows.forEach((row, i) => {
      const c = expected.classes[49 + i];
      for (const [from, to] of FIELD_MAP) expect(Math.abs((row[to] as number) - c[from])).toBeLessThanOrEqual(TOL);
    });
    expect(report.diagnostics.some((d) => d.code === 'ade20k/class-subset')).toBe(true);
    expect(report.extra).toBeUndefined();
  });
});
