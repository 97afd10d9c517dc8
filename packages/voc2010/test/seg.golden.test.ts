/** Golden tests: voc2010/seg against the official VOCevalseg numbers (Octave 7.3) of the fixtures. */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createRunContext, isDevkitError, type DevkitError } from '@cvdevkit/core';
import { segTask } from '../src/seg/task.js';

const FIXTURES = fileURLToPath(new URL('../../../fixtures/voc2010/', import.meta.url));

interface SegExpected {
  classes: string[];
  accuracies: (number | string)[];
  avacc: number | string;
  rawcounts: number[][];
}
function num(v: number | string): number {
  if (v === 'NaN') return NaN;
  if (v === 'Infinity') return Infinity;
  if (v === '-Infinity') return -Infinity;
  return v as number;
}
function expected(name: string): SegExpected | { error: string } {
  return JSON.parse(readFileSync(`${FIXTURES}${name}/expected.json`, 'utf8')).seg;
}
function close(actual: number | null | undefined, want: number): void {
  if (Number.isNaN(want)) {
    expect(actual === null || Number.isNaN(actual)).toBe(true);
  } else {
    expect(typeof actual).toBe('number');
    expect(Math.abs((actual as number) - want)).toBeLessThanOrEqual(1e-9);
  }
}

async function checkCase(name: string, workers: number): Promise<void> {
  const want = expected(name);
  const run = segTask.evaluate({ root: `${FIXTURES}${name}` }, createRunContext({ workers }));
  if ('error' in want) {
    const err = (await run.then(
      () => undefined,
      (e: unknown) => e,
    )) as DevkitError;
    expect(isDevkitError(err)).toBe(true);
    expect(err.kind).toBe('input');
    expect(err.exitCode).toBe(2);
    expect(err.message).toContain('2010_000301.png');
    return;
  }
  const report = await run;
  expect(report.task).toBe('voc2010/seg');
  expect(report.rows.map((r) => r.key)).toEqual(want.classes);
  want.accuracies.forEach((acc, j) => close(report.rows[j].iou as number, num(acc) / 100));
  close(report.summary.mIoU, num(want.avacc) / 100);
  expect(report.matrices.confusion.labels).toEqual(want.classes);
  expect(report.matrices.confusion.counts).toEqual(want.rawcounts);
}

describe('voc2010/seg golden (official VOCevalseg)', () => {
  for (const name of ['edge', 'errors_a', 'errors_b', 'medium']) {
    it(`${name}`, () => checkCase(name, 1));
  }
  it('errors_a names the pixel and the value (21)', async () => {
    const err = (await segTask.evaluate({ root: `${FIXTURES}errors_a` }, createRunContext({ workers: 1 })).catch((e: unknown) => e)) as DevkitError;
    expect(err.code).toBe('input/label-range');
    expect(err.problems[0].found).toBe('21');
    expect(err.problems[0].pixel).toMatch(/^\d+,\d+$/);
  });
  it('errors_b reports the size mismatch (was 10 x 11, should be 10 x 12)', async () => {
    const err = (await segTask.evaluate({ root: `${FIXTURES}errors_b` }, createRunContext({ workers: 1 })).catch((e: unknown) => e)) as DevkitError;
    expect(err.code).toBe('input/size-mismatch');
    expect(err.problems[0].expected).toContain('10 x 12');
    expect(err.problems[0].found).toBe('10 x 11');
  });
  it('edge: mIoU is null in JSON terms (NaN classes propagate)', async () => {
    const report = await segTask.evaluate({ root: `${FIXTURES}edge` }, createRunContext({ workers: 1 }));
    expect(report.summary.mIoU).toBeNull();
  });

  // The worker pool loads dist/seg/seg.worker.js: needs `pnpm build` first (the CI test script builds).
  const worker = fileURLToPath(new URL('../dist/seg/seg.worker.js', import.meta.url));
  it.runIf(existsSync(worker))('medium and edge with workers: 2 and 3 (worker threads + the main thread) give the same numbers', async () => {
    await checkCase('medium', 2);
    await checkCase('edge', 2);
    await checkCase('medium', 3);
    await checkCase('edge', 3);
    await checkCase('errors_a', 2);
  });
});
