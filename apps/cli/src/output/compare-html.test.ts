// The compare page writes the tests' formulas with subscripts and a root sign, not as raw text (issue 25 item 21).
import { describe, expect, it } from 'vitest';
import { formulaHtml } from './compare-html.js';

describe('formulaHtml', () => {
  it('χ²_F, F_F, q_α and sqrt(k(k+1)/(6N)) become subscripts and √', () => {
    const line = 'Friedman χ²_F = 3.2 (df 2, p = 0.2); Iman–Davenport F_F = 1.7; q_α = 2.3, CD = 1.1 (CD = q_α·sqrt(k(k+1)/(6N)))';
    const html = formulaHtml(line);
    expect(html).toContain('χ²<sub>F</sub> = 3.2');
    expect(html).toContain('F<sub>F</sub> = 1.7');
    expect(html).toContain('(CD = q<sub>α</sub> · √(k(k+1)/(6N)))');
    expect(html).not.toMatch(/_F|_α|sqrt/);
  });
});
