/**
 * The full XML parser behind `parseDevkitXml` (fast-xml-parser with its validator), used for whatever
 * the plain-XML scanner (`xml-scan.ts`) does not accept, and in the tests as the reference that the
 * scanner must match.
 */
import { createRequire } from 'node:module';
import type { XMLParser as XMLParserType } from 'fast-xml-parser';
import { DevkitError } from '@cvdevkit/core';
import { xmlParseProblem } from './xml-errors.js';
import type { XmlElement, XmlValue } from './xml.js';

const TEXT = '#text';

let parser: XMLParserType | undefined;

/**
 * The parser, made on first use: plain annotation files never need it (`xml-scan.ts`, `xml-pascal-scan.ts`), and
 * its package loads through its CommonJS build (one file, ~15 ms) rather than its ES modules (~100 ms).
 * preserveOrder skips fast-xml-parser's own object building (its `compress` pass) and jPath: false its path
 * strings: together ~40% off the parse of a typical annotation; `fromOrdered` builds the same shape.
 */
function fullParser(): XMLParserType {
  if (parser) return parser;
  const { XMLParser } = createRequire(import.meta.url)('fast-xml-parser') as typeof import('fast-xml-parser');
  parser = new XMLParser({
    ignoreAttributes: true,
    ignoreDeclaration: true,
    ignorePiTags: true,
    parseTagValue: false,
    trimValues: true,
    processEntities: false,
    commentPropName: false,
    cdataPropName: false,
    textNodeName: TEXT,
    preserveOrder: true,
    jPath: false,
  });
  return parser;
}

/** A node of fast-xml-parser's preserveOrder output: `{tag: children}` or `{'#text': text}`. */
type OrderedNode = Record<string, unknown>;

/**
 * One element from its ordered children: text only → the text (empty element → ''); with child
 * elements → tag → value (a repeated tag → array in document order), plus '#text' for mixed text.
 */
function fromOrdered(children: readonly OrderedNode[]): XmlValue {
  let text: string | undefined;
  let el: XmlElement | undefined;
  for (const node of children) {
    for (const tag in node) {
      const v = node[tag];
      if (tag === TEXT) {
        text = text === undefined ? String(v) : text + String(v);
        continue;
      }
      const value = Array.isArray(v) ? fromOrdered(v as OrderedNode[]) : '';
      el ??= {};
      const prev = Object.prototype.hasOwnProperty.call(el, tag) ? el[tag] : undefined;
      if (prev === undefined) {
        // a tag named __proto__ is data, not the prototype
        if (tag === '__proto__') Object.defineProperty(el, tag, { value, enumerable: true, writable: true, configurable: true });
        else el[tag] = value;
      } else if (Array.isArray(prev)) prev.push(value);
      else el[tag] = [prev, value];
    }
  }
  if (el === undefined) return text ?? '';
  if (text !== undefined) el[TEXT] = text;
  return el;
}

/**
 * `text` through fast-xml-parser: TAB, LF and CR deleted first, the result built by `fromOrdered`;
 * a parse error is a DevkitError in cvdevkit's words. Returns the document (`''` when it has no element).
 */
export function parseFullXml(text: string, file?: string): XmlValue {
  const cleaned = text.replace(/[\t\n\r]/g, '');
  let parsed: unknown;
  try {
    parsed = fullParser().parse(cleaned, true);
  } catch (e) {
    throw new DevkitError({ kind: 'input', ...xmlParseProblem(e, text, file) });
  }
  return Array.isArray(parsed) ? fromOrdered(parsed as OrderedNode[]) : '';
}
