/**
 * The tasks as a user runs them (options as the CLI passes them), against pycocotools 2.0.11: the summary
 * under pycocotools' names and, with --arrays, the top-level precision / recall / scores, every number.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRunContext, type Report } from '@cvdevkit/core';
import plugin from '../src/index.js';
import type { CocoOptions } from '../src/options.js';

type TaskId = keyof typeof plugin.tasks;
import { CASES, FIXTURES, flatten, loadCase, type FixtureEvaluation } from './fixture-cases.js';



/** The fixture's param_overrides as command-line option values. */
export function optionsOf(c: string, e: FixtureEvaluation): CocoOptions {
  const o: CocoOptions = { gt: join(FIXTURES, c, e.gt), results: join(FIXTURES, c, e.results), arrays: true };
  const p = e.param_overrides as Record<string, unknown>;
  if (p.useCats !== undefined) o.useCats = p.useCats as number;
  if (p.iouThrs) o.iouThrs = (p.iouThrs as number[]).join(',');
  if (p.recThrs) o.recThrs = (p.recThrs as number[]).join(',');
  if (p.maxDets) o.maxDets = (p.maxDets as number[]).join(',');
  if (p.areaRng) o.areaRng = (p.areaRng as [number, number][]).map(([lo, hi], i) => `${e.params.areaRngLbl[i]}=${lo},${hi}`).join(';');
  if (p.imgIds) o.imgIds = (p.imgIds as number[]).join(',');
  if (p.catIds) o.catIds = (p.catIds as number[]).join(',');
  if (p.kpt_oks_sigmas) o.kptSigmas = (p.kpt_oks_sigmas as number[]).join(',');
  return o;
}

function run(task: TaskId, o: CocoOptions): Promise<Report> {
  return plugin.tasks[task].evaluate(o as never, createRunContext({ workers: 1 }));
}

let compared = 0;
let identical = 0;

function same(label: string, got: number[], want: number[]): void {
  expect(got.length, label).toBe(want.length);
  for (let i = 0; i < want.length; i++) {
    compared++;
    if (Object.is(got[i], want[i])) identical++;
    else expect.fail(`${label}[${i}]: got ${got[i]}, pycocotools ${want[i]}`);
  }
}

for (const c of CASES) {
  describe(`coco tasks golden: ${c}`, () => {
    for (const e of loadCase(c).evaluations) {
      if (e.error) continue;
      it(`coco/${e.iouType} ${e.name}`, async () => {
        const report = (await run(`coco/${e.iouType}` as TaskId, optionsOf(c, e))) as Report & { precision?: unknown; recall?: unknown; scores?: unknown };
        const names = Object.keys(e.summary!);
        expect(Object.keys(report.summary)).toEqual(names);
        same(`${c}/${e.name}/summary`, names.map((n) => report.summary[n] as number), names.map((n) => e.summary![n]));
        expect(report.rows.map((r) => r.key)).toEqual(e.K_catIds!.map(String));
        for (const k of ['precision', 'recall', 'scores'] as const) {
          if (e[k] === undefined) continue;
          same(`${c}/${e.name}/${k}`, flatten(report[k]), flatten(e[k]));
        }
        expect(report.extra?.protocol).toBe('pycocotools 2.0.11');
      });
    }
  });
}

describe('coco tasks golden: count', () => {
  it('all bit-identical', () => {
    console.log(`coco tasks golden: ${identical} of ${compared} numbers bit-identical to pycocotools 2.0.11`);
    expect(identical).toBe(compared);
  });
});
