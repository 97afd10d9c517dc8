/**
 * The analyses' anchors on every VOC2010 fixture: AP at overlap 0.5 and at object size 0 are the
 * official APs to the bit (det and cls), TIDE's official-mode baseline is the official mAP, and
 * `--tide-mode tide` reproduces TIDE v1.0.1's numbers on `medium` (fixtures/analysis/voc2010-medium-tide).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createRunContext, type Report } from '@cvdevkit/core';
import { runAnalysis, type OverlapResult, type SizeResult, type TideResult } from '@cvdevkit/analysis';
import plugin from '../src/index.js';
import { VOC_CLASSES } from '../src/voc-options.js';

const FIXTURES = fileURLToPath(new URL('../../../fixtures/', import.meta.url));
const CASES = ['edge', 'errors_a', 'errors_b', 'medium'] as const;
const ctx = () => createRunContext({ workers: 1 });

function okClasses(name: string, task: 'det' | 'cls'): string[] {
  const exp = JSON.parse(readFileSync(`${FIXTURES}voc2010/${name}/expected.json`, 'utf8')) as Record<string, Record<string, object>>;
  return VOC_CLASSES.filter((c) => !('error' in exp[task][c]));
}

/** Same double, NaN included. */
function same(a: unknown, b: unknown): boolean {
  return Object.is(a, b) || (a === null && typeof b === 'number' && Number.isNaN(b)) || (b === null && typeof a === 'number' && Number.isNaN(a));
}

describe.each(CASES)('voc2010 analyze anchors: %s', (name) => {
  const root = `${FIXTURES}voc2010/${name}`;

  it('det: overlap at 0.5, size at 0 and the TIDE baseline are the official APs, bit for bit', async () => {
    const classes = okClasses(name, 'det').join(',');
    const official: Report = await plugin.tasks['voc2010/det'].evaluate({ root, classes }, ctx());
    const report: Report = runAnalysis(await plugin.tasks['voc2010/det'].analyze!({ root, classes, only: 'overlap,size,tide' }, ctx()), { only: 'overlap,size,tide' });
    const a = report.analysis as { overlap: OverlapResult; size?: SizeResult; tide: TideResult };
    const at = a.overlap.thresholds.indexOf(0.5);
    expect(at).toBeGreaterThanOrEqual(0);
    official.rows.forEach((row, c) => {
      expect(report.rows[c].key).toBe(row.key);
      expect(same(a.overlap.perClass[c].ap[at], row.ap), `${name} ${row.key} overlap@0.5 ${a.overlap.perClass[c].ap[at]} vs ${row.ap}`).toBe(true);
      expect(same(report.rows[c].ap, row.ap)).toBe(true);
      if (a.size) expect(same(a.size.perClass[c].ap[a.size.thresholds.indexOf(0)], row.ap), `${name} ${row.key} size@0`).toBe(true);
      expect(same(a.tide.perClass[c].ap, row.ap), `${name} ${row.key} tide baseline`).toBe(true);
    });
    expect(same(report.summary.mAP, official.summary.mAP)).toBe(true);
    expect(same(a.tide.ap, official.summary.mAP)).toBe(true);
  });

  it('cls: classification AP at size 0 is the official AP, bit for bit', async () => {
    const classes = okClasses(name, 'cls').join(',');
    const official: Report = await plugin.tasks['voc2010/cls'].evaluate({ root, classes }, ctx());
    const report: Report = runAnalysis(await plugin.tasks['voc2010/cls'].analyze!({ root, classes }, ctx()), {});
    const size = (report.analysis as { size: SizeResult }).size;
    expect(size.kind).toBe('classification');
    official.rows.forEach((row, c) => expect(same(size.perClass[c].ap[0], row.ap), `${name} cls ${row.key}`).toBe(true));
  });
});

describe('voc2010 analyze --tide-mode tide on medium equals TIDE v1.0.1', () => {
  it('every number of expected.json within 1e-9', async () => {
    const exp = JSON.parse(readFileSync(`${FIXTURES}analysis/voc2010-medium-tide/expected.json`, 'utf8'));
    const report: Report = runAnalysis(await plugin.tasks['voc2010/det'].analyze!({ root: `${FIXTURES}voc2010/medium`, only: 'tide', tideMode: 'tide' }, ctx()), { only: 'tide', tideMode: 'tide' });
    const t = (report.analysis as { tide: TideResult }).tide;
    const close = (got: number | null | undefined, want: number, where: string): void => {
      expect(typeof got, where).toBe('number');
      expect(Math.abs((got as number) - want), `${where}: ${got} vs ${want}`).toBeLessThanOrEqual(1e-9);
    };
    expect(t.mode).toBe('tide');
    close(t.ap, exp.ap50, 'ap50');
    close(t.ap50_95, exp.ap50_95, 'ap50_95');
    for (const x of t.apByThreshold!) close(x.ap, exp.ap_by_threshold[String(Math.round(x.threshold * 100))], `ap@${x.threshold}`);
    for (const k of Object.keys(exp.main)) close(t.main[k as keyof TideResult['main']], exp.main[k], `main ${k}`);
    for (const k of Object.keys(exp.special)) close(t.special[k as 'FalsePos'], exp.special[k], `special ${k}`);
    for (const k of Object.keys(exp.main_fixed_ap)) close(t.fixedAp[k as 'Cls'], exp.main_fixed_ap[k], `fixed ${k}`);
    for (const k of Object.keys(exp.counts)) expect(t.counts[k as 'Cls'], `count ${k}`).toBe(exp.counts[k]);
    close(t.noopFixAp, exp.noop_fix_ap, 'noop fix');
    expect(t.errorsOnIgnored).toBe(exp.tally.errors_on_ignored_dets);
    for (const c of t.perClass) {
      const e = exp.per_class[c.key];
      close(c.ap, e.ap50, `${c.key} ap`);
      expect(c.npos).toBe(e.npos);
      for (const k of Object.keys(e.fixed_ap)) close(c.fixedAp[k as 'Cls'], e.fixed_ap[k], `${c.key} fixed ${k}`);
      for (const k of Object.keys(e.dap_unclamped)) close(c.dAP[k as 'Cls'], e.dap_unclamped[k], `${c.key} dAP ${k}`);
      for (const k of Object.keys(e.counts)) expect(c.counts[k as 'Cls'], `${c.key} count ${k}`).toBe(e.counts[k]);
    }
  });
});
