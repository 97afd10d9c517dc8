/**
 * fast-xml-parser's errors in cvdevkit's words: where (line and column of the original file) and what
 * was expected and found, never the library's own text. The parser sees the text with TAB, LF and CR
 * deleted (as `VOCxml2struct.m` reads it), so its positions are mapped back to the original lines.
 */
import type { Problem } from '@cvdevkit/core';
import { visibleQuote } from './visible.js';

/** Line and column (1-based) in `original` of the character at `cleanedIndex` of the text without TAB/LF/CR. */
export function originalPosition(original: string, cleanedIndex: number): { line: number; column: number } {
  let line = 1;
  let column = 1;
  let kept = 0;
  for (let i = 0; i < original.length; i++) {
    const c = original.charCodeAt(i);
    if (c !== 9 && c !== 10 && c !== 13) {
      if (kept === cleanedIndex) return { line, column };
      kept++;
    }
    if (c === 10) {
      line++;
      column = 1;
    } else column++;
  }
  return { line, column };
}

const tag = (name: string) => visibleQuote(name, 40).slice(1, -1);

interface Translation {
  expected: string;
  found: string;
}

/** The translation of one parser message (without its trailing `:line:col`). */
function translate(msg: string, at: (cleanedCol: number) => string): Translation {
  let m: RegExpExecArray | null;
  if ((m = /^Expected closing tag '(.*)' \(opened in line \d+, col (\d+)\) instead of closing tag '(.*)'/.exec(msg))) {
    return { expected: `</${tag(m[1])}> (to close <${tag(m[1])}> opened at ${at(Number(m[2]) - 1)})`, found: `</${tag(m[3])}>` };
  }
  if ((m = /^Unclosed tag '(.*)'/.exec(msg))) return { expected: `</${tag(m[1])}> before the end of the file`, found: `<${tag(m[1])}> never closed (or a comment/CDATA section not closed)` };
  if ((m = /^Closing tag '(.*)' has not been opened/.exec(msg))) return { expected: 'a closing tag only for an open element', found: `</${tag(m[1])}> without an opening <${tag(m[1])}>` };
  if ((m = /^Closing tag '(.*)' doesn't have proper closing/.exec(msg))) return { expected: `</${tag(m[1])}>`, found: 'a closing tag without ">"' };
  if ((m = /^Invalid '\[(.*)\]' found/s.exec(msg))) {
    const open = m[1].split(',').map((s) => s.trim().replace(/^"|"$/g, '')).filter(Boolean);
    return { expected: `${open.reverse().map((t) => `</${tag(t)}>`).join(' ')} before the end of the file`, found: 'the end of the file (the document is cut short)' };
  }
  if (/^Start tag expected/.test(msg)) return { expected: 'an XML root element such as <annotation>', found: 'no element (an empty or text-only file)' };
  if ((m = /^char '(.*)' is not expected/s.exec(msg))) return { expected: 'an XML element such as <annotation>', found: `text ${visibleQuote(m[1])} outside any element` };
  if (/^Multiple possible root nodes/.test(msg)) return { expected: 'one root element', found: 'a second root element' };
  if (/^Extra text at the end/.test(msg)) return { expected: 'nothing after the root element', found: 'more text' };
  if (/^Invalid space after '<'/.test(msg)) return { expected: 'a tag name right after "<"', found: 'white space or the end of the file' };
  if ((m = /^Tag '(.*)' is an invalid name/.exec(msg))) return { expected: 'a valid tag name', found: `<${tag(m[1])}>` };
  if ((m = /^Attribute '(.*)' is without value/.exec(msg))) return { expected: `a quoted value for attribute ${tag(m[1])}`, found: 'none' };
  if ((m = /^Attribute '(.*)' is repeated/.exec(msg))) return { expected: 'each attribute once', found: `attribute ${tag(m[1])} twice` };
  if (/External entit/i.test(msg)) return { expected: 'no external entities', found: 'an external entity declaration (refused: it could read other files)' };
  if (/entit/i.test(msg)) return { expected: 'no entity declarations', found: 'an entity declaration (refused)' };
  if (/DOCTYPE/i.test(msg)) return { expected: 'a well-formed DOCTYPE or none', found: 'a malformed DOCTYPE' };
  if (/attribute/i.test(msg)) return { expected: 'well-formed attributes', found: 'a malformed attribute' };
  if (/comment/i.test(msg)) return { expected: 'a comment closed by -->', found: 'an unclosed comment' };
  if (/CDATA/i.test(msg)) return { expected: 'a CDATA section closed by ]]>', found: 'an unclosed CDATA section' };
  if (/tag/i.test(msg)) return { expected: 'well-formed tags', found: 'a malformed tag' };
  return { expected: 'well-formed XML', found: 'malformed XML' };
}

/** The problem for an error the XML parser threw on `original` (its positions refer to the cleaned text). */
export function xmlParseProblem(error: unknown, original: string, file: string | undefined): Problem {
  const raw = error instanceof Error ? error.message : String(error);
  const pos = /:(\d+):(\d+|undefined)$/.exec(raw);
  const msg = pos ? raw.slice(0, pos.index) : raw;
  const atText = (idx: number) => {
    const p = originalPosition(original, idx);
    return `line ${p.line}, column ${p.column}`;
  };
  const t = translate(msg, atText);
  const problem: Problem = { code: 'input/xml', file, expected: t.expected, found: t.found };
  if (/^Invalid '\[/.test(msg)) {
    // unclosed elements at the end: the place is the end of the file
    const p = originalPosition(original, Number.MAX_SAFE_INTEGER);
    problem.line = p.line;
    problem.column = p.column;
  } else if (pos && pos[2] !== 'undefined') {
    const p = originalPosition(original, Math.max(0, Number(pos[2]) - 1));
    problem.line = p.line;
    problem.column = p.column;
  }
  return problem;
}
