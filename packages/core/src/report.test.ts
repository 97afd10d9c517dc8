import { describe, expect, it } from 'vitest';
import { createReport, reportToJson } from './report.js';

describe('Report', () => {
  it('has every REPORT.md key and writes NaN as null, typed arrays as arrays', () => {
    const r = createReport({
      task: 't/x',
      metric: 'm',
      summary: { mAP: NaN },
      rows: [{ key: 'a', ap: 0.1 + 0.2 }],
      curves: [{ key: 'a', recall: Float64Array.of(0.5, 1) as unknown as number[], precision: [NaN, 1] }],
    });
    const json = JSON.parse(reportToJson(r));
    expect(Object.keys(json)).toEqual(['schema', 'task', 'metric', 'summary', 'rows', 'curves', 'matrices', 'diagnostics', 'versions', 'timings']);
    expect(json.schema).toBe('cvdevkit.report/1');
    expect(json.summary.mAP).toBeNull();
    expect(json.rows[0].ap).toBe(0.30000000000000004);
    expect(json.curves[0].recall).toEqual([0.5, 1]);
    expect(json.curves[0].precision).toEqual([null, 1]);
  });

  it('writes the same text as a typed-array replacer would, at any depth', () => {
    const r = createReport({
      task: 't/x',
      metric: 'm',
      curves: [{ key: 'a', recall: Float64Array.of(0.1, NaN, Infinity) as unknown as number[], precision: [1, 0.5] }],
      extra: { counts: Int32Array.of(3, -1), nested: [{ v: Float32Array.of(0.25) }, [Uint8Array.of(7)], 'text', null], empty: [], when: new Date(0) },
    });
    const replacer = (_k: string, v: unknown) => (ArrayBuffer.isView(v) && !(v instanceof DataView) ? Array.from(v as unknown as ArrayLike<number>) : v);
    for (const indent of [0, 2]) expect(reportToJson(r, indent)).toBe(JSON.stringify(r, replacer, indent));
  });
});
