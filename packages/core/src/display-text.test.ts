import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createReport } from './report.js';
import { DISPLAY_TEXT_MAX, displayReport, displayText } from './display-text.js';

describe('displayText', () => {
  it('keeps names up to 200 characters, cuts longer ones to 199 and an ellipsis, never splitting a surrogate pair', () => {
    expect(displayText('a'.repeat(200))).toBe('a'.repeat(200));
    expect(displayText('a'.repeat(201))).toBe(`${'a'.repeat(199)}…`);
    expect(displayText(`${'a'.repeat(198)}😀x`)).toBe(`${'a'.repeat(198)}…`);
    fc.assert(fc.property(fc.string({ maxLength: 400, unit: 'binary' }), (s) => {
      const d = displayText(s);
      expect(d.length).toBeLessThanOrEqual(DISPLAY_TEXT_MAX);
      if (s.length <= DISPLAY_TEXT_MAX) expect(d).toBe(s);
      else expect(s.startsWith(d.slice(0, -1))).toBe(true);
    }), { numRuns: 100 });
  });

  it('displayReport cuts the strings of rows, curves and analysis, shares typed arrays and leaves the report alone', () => {
    const long = 'n'.repeat(5000);
    const recall = new Float64Array([0, 1]);
    const r = createReport({ task: 't/x', metric: 'ap', rows: [{ key: long, ap: 0.5 }], curves: [{ key: long, recall }], analysis: { top: [{ key: long, truePositives: [], falsePositives: [], nearMisses: [] }] } });
    const d = displayReport(r);
    expect(d.rows[0].key).toHaveLength(200);
    expect((d.curves[0] as { key: string }).key).toHaveLength(200);
    expect((d.curves[0] as { recall: Float64Array }).recall).toBe(recall);
    expect((d.analysis as { top: Array<{ key: string }> }).top[0].key).toHaveLength(200);
    expect(r.rows[0].key).toBe(long);
  });
});
