/**
 * Without --arrays, accumulate computes only the precision cells the report reads (summarize.ts
 * `reportCells`) and no scores: the report must be the one --arrays gives, every number, on every fixture
 * evaluation and parameter variant, with and without `--fix maxdets`.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRunContext, type Report } from '@cvdevkit/core';
import plugin from './index.js';
import type { CocoOptions } from './options.js';
import { CASES, FIXTURES, loadCase, type FixtureEvaluation } from '../test/fixture-cases.js';

function optionsOf(c: string, e: FixtureEvaluation): CocoOptions {
  const o: CocoOptions = { gt: join(FIXTURES, c, e.gt), results: join(FIXTURES, c, e.results) };
  const p = e.param_overrides as Record<string, number[] | number | undefined>;
  const list = (v: unknown) => (v as number[]).join(',');
  if (p.useCats !== undefined) o.useCats = p.useCats as number;
  if (p.iouThrs) o.iouThrs = list(p.iouThrs);
  if (p.recThrs) o.recThrs = list(p.recThrs);
  if (p.maxDets) o.maxDets = list(p.maxDets);
  if (p.areaRng) o.areaRng = (p.areaRng as unknown as [number, number][]).map(([lo, hi], i) => `${e.params.areaRngLbl[i]}=${lo},${hi}`).join(';');
  if (p.imgIds) o.imgIds = list(p.imgIds);
  if (p.catIds) o.catIds = list(p.catIds);
  if (p.kpt_oks_sigmas) o.kptSigmas = list(p.kpt_oks_sigmas);
  return o;
}

/** The report's numbers and texts, timings and the arrays left out; NaN kept apart from null. */
function shown(r: Report): string {
  const rest: Record<string, unknown> = { ...r };
  for (const k of ['timings', 'precision', 'recall', 'scores']) delete rest[k];
  return JSON.stringify(rest, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : Object.is(v, -0) ? '-0' : v));
}

describe('coco report without --arrays', () => {
  it('has the summary of pycocotools on every fixture evaluation, and the rows and curves of the report with --arrays', async () => {
    let n = 0;
    for (const c of CASES) {
      for (const e of loadCase(c).evaluations) {
        if (e.error) continue;
        // the parameter variants (and one case of each type) also with --fix maxdets (AP read at the last maxDets)
        const withFix = c === 'params' || (c === 'random_small' && e.name === e.iouType);
        for (const fix of withFix ? [undefined, 'maxdets'] : [undefined]) {
          const o = { ...optionsOf(c, e), ...(fix ? { fix } : {}) };
          const task = plugin.tasks[`coco/${e.iouType}` as keyof typeof plugin.tasks];
          const lean = await task.evaluate(o as never, createRunContext({ workers: 1 }));
          expect((lean as Report & { precision?: unknown }).precision).toBeUndefined();
          if (!fix) for (const [name, v] of Object.entries(e.summary!)) expect(Object.is(lean.summary[name], v), `${c}/${e.name} ${name}`).toBe(true);
          if (!withFix) continue;
          const full = await task.evaluate({ ...o, arrays: true } as never, createRunContext({ workers: 1 }));
          expect(shown(lean), `${c}/${e.name} fix=${fix}`).toBe(shown(full));
          n++;
        }
      }
    }
    expect(n).toBe(24);
  });
});
