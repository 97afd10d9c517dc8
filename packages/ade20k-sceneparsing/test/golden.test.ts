/**
 * Golden tests: every public case of fixtures/ade20k-sceneparsing against the numbers of the official
 * MATLAB code (run under Octave), compared bit for bit (`Object.is`; JSON null = NaN). Per case: the
 * summary (3), per class iou / intersection / union / union_eps_sum (150 × 4), per file pixel_correct /
 * pixel_labeled and whether it was evaluated. The resize case has no official number (imresize differs
 * between MATLAB and Octave): cvdevkit refuses it, and the test checks the refusal.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRunContext, isDevkitError, type Report } from '@cvdevkit/core';
import { fixturePath } from '@cvdevkit/test-utils';
import plugin from '../src/index.js';
import { evaluateImage } from '../src/image-task.js';
import { planEntries } from '../src/plan.js';
import { computeTotals } from '../src/totals.js';
import type { ImageCounts } from '../src/image-counts.js';

const ROOT = fixturePath('ade20k-sceneparsing');
const task = plugin.tasks['ade20k/sceneparsing'];

interface ExpectedFile {
  name: string;
  evaluated: boolean;
  pixel_correct?: number;
  pixel_labeled?: number;
}
interface Expected {
  status: string;
  images_evaluated: number;
  pixel_correct: number;
  pixel_labeled: number;
  summary: Record<'pixelAccuracy' | 'mIoU' | 'score', number | null>;
  classes?: { id: number; iou: number; intersection: number; union: number; union_eps_sum: number }[];
  files: ExpectedFile[];
  cvdevkit?: { expect: string };
}

const CASES = ['tiny', 'medium', 'edge', ...['all_unlabeled_only', 'gray16', 'gt_over150', 'missing_files', 'no_predictions', 'palette_ga', 'resize', 'rgb_pred'].map((q) => `quirks/${q}`)];

function load(name: string): Expected {
  return JSON.parse(readFileSync(join(ROOT, name, 'expected.json'), 'utf8')) as Expected;
}
const dirs = (name: string) => ({ gt: join(ROOT, name, 'annotations', 'validation'), pred: join(ROOT, name, 'predictions', 'validation') });
/** The official value: JSON null stands for NaN. */
const official = (v: number | null) => (v === null ? NaN : v);

/** Compares, returns the number of values compared; collects mismatches as text. */
function same(label: string, got: unknown, want: number | null, bad: string[]): number {
  if (!Object.is(got, official(want))) bad.push(`${label}: got ${String(got)}, official ${String(want)}`);
  return 1;
}

let compared = 0;

describe('ade20k/sceneparsing: golden tests against the official code', () => {
  for (const name of CASES) {
    const expected = load(name);
    if (expected.status === 'error' || expected.cvdevkit?.expect === 'error') {
      it(`${name}: refused with exit code 2 (${expected.status === 'error' ? 'the official code fails' : 'no official number'})`, async () => {
        const err = await task.evaluate(dirs(name), createRunContext({ workers: 1 })).catch((e: unknown) => e);
        expect(isDevkitError(err)).toBe(true);
        if (!isDevkitError(err)) return;
        expect(err.exitCode).toBe(2);
        if (name === 'quirks/resize') {
          // every wrong-size prediction named, with both sizes
          expect(err.problems.map((p) => p.code)).toEqual(['input/size-mismatch', 'input/size-mismatch']);
          expect(err.message).toContain('ADE_val_00000001.png');
          expect(err.message).toContain('60×80');
          expect(err.message).toContain('30×40');
          expect(err.message).toContain('120×150');
        } else {
          expect(err.code).toBe('input/no-images');
        }
      });
      continue;
    }
    it(`${name}: every number bit-identical`, async () => {
      const report: Report = await task.evaluate(dirs(name), createRunContext({ workers: 1 }));
      const bad: string[] = [];
      let n = 0;
      for (const k of ['pixelAccuracy', 'mIoU', 'score'] as const) n += same(`summary.${k}`, report.summary[k], expected.summary[k], bad);
      n += same('images', report.summary.images, expected.images_evaluated, bad);
      n += same('pixelsCorrect', report.summary.pixelsCorrect, expected.pixel_correct, bad);
      n += same('pixelsLabeled', report.summary.pixelsLabeled, expected.pixel_labeled, bad);
      expect(report.rows).toHaveLength(150);
      // the official denominator Σ(eps + U_i), from the same per-image counts in file order
      const counts: ImageCounts[] = [];
      const { gt, pred } = dirs(name);
      const fileBad: string[] = [];
      for (const f of expected.files) {
        const r = evaluateImage({ gtFile: join(gt, f.name), predFile: join(pred, f.name), missingAsWrong: false });
        const evaluated = r.outcome === 'evaluated';
        if (f.evaluated && r.counts) counts.push(r.counts);
        if (evaluated !== f.evaluated) fileBad.push(`${f.name}: evaluated ${evaluated}, official ${f.evaluated}`);
        n++;
        if (f.evaluated) {
          n += same(`${f.name} pixel_correct`, r.counts?.pixelCorrect, f.pixel_correct!, bad);
          n += same(`${f.name} pixel_labeled`, r.counts?.pixelLabeled, f.pixel_labeled!, bad);
        }
      }
      const totals = computeTotals(counts);
      expected.classes!.forEach((c, i) => {
        const row = report.rows[i];
        expect(row.key).toBe(`class_${String(c.id).padStart(3, '0')}`);
        n += same(`${row.key}.iou`, row.iou, c.iou, bad);
        n += same(`${row.key}.intersection`, row.intersection, c.intersection, bad);
        n += same(`${row.key}.union`, row.union, c.union, bad);
        n += same(`${row.key}.union_eps_sum`, totals.unionEpsSum[i], c.union_eps_sum, bad);
      });
      expect(fileBad).toEqual([]);
      expect(bad).toEqual([]);
      compared += n;
    });
  }

  it('the prediction folder drives the loop, in dir (byte) order', () => {
    for (const name of CASES) {
      const expected = load(name);
      const listed = planEntries(dirs(name).gt, dirs(name).pred).filter((e) => e.hasPred).map((e) => e.name);
      expect(listed).toEqual(expected.files.map((f) => f.name));
    }
  });

  it('counted every official number', () => {
    // 9 cases with numbers (resize and no_predictions are refused): 3 summary + 3 totals + 150 × 4 per class + the per-file counts
    expect(compared).toBeGreaterThanOrEqual(9 * (3 + 3 + 600));
    console.log(`ade20k/sceneparsing golden: ${compared} official numbers compared, all bit-identical`);
  });
});
