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
});
