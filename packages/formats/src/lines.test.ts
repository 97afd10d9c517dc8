import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseLines } from './lines.js';

describe('parseLines', () => {
  it('splits fields and keeps 1-based line numbers, skipping blank lines', () => {
    expect(parseLines('a b\n\n  c\td  \r\nlast')).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 3, fields: ['c', 'd'] },
      { line: 4, fields: ['last'] },
    ]);
  });

  it('round-trips tokens joined by arbitrary whitespace', () => {
    const token = fc.stringMatching(/^[A-Za-z0-9_.\-/]{1,8}$/);
    fc.assert(
      fc.property(fc.array(fc.array(token, { minLength: 1, maxLength: 5 }), { maxLength: 20 }), (rows) => {
        const text = rows.map((r) => r.join(' \t ')).join('\n');
        expect(parseLines(text).map((l) => l.fields)).toEqual(rows);
      }),
    );
  });
});
