import type { ProblemCollector } from '@cvdevkit/core';

/** One non-empty line of a numeric text file. */
export interface NumericRow {
  /** 1-based line number in the file. */
  line: number;
  values: number[];
}

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** Splits text into lines (LF or CRLF); a final line break does not make an extra line. */
export function splitLines(text: string): string[] {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) if (lines[i].endsWith('\r')) lines[i] = lines[i].slice(0, -1);
  return lines;
}

/**
 * Reads a numeric text table the way the official code's `dlmread` sees it: one row per line,
 * fields separated by white space or commas. Rows keep their own length here (the caller pads).
 * Blank lines at the end of the file are ignored; a blank line before the last row, and any field
 * that is not a decimal number, is a problem (`dlmread` would silently turn it into zeros).
 * `describe` names a row's format for the messages, for example `"<label> <xmin> <ymin> <xmax> <ymax> …"`.
 */
export function parseNumericTable(
  text: string,
  file: string,
  describe: string,
  problems: ProblemCollector,
  /** Called for each row right after it is read, so that checks report problems in line order. */
  onRow?: (row: NumericRow) => void,
): NumericRow[] {
  const lines = splitLines(text);
  let last = lines.length - 1;
  while (last >= 0 && lines[last].trim() === '') last--;
  const rows: NumericRow[] = [];
  for (let i = 0; i <= last; i++) {
    const t = lines[i].trim();
    if (t === '') {
      problems.add({ code: 'input/blank-line', file, line: i + 1, expected: describe, found: 'a blank line' });
      rows.push({ line: i + 1, values: [] });
      onRow?.(rows[rows.length - 1]);
      continue;
    }
    const fields = t.split(/[\s,]+/);
    const values = new Array<number>(fields.length);
    for (let f = 0; f < fields.length; f++) {
      const s = fields[f];
      if (!NUMBER.test(s)) {
        problems.add({
          code: 'input/number',
          file,
          line: i + 1,
          field: `field ${f + 1}`,
          expected: 'a decimal number',
          found: JSON.stringify(s.length > 40 ? s.slice(0, 40) + '…' : s),
        });
        values[f] = NaN;
      } else values[f] = Number(s);
    }
    rows.push({ line: i + 1, values });
    onRow?.(rows[rows.length - 1]);
  }
  return rows;
}

/** Number of rows parseNumericTable gives for the text (lines up to the last non-blank one). */
export function countRows(text: string): number {
  const lines = splitLines(text);
  let last = lines.length - 1;
  while (last >= 0 && lines[last].trim() === '') last--;
  return last + 1;
}
