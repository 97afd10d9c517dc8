/**
 * The fast path of `parseDevkitXml`: one pass over the text for the plain XML that annotation files
 * are (elements without attributes, text without markup), building the same `XmlElement` tree as the
 * full parser (fast-xml-parser with its validator), in about a fifth of its time.
 *
 * It accepts only a strict subset and answers `undefined` for anything else, which the caller then
 * gives to the full parser: so every result and every error message is the full parser's, and this
 * scanner only has to be right on what it accepts (the fuzz test `xml-scan.test.ts` checks that it
 * gives the full parser's tree there). The subset: white space (space, TAB, LF, CR), then one root
 * element, then white space; an element is `<name>` … `</name>` with `name` = a letter or `_`, then
 * letters, digits, `_`, `.`, `-` (not a name `Object.prototype` has, such as `constructor`); its
 * content is either child elements separated by white space, or text without `<`, `>` or `&`. No XML
 * declaration, comment, CDATA, DOCTYPE, attribute, self-closing tag or mixed content.
 *
 * What the full parser does and this repeats: TAB, LF and CR are deleted (as `VOCxml2struct.m` reads
 * the file), then text is trimmed (`String.prototype.trim`); an empty element is `''`; a repeated child
 * becomes an array in document order.
 */
import type { XmlElement, XmlValue } from './xml.js';

const LT = 60; // <
const GT = 62; // >
const SLASH = 47;
const AMP = 38;

/** TAB, LF, CR, space: the white space allowed around and between elements. */
function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/** A name character after the first: letter, digit, `_`, `.`, `-`. */
function isNameChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 46 || c === 45;
}

/** A name's first character: letter or `_`. */
function isNameStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
}

interface Open {
  name: string;
  el: XmlElement | undefined;
}

/** Adds `value` under `tag` (a repeated tag becomes an array). */
function addChild(el: XmlElement, tag: string, value: XmlValue): void {
  const prev = el[tag];
  if (prev === undefined) el[tag] = value;
  else if (Array.isArray(prev)) prev.push(value);
  else el[tag] = [prev, value];
}

/** The element tree of `text` when it is in the plain subset above; undefined otherwise. */
export function scanPlainXml(text: string): XmlElement | undefined {
  const n = text.length;
  const stack: Open[] = [];
  let root: XmlElement | undefined;
  let i = 0;
  /** Adds a closed element to its parent (or makes it the root); false for a second root. */
  const finish = (name: string, value: XmlValue): boolean => {
    if (stack.length > 0) {
      addChild((stack[stack.length - 1].el ??= {}), name, value);
      return true;
    }
    if (root !== undefined) return false;
    root = {};
    root[name] = value;
    return true;
  };
  while (i < n) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) {
      i++;
      continue;
    }
    if (c !== LT) {
      // text: only as the whole content of a leaf element
      const top = stack.length > 0 ? stack[stack.length - 1] : undefined;
      if (top === undefined || top.el !== undefined) return undefined;
      const start = i;
      let breaks = false;
      for (; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === LT) break;
        if (d === GT || d === AMP) return undefined;
        if (d === 9 || d === 10 || d === 13) breaks = true;
      }
      if (i >= n || text.charCodeAt(i + 1) !== SLASH) return undefined;
      const raw = text.slice(start, i);
      const value = (breaks ? raw.replace(/[\t\n\r]/g, '') : raw).trim();
      // the closing tag must follow; a non-empty text keeps its element a leaf
      i = closeTag(text, i, top.name);
      if (i < 0) return undefined;
      stack.pop();
      if (!finish(top.name, value)) return undefined;
      continue;
    }
    const c1 = text.charCodeAt(i + 1);
    if (c1 === SLASH) {
      const top = stack.pop();
      if (top === undefined) return undefined;
      i = closeTag(text, i, top.name);
      if (i < 0) return undefined;
      if (!finish(top.name, top.el ?? '')) return undefined;
      continue;
    }
    // an opening tag: <name>
    if (!isNameStart(c1)) return undefined;
    let j = i + 2;
    while (j < n && isNameChar(text.charCodeAt(j))) j++;
    if (j >= n || text.charCodeAt(j) !== GT) return undefined;
    const name = text.slice(i + 1, j);
    if (name in Object.prototype) return undefined;
    if (stack.length === 0 && root !== undefined) return undefined; // a second root
    if (stack.length > 0) stack[stack.length - 1].el ??= {};
    stack.push({ name, el: undefined });
    i = j + 1;
  }
  return stack.length === 0 ? root : undefined;
}

/** The index after `</name>` at `at`, or -1 when something else is there. */
function closeTag(text: string, at: number, name: string): number {
  const end = at + 2 + name.length;
  if (text.charCodeAt(end) !== GT || !text.startsWith(name, at + 2) || text.charCodeAt(at + 1) !== SLASH) return -1;
  return end + 1;
}
