/**
 * `analyze coco/bbox|segm` against the references: the official anchors against pycocotools 2.0.11 (fixtures/coco:
 * overlap at 0.5 and 0.75 = AP50 / AP75, the average over the task's thresholds = AP, the area ranges = APs / APm /
 * APl, every one bit for bit), and `--tide-mode tide` against TIDE v1.0.1's own numbers (fixtures/analysis/coco-tide:
 * dAPs, special dAPs and the AP per threshold to 1e-9, error counts exactly).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRunContext, type OverlapResult, type Report, type SizeResult, type TideResult } from '@cvdevkit/core';
import { runAnalysis } from '@cvdevkit/analysis';
import plugin from '../src/index.js';
import type { CocoOptions } from '../src/options.js';
import { FIXTURES, loadCase } from './fixture-cases.js';

const ctx = () => createRunContext({ workers: 1 });
const TIDE_FIXTURES = join(import.meta.dirname, '../../../fixtures/analysis/coco-tide');

async function analyze(iouType: 'bbox' | 'segm', o: CocoOptions, values: { only: string; tideMode?: string }): Promise<Report> {
  const task = plugin.tasks[`coco/${iouType}`];
  return runAnalysis(await task.analyze!({ ...o, ...values } as never, ctx()), values);
}

/** The fixture evaluations analyze takes: bbox/segm with the default parameters, or only maxDets / areaRng changed. */
function anchorCases(): { c: string; name: string; iouType: 'bbox' | 'segm'; o: CocoOptions; summary: Record<string, number> }[] {
  const out = [];
  for (const c of ['random_small', 'quirks', 'params']) {
    for (const e of loadCase(c).evaluations) {
      if (e.iouType === 'keypoints' || !e.summary) continue;
      const over = Object.keys(e.param_overrides);
      if (over.some((k) => k !== 'maxDets' && k !== 'areaRng')) continue;
      const o: CocoOptions = { gt: join(FIXTURES, c, e.gt), results: join(FIXTURES, c, e.results) };
      const p = e.param_overrides as { maxDets?: number[]; areaRng?: [number, number][] };
      if (p.maxDets) o.maxDets = p.maxDets.join(',');
      if (p.areaRng) o.areaRng = p.areaRng.map(([lo, hi], i) => `${e.params.areaRngLbl[i]}=${lo},${hi}`).join(';');
      out.push({ c, name: e.name, iouType: e.iouType, o, summary: e.summary });
    }
  }
  return out;
}

describe('analyze coco: the official anchors equal pycocotools 2.0.11, bit for bit', () => {
  const cases = anchorCases();
  it('covers the public cases', () => expect(cases.length).toBeGreaterThanOrEqual(12));
  it.each(cases.map((x) => [`${x.c}/${x.name}`, x] as const))('%s', async (_label, x) => {
    const report = await analyze(x.iouType, x.o, { only: 'overlap,size' });
    const a = report.analysis as { overlap: OverlapResult; size: SizeResult };
    const at = (t: number) => a.overlap.mAP[a.overlap.thresholds.indexOf(t)];
    const sameAs = (got: number, want: number, what: string) => expect(Object.is(got, want === -1 ? NaN : want), `${what}: ${got} vs pycocotools ${want}`).toBe(true);
    sameAs(at(0.5), x.summary.AP50, 'overlap@0.5 = AP50');
    sameAs(at(0.75), x.summary.AP75, 'overlap@0.75 = AP75');
    // the report's summary under eval's names
    for (const key of ['AP50', 'AP75', 'APs', 'APm', 'APl'] as const) if (key in report.summary) sameAs(report.summary[key] as number, x.summary[key], `summary ${key}`);
    // stats[0] reads maxDets 100 whatever the parameters: comparable when 100 is the largest
    if (x.o.maxDets === undefined) {
      sameAs(a.overlap.averaged!.mAP, x.summary.AP, 'averaged over 0.5:0.95 = AP');
      sameAs(report.summary.AP as number, x.summary.AP, 'summary AP');
    }
    const ranges = a.size.areaRanges!;
    for (const [label, key] of [['small', 'APs'], ['medium', 'APm'], ['large', 'APl']] as const) {
      const k = ranges.names.indexOf(label);
      if (k >= 0) sameAs(ranges.mAP[k], x.summary[key], `area ${label} = ${key}`);
    }
  });
});

interface TideEvaluation {
  name: string;
  iouType: 'bbox' | 'segm';
  gt: string;
  results: string;
  main: Record<string, number>;
  special: Record<string, number>;
  counts: Record<string, number>;
  ap: Record<string, number>;
}

describe('analyze coco --tide-mode tide equals TIDE v1.0.1', () => {
  for (const c of ['random_small', 'quirks']) {
    const exp = JSON.parse(readFileSync(join(TIDE_FIXTURES, c, 'expected.json'), 'utf8')) as { tolerance: number; evaluations: TideEvaluation[] };
    it.each(exp.evaluations.map((e) => [`${c}/${e.name}`, e] as const))('%s', async (_label, e) => {
      const report = await analyze(e.iouType, { gt: join(FIXTURES, c, e.gt), results: join(FIXTURES, c, e.results) }, { only: 'tide', tideMode: 'tide' });
      const t = (report.analysis as { tide: TideResult }).tide;
      expect(t.units).toBe('percent');
      for (const [k, v] of Object.entries(e.main)) expect(Math.abs(t.main[k as keyof typeof t.main] - v), `main ${k}`).toBeLessThanOrEqual(exp.tolerance);
      for (const [k, v] of Object.entries(e.special)) expect(Math.abs(t.special[k as keyof typeof t.special] - v), `special ${k}`).toBeLessThanOrEqual(exp.tolerance);
      expect(t.counts).toEqual(e.counts);
      for (const x of t.apByThreshold!) expect(Math.abs(x.ap - e.ap[`AP${Math.round(x.threshold * 100)}`]), `AP at ${x.threshold}`).toBeLessThanOrEqual(exp.tolerance);
      expect(Math.abs(t.ap50_95! - e.ap.AP)).toBeLessThanOrEqual(exp.tolerance);
    });
  }
});

describe('analyze coco: area range "all" in the official matching', () => {
  it('negative-width detections and objects outside 0–1e10 are ignored as eval ignores them (AP, AP50, AP75 = eval)', async () => {
    const { mkdtempSync, rmSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'cvdevkit-coco-analyze-'));
    const gt = JSON.parse(readFileSync(join(FIXTURES, 'random_small', 'gt.json'), 'utf8')) as { annotations: { area: number }[] };
    const res = JSON.parse(readFileSync(join(FIXTURES, 'random_small', 'results_bbox.json'), 'utf8')) as { bbox: number[] }[];
    res.forEach((r, k) => {
      if (k % 7 === 0) r.bbox[2] = -Math.abs(r.bbox[2]);
    });
    gt.annotations[3].area = 2e10;
    gt.annotations[5].area = -5;
    writeFileSync(join(dir, 'gt.json'), JSON.stringify(gt));
    writeFileSync(join(dir, 'res.json'), JSON.stringify(res));
    const o = { gt: join(dir, 'gt.json'), results: join(dir, 'res.json') };
    const official: Report = await plugin.tasks['coco/bbox'].evaluate(o, ctx());
    const report = await analyze('bbox', o, { only: 'overlap,size' });
    rmSync(dir, { recursive: true, force: true });
    for (const key of ['AP', 'AP50', 'AP75', 'APs', 'APm', 'APl']) expect(Object.is(report.summary[key], official.summary[key]), key).toBe(true);
  });
});
