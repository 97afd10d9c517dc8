import { createReport, reportToJson, type Report } from '@cvdevkit/core';
import { describe, expect, it } from 'vitest';
import { jsonFormatter } from './json.js';

/** Awkward doubles: NaN and ±Infinity (→ null), -0 (→ 0), subnormals, exponents, shortest round trips. */
const SPECIAL = [NaN, Infinity, -Infinity, -0, 0, 5e-324, 2.2250738585072014e-308, 1e21, 1e-7, 0.1 + 0.2, 1 / 3, 2 ** 53 + 2, -1.5e300];

/** A curve of `n` points: the special values, then deterministic pseudo-random ones (a fixed LCG). */
function series(n: number, seed: number): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    out[i] = i < SPECIAL.length ? SPECIAL[i] : seed % 7 === 0 ? NaN : seed / 4294967296;
  }
  return out;
}

/** `report` with its curves copied into plain number[] (how curves were held before). */
function plain(report: Report): Report {
  return { ...report, curves: report.curves.map((c) => ({ ...c, recall: Array.from(c.recall!), precision: Array.from(c.precision!) })) };
}

function streamed(reports: Report[]): string {
  let out = '';
  jsonFormatter.stream!(reports, (chunk) => void (out += chunk));
  return out;
}

// (json-stream.test.ts checks the writer itself against JSON.stringify, curves longer than a chunk included)
describe('--format json of typed-array curves', () => {
  const report = createReport({
    task: 'x/det',
    metric: 'ap',
    summary: { mAP: 0.5 },
    rows: [{ key: 'a', ap: NaN }],
    curves: [
      { key: 'a', recall: series(2_000, 1), precision: series(2_000, 2) },
      { key: 'empty', recall: new Float64Array(0), precision: new Float64Array(0) },
      { key: 'one', recall: Float64Array.of(-0), precision: Float64Array.of(NaN) },
    ],
  });

  it('streamed: byte for byte the text of the same report with plain arrays', () => {
    const want = JSON.stringify(plain(report), null, 2);
    expect(streamed([report])).toBe(want + '\n');
    expect(streamed([report, report])).toBe(jsonFormatter.renderMany!([plain(report), plain(report)]));
  });

  it('rendered whole (reportToJson): the same text', () => {
    expect(reportToJson(report)).toBe(JSON.stringify(plain(report), null, 2));
    expect(jsonFormatter.render(report)).toBe(jsonFormatter.render(plain(report)));
  });
});
