import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRunContext, isDevkitError, type Report } from '@cvdevkit/core';
import plugin, { type ClsLocOptions } from '../src/index.js';
import { makeTempDir } from '@cvdevkit/test-utils';

const FIXTURES = new URL('../../../fixtures/ilsvrc2015/', import.meta.url).pathname;
const REAL = new URL('../../../fixtures/ilsvrc2015/real/', import.meta.url).pathname;
const task = plugin.tasks['ilsvrc2015/clsloc'];

interface Expected {
  ok: boolean;
  clsloc_error: (number | string)[];
  cls_error: (number | string)[];
  cls_error_nargout1: (number | string)[];
  error?: string;
}

function caseOptions(name: string): ClsLocOptions {
  const dir = join(FIXTURES, name);
  const o: ClsLocOptions = { pred: join(dir, 'pred.txt'), labels: join(dir, 'gt.txt'), gt: join(dir, 'Annotations') };
  if (existsSync(join(dir, 'blacklist.txt'))) o.blacklist = join(dir, 'blacklist.txt');
  return o;
}

function expectedOf(name: string): Expected {
  return JSON.parse(readFileSync(join(FIXTURES, name, 'expected.json'), 'utf8')) as Expected;
}

function expectClose(actual: (number | null | undefined)[], expected: (number | string)[]): void {
  expect(actual.length).toBe(expected.length);
  actual.forEach((a, k) => {
    const e = Number(expected[k]);
    expect(typeof a).toBe('number');
    expect(Math.abs((a as number) - e), `index ${k}: ${a} vs ${e}`).toBeLessThanOrEqual(1e-9);
  });
}

function checkReport(report: Report, expected: Expected): void {
  expect(report.rows.map((r) => r.key)).toEqual(['1', '2', '3', '4', '5']);
  expectClose(report.rows.map((r) => r.clsError as number), expected.cls_error);
  expectClose(report.rows.map((r) => r.locError as number), expected.clsloc_error);
  expect(Math.abs(report.summary.clsError! - Number(expected.cls_error[4]))).toBeLessThanOrEqual(1e-9);
  expect(Math.abs(report.summary.locError! - Number(expected.clsloc_error[4]))).toBeLessThanOrEqual(1e-9);
}

describe('golden: official eval_clsloc.m numbers', () => {
  for (const name of ['clsloc_edge', 'clsloc_multilabel_quirk']) {
    it(name, async () => {
      const expected = expectedOf(name);
      const report = await task.evaluate(caseOptions(name), createRunContext({ workers: 1 }));
      checkReport(report, expected);
      expect(report.metric).toBe('ilsvrc-clsloc-error');
    });
  }

  it('clsloc_edge without --gt gives the classification error only (nargout == 1)', async () => {
    const expected = expectedOf('clsloc_edge');
    const { gt: _gt, ...options } = caseOptions('clsloc_edge');
    const report = await task.evaluate(options, createRunContext({ workers: 1 }));
    expectClose(report.rows.map((r) => r.clsError as number), expected.cls_error_nargout1);
    expect(report.summary.locError).toBeNull();
    expect(report.diagnostics.map((d) => d.code)).toContain('clsloc/classification-only');
  });

  it('clsloc_multilabel_quirk reports the quirk as a warning', async () => {
    const report = await task.evaluate(caseOptions('clsloc_multilabel_quirk'), createRunContext({ workers: 1 }));
    const d = report.diagnostics.find((x) => x.code === 'clsloc/multilabel-quirk');
    expect(d?.severity).toBe('warning');
    expect(d?.intendedLocError).toBeDefined();
  });

  it('clsloc_edge reports no quirk', async () => {
    const report = await task.evaluate(caseOptions('clsloc_edge'), createRunContext({ workers: 1 }));
    expect(report.diagnostics.map((d) => d.code)).not.toContain('clsloc/multilabel-quirk');
  });

  it('errors/clsloc_label_without_box: the official crash is an input error naming file:line', async () => {
    const name = 'errors/clsloc_label_without_box';
    expect(expectedOf(name).ok).toBe(false);
    const options = caseOptions(name);
    const err = await task.evaluate(options, createRunContext({ workers: 1 })).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isDevkitError(err)).toBe(true);
    if (!isDevkitError(err)) return;
    expect(err.kind).toBe('input');
    expect(err.exitCode).toBe(2);
    expect(err.code).toBe('clsloc/label-without-box');
    expect(err.file).toBe(options.pred);
    expect(err.line).toBe(1);
    expect(err.message).toMatch(/pred\.txt:1 \[guess 1\]: expected a ground-truth box of class 1 in .*ILSVRC2012_val_00000001\.xml/);
    expect(err.message).toMatch(/found none \(box classes: 2\)/);
  });
});

