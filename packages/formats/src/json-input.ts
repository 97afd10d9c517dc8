/** JSON inputs: `JSON.parse` whose errors name the line, column and offending character in cvdevkit's words. */
import { DevkitError, type ErrorCode } from '@cvdevkit/core';
import { visibleQuote } from './visible.js';

/** Parses JSON text; a syntax error is a DevkitError (exit 2) with line and column, never V8's text. */
export function parseJsonInput(text: string, file: string, expected: string, code: ErrorCode = 'input/json'): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    const msg = e instanceof Error ? e.message : '';
    const m = /position (\d+)/.exec(msg);
    let pos = m ? Number(m[1]) : /end of (?:JSON )?input|Unterminated/i.test(msg) ? text.length : undefined;
    if (pos === undefined) {
      const tok = /Unexpected token '?(.)'?/.exec(msg);
      if (tok) pos = text.indexOf(tok[1]);
    }
    let line = 0;
    let column = 0;
    if (pos !== undefined && pos >= 0) {
      const before = text.slice(0, pos);
      line = before.split('\n').length;
      column = pos - before.lastIndexOf('\n');
    }
    const what = pos === undefined || pos >= text.length ? (text.trim() === '' ? 'an empty file' : 'the text ends early (cut short)') : `${visibleQuote(text.slice(pos, pos + 1))} at line ${line}, column ${column}`;
    throw new DevkitError({ kind: 'input', code, file, expected, found: `invalid JSON: ${what}` });
  }
}
