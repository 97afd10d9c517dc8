/**
 * Golden tests: voc2010/cls, det, layout and action through the plugin against the official devkit's
 * numbers (Octave 7.3) in the fixtures' expected.json: every AP and every point of rec/prec (NaN
 * positions included) within 1e-9; official failures must be DevkitErrors of kind input.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createRunContext, isDevkitError, type Report } from '@cvdevkit/core';
import plugin from '../src/index.js';
import { VOC_ACTIONS, VOC_CLASSES, VOC_PARTS } from '../src/voc-options.js';

const FIXTURES = fileURLToPath(new URL('../../../fixtures/voc2010/', import.meta.url));
const CASES = ['edge', 'errors_a', 'errors_b', 'medium'] as const;

type Num = number | string;
interface Curve {
  ap: Num;
  rec: Num[];
  prec: Num[];
}
type Entry = Curve | { error: string };

function num(v: Num): number {
  if (v === 'NaN') return NaN;
  if (v === 'Infinity') return Infinity;
  if (v === '-Infinity') return -Infinity;
  return v as number;
}
function expectedOf(name: string): Record<string, Record<string, Entry | string[]>> {
  return JSON.parse(readFileSync(`${FIXTURES}${name}/expected.json`, 'utf8'));
}

function close(actual: number | null | undefined, want: number, where: string): void {
  if (Number.isNaN(want)) {
    expect(actual === null || (typeof actual === 'number' && Number.isNaN(actual)), `${where}: want NaN, got ${actual}`).toBe(true);
  } else {
    expect(typeof actual, where).toBe('number');
    if (!Number.isFinite(want)) expect(actual, where).toBe(want);
    else expect(Math.abs((actual as number) - want), `${where}: want ${want}, got ${actual}`).toBeLessThanOrEqual(1e-9);
  }
}

function compareEntry(report: Report, key: string, want: Curve, where: string): void {
  const row = report.rows.find((r) => r.key === key);
  const curve = report.curves.find((c) => c.key === key);
  expect(row, `${where} row`).toBeDefined();
  expect(curve, `${where} curve`).toBeDefined();
  close(row!.ap as number, num(want.ap), `${where} ap`);
  expect(curve!.recall!.length, `${where} rec length`).toBe(want.rec.length);
  expect(curve!.precision!.length, `${where} prec length`).toBe(want.prec.length);
  want.rec.forEach((v, i) => close(curve!.recall![i], num(v), `${where} rec[${i}]`));
  want.prec.forEach((v, i) => close(curve!.precision![i], num(v), `${where} prec[${i}]`));
}

async function expectInputError(p: Promise<unknown>, where: string): Promise<void> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(isDevkitError(e), `${where}: expected a DevkitError, got ${String(e)}`).toBe(true);
  expect((e as { kind: string }).kind).toBe('input');
  expect((e as { exitCode: number }).exitCode).toBe(2);
}

const ctx = () => createRunContext({ workers: 1 });

function meanNumeric(xs: number[]): number | null {
  const v = xs.filter((x) => !Number.isNaN(x));
  return v.length === 0 ? null : v.reduce((a, b) => a + b, 0) / v.length;
}

describe.each(CASES)('voc2010 golden: %s', (name) => {
  const root = `${FIXTURES}${name}`;
  const exp = expectedOf(name);

  for (const [task, names, option] of [
    ['det', VOC_CLASSES, 'classes'],
    ['cls', VOC_CLASSES, 'classes'],
    ['action', VOC_ACTIONS, 'actions'],
  ] as const) {
    it(`${task}: every class matches the official numbers`, async () => {
      const want = exp[task] as Record<string, Entry>;
      const ok = names.filter((n) => !('error' in want[n]));
      const bad = names.filter((n) => 'error' in want[n]);
      const t = plugin.tasks[`voc2010/${task}`];
      if (ok.length > 0) {
        const report: Report = await t.evaluate({ root, [option]: ok.join(',') }, ctx());
        expect(report.task).toBe(`voc2010/${task}`);
        expect(report.metric).toBe('ap-voc2010');
        expect(report.rows.map((r) => r.key)).toEqual(ok);
        for (const n of ok) compareEntry(report, n, want[n] as Curve, `${name} ${task}/${n}`);
        const m = meanNumeric(ok.map((n) => num((want[n] as Curve).ap)));
        if (m === null) expect(report.summary.mAP).toBeNull();
        else close(report.summary.mAP, m, `${name} ${task} mAP`);
      }
      for (const n of bad) await expectInputError(t.evaluate({ root, [option]: n }, ctx()), `${name} ${task}/${n}`);
      if (bad.length > 0) await expectInputError(t.evaluate({ root }, ctx()), `${name} ${task} (all)`);
    });
  }

  it('layout: every part and every warning matches the official run', async () => {
    const want = exp.layout as Record<string, Curve | string[] | string>;
    const run = plugin.tasks['voc2010/layout'].evaluate({ root }, ctx());
    if ('error' in want) return expectInputError(run, `${name} layout`);
    const report: Report = await run;
    for (const p of VOC_PARTS) compareEntry(report, p, want[p] as Curve, `${name} layout/${p}`);
    expect(report.diagnostics.map((d) => d.message)).toEqual(want.warnings);
    for (const d of report.diagnostics) {
      expect(d.severity).toBe('warning');
      expect(['layout/unrecognized', 'layout/duplicate']).toContain(d.code);
      expect(typeof d.line).toBe('number');
    }
  });
});
