import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '@cvdevkit/core';
import { formatDiagnosticsGrouped } from './diagnostic-groups.js';

const warn = (line: number, code = 'input/class-out-of-range'): Diagnostic =>
  ({ severity: 'warning', code, file: 'r.txt', line, message: `class ${line} is not in the meta` }) as Diagnostic;

describe('formatDiagnosticsGrouped', () => {
  it('shows up to three of a kind one by one', () => {
    const lines = formatDiagnosticsGrouped([warn(1), warn(2), warn(3)]);
    expect(lines).toHaveLength(3);
  });

  it('folds more than three warnings of one code into one line with the count and the first three places', () => {
    const many = Array.from({ length: 41825 }, (_, i) => warn(i + 1));
    const lines = formatDiagnosticsGrouped([...many, warn(7, 'input/box-inverted')]);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain('41825 like this');
    expect(lines[0]).toContain('first at r.txt:1, r.txt:2, r.txt:3');
    expect(lines[1]).toContain('[input/box-inverted]');
  });

  it('never folds errors', () => {
    const errors = Array.from({ length: 5 }, (_, i) => ({ ...warn(i + 1), severity: 'error' }) as Diagnostic);
    expect(formatDiagnosticsGrouped(errors)).toHaveLength(5);
  });
});