describe('validate and demo', () => {
  it('validate returns no diagnostics for a valid submission and every problem for a bad one', async () => {
    expect(await task.validate!(caseOptions('clsloc_edge'), createRunContext())).toEqual([]);
    const { writeFileSync } = await import('node:fs');
    const dir = makeTempDir('clsloc-validate-');
    writeFileSync(join(dir, 'pred.txt'), '1 1 1 5 5\n2 1 1 5\n');
    writeFileSync(join(dir, 'gt.txt'), '1\n2\n3\n');
    const d = await task.validate!({ pred: join(dir, 'pred.txt'), labels: join(dir, 'gt.txt') }, createRunContext());
    expect(d.map((x) => [x.severity, x.code, x.line])).toEqual([
      ['error', 'input/field-count', 2],
      ['error', 'input/row-count', undefined],
    ]);
  });

  it('sample writes a case the task evaluates', async () => {
    const options = await task.sample!(makeTempDir('clsloc-sample-'));
    const report = await task.evaluate(options, createRunContext({ workers: 1 }));
    expect(report.rows.map((r) => r.clsError)).toEqual([0.5, 0.375, 0.25, 0.25, 0.25]);
    expect(report.summary.locError).toBe(3 / 7);
  });
});

describe('real devkit data', () => {
  const labels = join(REAL, 'ILSVRC2015_clsloc_validation_ground_truth.txt');
  const cache = join(REAL, 'ILSVRC2015_clsloc_validation_ground_truth.mat');
  it.runIf(existsSync(cache))('the real rec cache with predictions = the true label + a GT box gives 0 errors', async () => {
    const { readRecCache } = await import('../src/ground-truth.js');
    const rec = readRecCache(cache);
    const gtLines = readFileSync(labels, 'utf8').trim().split('\n');
    expect(rec.images).toBe(50000);
    expect(rec.labels.length).toBe(80477);
    expect(gtLines.length).toBe(50000);
    // Guess 1: a wrong label; guess 2: the true label with the last box of that label in rec(i).
    const lines: string[] = [];
    for (let i = 0; i < rec.images; i++) {
      const t = Number(gtLines[i]);
      let box = [0, 0, 0, 0];
      for (let o = rec.offsets[i]; o < rec.offsets[i + 1]; o++) if (rec.labels[o] === t) box = Array.from(rec.boxes.subarray(o * 4, o * 4 + 4));
      lines.push(`${(t % 1000) + 1} 0 0 1 1 ${t} ${box.join(' ')}`);
    }
    const { writeFileSync } = await import('node:fs');
    const dir = makeTempDir('clsloc-real-');
    writeFileSync(join(dir, 'pred.txt'), lines.join('\n') + '\n');
    const report = await task.evaluate(
      { pred: join(dir, 'pred.txt'), labels, gt: cache, blacklist: join(REAL, 'ILSVRC2015_clsloc_validation_blacklist.txt'), meta: join(REAL, 'meta_clsloc.mat') },
      createRunContext({ workers: 1 }),
    );
    expect(report.rows[0].clsError).toBe(1);
    expect(report.rows[0].locError).toBe(1);
    for (let k = 1; k < 5; k++) {
      expect(report.rows[k].clsError).toBe(0);
      expect(report.rows[k].locError).toBe(0);
    }
    expect(report.extra?.blacklistedImages).toBe(1762);
  });
});
