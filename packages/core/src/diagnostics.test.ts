import { describe, expect, it } from 'vitest';
import { problemsToDiagnostics } from './diagnostics.js';
import { DevkitError, ProblemCollector, type Problem } from './errors.js';

const located: Problem = { code: 'input/number', file: 'a.txt', line: 3, field: 'score', expected: 'a number', found: '"x"', hint: 'write 0.5' };
const pixel: Problem = { code: 'input/label-range', file: 'b.png', pixel: '2,5', detail: 'out of range', expected: 'labels 0..20', found: '31' };

describe('problemsToDiagnostics', () => {
  it('keeps file and line as fields and the rest of the location in the message (default)', () => {
    expect(problemsToDiagnostics([located, pixel])).toEqual([
      { severity: 'error', code: 'input/number', message: 'score: expected a number, found "x" (write 0.5)', file: 'a.txt', line: 3 },
      { severity: 'error', code: 'input/label-range', message: ' (pixel 2,5): out of range, expected labels 0..20, found 31', file: 'b.png' },
    ]);
  });

  it('writes the VOC validate style: [field] text (hint), pixel first, details copied', () => {
    expect(problemsToDiagnostics([located], { message: 'bracketed', copyDetails: true })).toEqual([
      { field: 'score', expected: 'a number', found: '"x"', hint: 'write 0.5', severity: 'error', code: 'input/number', message: '[score] expected a number, found "x" (write 0.5)', file: 'a.txt', line: 3 },
    ]);
    expect(problemsToDiagnostics([pixel], { fields: ['file', 'pixel'], message: 'bracketed' })).toEqual([
      { severity: 'error', code: 'input/label-range', message: 'pixel 2,5: out of range, expected labels 0..20, found 31', file: 'b.png', pixel: '2,5' },
    ]);
  });

  it('writes the plain style: detail, expected, found only', () => {
    expect(problemsToDiagnostics([located], { fields: ['file', 'line', 'field'], message: 'plain' })).toEqual([
      { severity: 'error', code: 'input/number', message: 'expected a number, found "x"', file: 'a.txt', line: 3, field: 'score' },
    ]);
  });

  it('reads a DevkitError and adds "… and N more" for a collector that dropped problems', () => {
    const e = new DevkitError({ kind: 'input', problems: [located, pixel] });
    expect(problemsToDiagnostics(e).map((d) => d.code)).toEqual(['input/number', 'input/label-range']);
    const c = new ProblemCollector(1);
    c.add(located);
    c.add(pixel);
    c.add(pixel);
    expect(problemsToDiagnostics(c).slice(1)).toEqual([{ severity: 'error', code: 'input/more', message: '… and 2 more problems' }]);
  });
});
