import fc from 'fast-check';
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

  it('writes the same text as the replacer for any mix of objects, arrays and typed arrays (property)', () => {
    const replacer = (_k: string, v: unknown) => (ArrayBuffer.isView(v) && !(v instanceof DataView) ? Array.from(v as unknown as ArrayLike<number>) : v);
    const leaf = fc.oneof(fc.double(), fc.string(), fc.boolean(), fc.constant(null), fc.float64Array({ maxLength: 5 }), fc.int32Array({ maxLength: 5 }));
    const { tree } = fc.letrec((tie) => ({
      tree: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('tree'), { maxLength: 4 }), fc.dictionary(fc.string({ maxLength: 3 }), tie('tree'), { maxKeys: 4 })),
    }));
    fc.assert(
      fc.property(tree, tree, (extra, curve) => {
        const r = createReport({ task: 't/x', metric: 'm', extra: { extra }, curves: [{ key: 'a', recall: curve as number[] }] });
        const before = JSON.stringify(r, replacer);
        for (const indent of [0, 2]) expect(reportToJson(r, indent)).toBe(JSON.stringify(r, replacer, indent));
        // the report itself is left as it was
        expect(JSON.stringify(r, replacer)).toBe(before);
      }),
    );
  });

  it('writes plain objects beside typed curves unchanged (the chart specs of a page)', () => {
    const values = Array.from({ length: 3 }, (_, i) => ({ c: 'a', r: i / 2, p: 1 }));
    const r = createReport({ task: 't/x', metric: 'm', extra: { charts: [{ spec: { data: { values } } }] }, curves: [{ key: 'a', recall: Float64Array.of(0.5) as unknown as number[] }] });
    const text = reportToJson(r, 0);
    expect(text).toContain('"recall":[0.5]');
    expect(text).toContain(JSON.stringify(values));
  });
});
