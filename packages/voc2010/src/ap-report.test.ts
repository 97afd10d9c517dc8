/**
 * The AP reports keep their PR curves as Float64Arrays (8 bytes a point, outside the JS heap); the JSON
 * must be the text the plain-array curves gave before, byte for byte (NaN → null included).
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createRunContext, reportToJson, type Report } from '@cvdevkit/core';
import plugin from './index.js';

const FIXTURES = fileURLToPath(new URL('../../../fixtures/voc2010/', import.meta.url));

/** The report as it was built before: every curve series copied into a plain number[]. */
function withPlainCurves(report: Report): Report {
  return { ...report, curves: report.curves.map((c) => ({ ...c, recall: Array.from(c.recall!), precision: Array.from(c.precision!) })) };
}

describe('apReport curves', () => {
  it.each([
    ['edge', 'voc2010/det'],
    ['medium', 'voc2010/det'],
    ['edge', 'voc2010/cls'],
    ['medium', 'voc2010/layout'],
  ] as const)('%s %s: typed curves, the same JSON text as plain arrays', async (fixture, task) => {
    const report = await plugin.tasks[task].evaluate({ root: `${FIXTURES}${fixture}` }, createRunContext({ workers: 1 }));
    expect(report.curves.length).toBeGreaterThan(0);
    for (const c of report.curves) {
      expect(c.recall).toBeInstanceOf(Float64Array);
      expect(c.precision).toBeInstanceOf(Float64Array);
    }
    const typed = reportToJson(report);
    expect(typed).toBe(JSON.stringify(withPlainCurves(report), null, 2));
    // the fixtures' curves have NaN precision points (a detection before the first positive): written as null
    if (fixture === 'edge' && task === 'voc2010/det') expect(typed).toContain('null');
  });
});
