import { readFile } from 'node:fs/promises';
import { inputError, type ProblemCollector } from '@cvdevkit/core';

/**
 * Calls `onLine(fields, lineNumber)` for every non-blank line of `text`, fields split on white space
 * (space, TAB, CR, VT, FF), line numbers 1-based. Written by hand: no regex split, no line array.
 */
export function forEachLine(text: string, onLine: (fields: string[], line: number) => void): void {
  const n = text.length;
  let line = 1;
  let fields: string[] = [];
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      if (fields.length > 0) {
        onLine(fields, line);
        fields = [];
      }
      line++;
      i++;
    } else if (c === 32 || c === 9 || c === 13 || c === 11 || c === 12) {
      i++;
    } else {
      const start = i;
      i++;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === 32 || d === 10 || d === 9 || d === 13 || d === 11 || d === 12) break;
        i++;
      }
      fields.push(text.slice(start, i));
    }
  }
  if (fields.length > 0) onLine(fields, line);
}

const SPECIAL = /^([+-]?)(?:(inf(?:inity)?)|nan)$/i;

/**
 * A number as C `strtod` (and MATLAB `textread('%f')`) reads a whole token: decimal with optional
 * sign, fraction and exponent (`1E2`, `-0`, `.5`, `5.`), `Inf`/`Infinity`/`NaN` in any case with an
 * optional sign. Correctly rounded. Anything else (including hex and empty text) gives `undefined`.
 */
export function parseStrtod(token: string): number | undefined {
  if (token.length === 0) return undefined;
  // Fast path: for a non-empty token without white space, Number() accepts exactly the decimal forms
  // strtod accepts plus "Infinity" (also fine) and the 0x / 0b / 0o prefixes (rejected here).
  const c0 = token.charCodeAt(0);
  const cl = token.charCodeAt(token.length - 1);
  const v = c0 > 32 && c0 < 127 && cl > 32 && cl < 127 ? Number(token) : NaN;
  if (!Number.isNaN(v)) {
    const c1 = token.charCodeAt(1) | 0x20;
    if (c1 === 0x78 || c1 === 0x62 || c1 === 0x6f) return undefined;
    return v;
  }
  const m = SPECIAL.exec(token);
  if (!m) return undefined;
  if (m[2] === undefined) return NaN;
  return m[1] === '-' ? -Infinity : Infinity;
}

/** An integer token as `textread('%d')` needs it (optional sign, digits only). */
export function parseIntegerToken(token: string): number | undefined {
  if (!/^[+-]?\d+$/.test(token)) return undefined;
  const v = Number(token);
  return Number.isSafeInteger(v) ? v : undefined;
}

/**
 * Reads a UTF-8 text file. A missing or unreadable file is an input problem naming it; with a
 * collector the problem is added and `undefined` returned, without one it is thrown.
 */
export async function readTextInput(path: string, expected: string, problems?: ProblemCollector): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const err = inputError({
      code: 'input/missing-file',
      file: path,
      expected,
      found: code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a directory' : String(code ?? e),
    });
    if (problems) {
      problems.addError(err);
      return undefined;
    }
    throw err;
  }
}

/** Shortens a token for an error message. */
export function quote(token: string): string {
  const t = token.length > 40 ? `${token.slice(0, 37)}…` : token;
  return JSON.stringify(t);
}
